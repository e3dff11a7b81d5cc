import sys, threading

def skip(frame, event, arg):
    if event == "line":
        line = frame.f_code.co_filename
        try:
            frame.f_lineno = frame.f_lineno + 1
        except ValueError:
            pass
    return skip

try:
    sys.settrace(skip)
except RuntimeError as error:
    print("settrace:", error)
threading.settrace(skip)
