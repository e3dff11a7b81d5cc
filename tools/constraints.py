"""`make constraints`: pin what `make setup` installed into constraints.txt (run after changing requirements.txt).

Writes every package of the venv at its installed version (`pip freeze`, without the course's own editable
package), sorted, under the file's header. A local version label is dropped (torch's `+cpu`): the pin must match
the CPU file on this machine kind and the PyPI release elsewhere. setuptools, which pip freeze leaves out, is pinned
too: requirements.txt asks for it (torchviz imports distutils on Python >= 3.12).
"""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADER = ("# Tested pins for make setup (pip install -c constraints.txt -r requirements.txt).\n"
          "# Regenerate with: make constraints   (keep torch==2.13.0: newer releases pull a multi-GB CUDA build)\n")


def pins(python=sys.executable) -> list[str]:
    frozen = subprocess.run([python, "-m", "pip", "freeze", "--all", "--exclude-editable"], capture_output=True,
                            text=True, check=True).stdout.splitlines()
    kept = [re.sub(r"\+[\w.]+$", "", line) for line in frozen
            if "==" in line and not line.startswith(("pip==", "-e", "#"))]
    return sorted(kept, key=str.lower)


def main() -> int:
    text = HEADER + "".join(f"{pin}\n" for pin in pins())
    (ROOT / "constraints.txt").write_text(text)
    print(f"wrote {ROOT / 'constraints.txt'} ({text.count(chr(10)) - 2} pins)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
