import os
line = "x" * 10_000
for _ in range(10_000):
    print(line)
    os.write(1, b"y" * 10_000)
