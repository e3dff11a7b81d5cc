import sys
frame, found = sys._getframe(), []
while frame is not None:
    found += [name for name in frame.f_locals if name in ("send", "run", "restore")]
    frame = frame.f_back
print("runner names seen:", found)
