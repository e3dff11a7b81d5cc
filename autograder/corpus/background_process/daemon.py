import os, subprocess, time
subprocess.Popen(["sleep", "6137"], start_new_session=True)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execvp("sleep", ["sleep", "6137"])
    os._exit(0)
time.sleep(0.5)
