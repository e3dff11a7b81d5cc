import os, sys
targets = [os.path.join(sys.prefix, "planted.txt"), "/usr/planted.txt", "/etc/planted.txt",
           "/grader/planted.txt", "/grader/runner.py"]
import course
targets.append(os.path.join(os.path.dirname(course.__file__), "planted.py"))
written = []
for path in targets:
    try:
        with open(path, "a") as f:
            f.write("planted")
        written.append(path)
    except OSError:
        pass
try:  # a host path: inside the sandbox /tmp is the sandbox's own, so this lands there, not on the host
    os.makedirs(os.path.dirname("@CANARY@"), exist_ok=True)
    open("@CANARY@", "w").write("planted")
except OSError:
    pass
print("ESCAPED" if written else "CONTAINED", written)
