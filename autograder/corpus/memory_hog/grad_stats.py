import torch
hog = torch.ones(2**31)  # 8 GiB of float32, every page written
