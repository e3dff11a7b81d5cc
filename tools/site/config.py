"""The site's settings: site.toml beside this file (a line and a key figure per chapter, the MathJax release)."""
import tomllib
from dataclasses import dataclass
from pathlib import Path

CONFIG = Path(__file__).with_name("site.toml")


class SiteError(RuntimeError):
    """A site that cannot be built as asked: said in one message, for `make site` to print."""


@dataclass(frozen=True)
class ChapterSettings:
    line: str | None    # None: not configured, the title's subtitle stands in
    figure: str | None  # a cell id; None: the chapter's first image


@dataclass(frozen=True)
class MathJax:
    version: str
    integrity: str  # npm's "sha512-<base64>" of the release tarball
    file: str       # the one bundle the pages load, inside the tarball's package/ folder


@dataclass(frozen=True)
class Settings:
    chapters: dict
    mathjax: MathJax

    def chapter(self, name: str) -> ChapterSettings:
        return self.chapters.get(name, ChapterSettings(None, None))


def load(path: Path = CONFIG) -> Settings:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    chapters = {name: ChapterSettings(entry.get("line"), entry.get("figure"))
                for name, entry in data.get("chapters", {}).items()}
    return Settings(chapters, MathJax(**data["mathjax"]))
