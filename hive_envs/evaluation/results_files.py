"""A match report on disk: the summary the repository keeps, and its games in a compressed file beside it.

A report's per-game rows (``"games_played"``: each game's seat, result, length, record, opening and
the wall seconds of every move) are nearly all of its bytes (a 200-game-a-pair ladder: 4 MB of them)
and no table quotes them. So `write_report` writes a report that holds games as two files:

- the **summary**, at the path given (``--out``): the report without its ``"games_played"`` lists,
  wherever they are nested; every count, score, interval, Elo, command, commit, machine and load
  average stays. It names the second file: ``"records": {"file", "games", "sha256"}`` (``file``
  relative to the summary's folder; ``sha256`` of the records file's uncompressed text);
- the **records file**, `records_path` of the summary (``records/NAME.json.gz`` in the summary's
  folder): the whole report, games included, as gzip-compressed JSON. The web page (``hive-web``,
  Replay) opens it as it opens any report; `read_records` reads it back, checked against its summary.

The repository keeps the summaries of ``docs/results/`` and ignores ``docs/results/records/``
(.gitignore): the records of a run stay on the machine that played it. A report without games
(``evaluate.py``'s batched matches, a ladder whose pairs were all kept) is written whole, alone.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import tempfile
from pathlib import Path

GAMES = "games_played"
"""The key of a match's (or a ladder pair's) list of games, wherever it is nested in a report."""
RECORDS = "records"
"""The summary's key naming its records file, and the folder beside the summary that holds them."""


def records_path(summary: str | Path) -> Path:
    """Where the records of the summary at ``summary`` go: ``records/NAME.json.gz`` in its folder."""
    summary = Path(summary)
    return summary.parent / RECORDS / f"{summary.stem}.json.gz"


def without_games(report):
    """``report`` with every ``"games_played"`` entry left out, at any depth (a copy), and how many
    games those entries held."""
    if isinstance(report, dict):
        kept, games = {}, 0
        for key, value in report.items():
            if key == GAMES and isinstance(value, list):
                games += len(value)
                continue
            kept[key], inner = without_games(value)
            games += inner
        return kept, games
    if isinstance(report, list):
        items = [without_games(value) for value in report]
        return [item for item, _ in items], sum(games for _, games in items)
    return report, 0


def split(report: dict, summary_path: str | Path) -> tuple[dict, bytes | None]:
    """The summary to write at ``summary_path`` and the gzip bytes of its records file (None when
    ``report`` holds no game: the summary is then ``report`` itself)."""
    summary, games = without_games(report)
    if not games:
        return report, None
    text = json.dumps(report, separators=(",", ":")).encode()
    records = records_path(summary_path)
    summary[RECORDS] = {
        "file": records.relative_to(Path(summary_path).parent).as_posix(),
        "games": games,
        "sha256": hashlib.sha256(text).hexdigest(),
    }
    return summary, gzip.compress(text, mtime=0)  # no time stamp: the same report, the same bytes


def write(path: str | Path, report: dict) -> Path | None:
    """Write ``report`` at ``path`` (indented JSON) and its records file if it holds games (`split`);
    returns the records file's path, or None."""
    path = Path(path)
    summary, records = split(report, path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if records is not None:
        records_path(path).parent.mkdir(parents=True, exist_ok=True)
        records_path(path).write_bytes(records)
    path.write_text(json.dumps(summary, indent=2) + "\n")
    return None if records is None else records_path(path)


def read_records(summary_path: str | Path) -> dict:
    """The whole report (games included) behind the summary at ``summary_path``; ValueError if the
    summary names no records file, the file is missing or unreadable, or it is not the one the
    summary was written with (another run's)."""
    try:
        summary = json.loads(Path(summary_path).read_text())
    except OSError as error:
        raise ValueError(f"cannot read {str(summary_path)!r}: {error.strerror or error}") from None
    pointer = summary.get(RECORDS) if isinstance(summary, dict) else None
    if not isinstance(pointer, dict) or not isinstance(pointer.get("file"), str):
        raise ValueError(f"{str(summary_path)!r} names no records file (a report without games)")
    path = Path(summary_path).parent / pointer["file"]
    try:
        text = gzip.decompress(path.read_bytes())
    except (OSError, EOFError, gzip.BadGzipFile) as error:
        raise ValueError(
            f"cannot read the records of {str(summary_path)!r} from {str(path)!r}: {error} "
            "(records files are not in the repository: they stay where the run was played)"
        ) from None
    if hashlib.sha256(text).hexdigest() != pointer.get("sha256"):
        raise ValueError(
            f"{str(path)!r} is not the records file of {str(summary_path)!r} (its sha256 differs: "
            "another run wrote it)"
        )
    return json.loads(text)


def read_report(path: str | Path) -> tuple[dict, str | None]:
    """The report at ``path`` with its games where its records file is here and matches, else the
    summary alone; and, in that case, why the games are missing (None when none were named)."""
    summary = json.loads(Path(path).read_text())
    if not isinstance(summary, dict) or RECORDS not in summary:
        return summary, None
    try:
        return read_records(path), None
    except ValueError as error:
        return summary, str(error)


def write_report(path: str | Path, report: dict) -> None:
    """Write `report` as indented JSON (making the folder again if it vanished) and say where; a report
    that holds games is written as its summary at `path` and its records file beside it
    (`split`: ``records/NAME.json.gz``). If a file cannot be written any more (`path` is
    checked at the start, but the folder may have become a file or read-only since), it is saved to
    a new file in the temporary folder instead and a ValueError names both, so that a long run's
    results are never lost."""
    summary, records = split(report, path)
    files = [(Path(path), json.dumps(summary, indent=2).encode(), ".json")]
    if records is not None:
        files.append((records_path(path), records, ".json.gz"))
    rescued = [message for message in (_write_or_rescue(*file) for file in files) if message]
    if rescued:
        raise ValueError("; ".join(rescued))
    print(f"\nwrote {path}" + (f" and its games, {files[1][0]}" if records else ""))


def _write_or_rescue(path: Path, data: bytes, suffix: str) -> str | None:
    """Write ``data`` at ``path``; if that fails, to a new temporary file, and say so (else None)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    except OSError as error:
        handle, saved = tempfile.mkstemp(prefix=f"{path.name.split('.')[0]}.", suffix=suffix)
        with os.fdopen(handle, "wb") as rescue:
            rescue.write(data)
        return (
            f"cannot write the report to {str(path)!r} ({error.strerror or error}); it was saved to {saved!r}"
        )
    return None


def check_writable(path: str | Path, flag: str) -> None:
    """ValueError naming ``flag`` unless a file can be written at ``path`` (its folder is made if
    missing): checked before a long run, so that hours of games are not lost to a typo."""
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"{flag} {str(path)!r} is a folder; give a file path")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        existed = path.exists()
        with open(path, "a"):
            pass
        if not existed:
            path.unlink()
    except OSError as error:
        raise ValueError(f"{flag} {str(path)!r} cannot be written: {error.strerror or error}") from None
