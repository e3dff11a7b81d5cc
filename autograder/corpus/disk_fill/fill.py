import os
written = 0
try:
    for n in range(10**6):
        with open(f"fill-{n}.bin", "wb") as f:
            for _ in range(64):
                f.write(b"\0" * 2**20)
                written += 2**20
except OSError as error:
    print(f"stopped after {written >> 20} MB:", type(error).__name__)
for name in os.listdir("."):
    if name.startswith("fill-"):
        os.remove(name)
