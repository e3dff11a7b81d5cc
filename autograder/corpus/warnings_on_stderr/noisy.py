import sys, warnings
warnings.warn("this cell is noisy")
print("a message on stderr", file=sys.stderr)
