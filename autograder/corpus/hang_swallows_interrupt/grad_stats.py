import time
while True:
    try:
        time.sleep(1)
    except BaseException:
        pass
