"""MathJax for the pages, vendored: the release named in site.toml, fetched from the npm registry with
`npm pack` (npm checks the download), its sha512 checked against site.toml, and cached, so later builds and the
pages themselves need no network. The pages load one bundle (TeX input, SVG output: no font files to fetch)."""
import base64
import hashlib
import shutil
import subprocess
import tarfile
from pathlib import Path

from .config import MathJax, SiteError


def _integrity(path: Path) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()


def _download(mathjax: MathJax, tarball: Path):
    npm = shutil.which("npm")
    if npm is None:
        raise SiteError("the site's math needs MathJax, fetched once from the npm registry with `npm`: install "
                        "Node.js and npm (Debian: apt-get install npm)")
    tarball.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([npm, "pack", f"mathjax@{mathjax.version}", "--silent", "--pack-destination",
                           str(tarball.parent)], capture_output=True, text=True)
    if done.returncode != 0 or not tarball.exists():
        raise SiteError(f"npm pack mathjax@{mathjax.version} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")


def vendored(mathjax: MathJax, cache: Path) -> Path:
    """The path of MathJax's bundle in `cache`, fetched and checked first if it is not there yet."""
    bundle = Path(cache) / f"mathjax-{mathjax.version}" / mathjax.file
    if bundle.exists():
        return bundle
    tarball = Path(cache) / f"mathjax-{mathjax.version}.tgz"
    if not tarball.exists():
        _download(mathjax, tarball)
    if _integrity(tarball) != mathjax.integrity:
        tarball.unlink()
        raise SiteError(f"mathjax-{mathjax.version}.tgz is not the release site.toml names (sha512 differs)")
    with tarfile.open(tarball) as archive:
        member = archive.extractfile(f"package/{mathjax.file}")
        if member is None:
            raise SiteError(f"mathjax-{mathjax.version}.tgz has no {mathjax.file}")
        bundle.parent.mkdir(parents=True, exist_ok=True)
        partial = bundle.with_suffix(".partial")
        partial.write_bytes(member.read())
        partial.replace(bundle)
    return bundle
