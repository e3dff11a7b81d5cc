"""Frame by Frame: the package the chapter notebooks stand on."""
from .profile import describe, device, profile, seed_everything, sizes

__all__ = ["describe", "device", "profile", "seed_everything", "sizes"]
