"""Frame by Frame: the package the chapter notebooks stand on."""
from .profile import apply_thread_policy, describe, device, profile, seed_everything, sizes, threads

apply_thread_policy()

__all__ = ["describe", "device", "profile", "seed_everything", "sizes", "threads"]
