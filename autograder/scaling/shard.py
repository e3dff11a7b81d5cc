"""`--shard K/N`: one of N machines grades its share of the students; `merge` puts the shares back together.

A student's shard is decided by a hash of the folder's name alone (SHA-256 of its bytes, modulo N), not by its
position in a listing: every machine puts each student in the same shard even if one of them sees a student
folder the others do not, so no student is graded twice. Each shard records in OUT/shard.json which shard it
was, the assignments it graded, and a digest of the class it saw, so that `merge` can refuse shards that do not
belong together instead of writing a report with students missing.
"""
import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

MARKER = "shard.json"


class ShardError(ValueError):
    """Shard outputs that cannot be merged, or a --shard that cannot be parsed."""


@dataclass(frozen=True)
class Shard:
    index: int  # K, from 1
    count: int  # N

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def owns(self, student: str) -> bool:
        digest = hashlib.sha256(os.fsencode(student)).digest()
        return int.from_bytes(digest[:8], "big") % self.count == self.index - 1


def parse(text: str) -> Shard:
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if not match:
        raise ShardError(f"--shard {text!r}: expected K/N, e.g. 1/4")
    index, count = int(match[1]), int(match[2])
    if not 1 <= index <= count:
        raise ShardError(f"--shard {text}: K must be between 1 and N")
    return Shard(index, count)


def class_digest(students: list[str]) -> str:
    """Names every machine must see alike, as one short hash."""
    return hashlib.sha256(b"\0".join(os.fsencode(s) for s in sorted(students))).hexdigest()[:16]


def write_marker(out_dir: Path, shard: Shard, assignments: list[str], all_students: list[str],
                 graded: list[str]) -> None:
    # json escapes lone surrogates (undecodable folder names), so the names come back exactly as they were.
    marker = {"shard": shard.index, "shards": shard.count, "assignments": sorted(assignments),
              "class_size": len(all_students), "class_digest": class_digest(all_students),
              "students": sorted(graded)}
    (out_dir / MARKER).write_text(json.dumps(marker, indent=1) + "\n", encoding="ascii")


def read_marker(out_dir: Path) -> dict:
    path = out_dir / MARKER
    if not path.is_file():
        raise ShardError(f"{out_dir} holds no {MARKER}: it is not the output of `grade --shard K/N`")
    return json.loads(path.read_text(encoding="ascii"))


def check_complete(markers: dict[Path, dict]) -> None:
    """Raises ShardError unless the markers are shards 1..N of one grading of one class, each once."""
    first = next(iter(markers.values()))
    for out, marker in markers.items():
        for key in ("shards", "assignments", "class_size", "class_digest"):
            if marker[key] != first[key]:
                raise ShardError(f"{out} was graded with a different {key.replace('_', ' ')} ({marker[key]}) "
                                 f"than {next(iter(markers))} ({first[key]})")
    seen = sorted(marker["shard"] for marker in markers.values())
    expected = list(range(1, first["shards"] + 1))
    if seen != expected:
        missing = sorted(set(expected) - set(seen))
        twice = sorted({k for k in seen if seen.count(k) > 1})
        raise ShardError(f"need each of shards 1..{first['shards']} once; "
                         + "; ".join(filter(None, [f"missing {missing}" if missing else "",
                                                   f"given twice {twice}" if twice else ""])))
