import gc
try:
    print(len(gc.get_objects()))
except RuntimeError as error:
    print("gc:", error)
import ctypes
try:
    print(ctypes.string_at(id(gc), 16))
except RuntimeError as error:
    print("ctypes:", error)
try:
    open("/proc/self/mem", "rb")
except (RuntimeError, OSError) as error:
    print("mem:", error)
