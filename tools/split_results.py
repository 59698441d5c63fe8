"""Once: split each results file of docs/results/ that holds games into its summary and its records file.

    python -m tools.split_results

`hive_envs.training.results_files.split` for every ``docs/results/*.json`` with ``"games_played"``
anywhere: the records file (``docs/results/records/NAME.json.gz``, the whole file as it was) and the
summary in its place, written with the file's own indentation so that the diff shows only what left.
"""

from __future__ import annotations

import json
from pathlib import Path

from hive_envs.training import results_files

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    for path in sorted((ROOT / "docs" / "results").glob("*.json")):
        text = path.read_text()
        summary, records = results_files.split(json.loads(text), path)
        if records is None:
            continue
        indent = len(text.split("\n", 2)[1]) - len(text.split("\n", 2)[1].lstrip(" "))
        results_files.records_path(path).parent.mkdir(exist_ok=True)
        results_files.records_path(path).write_bytes(records)
        ending = "\n" if text.endswith("\n") else ""
        path.write_text(json.dumps(summary, indent=indent, ensure_ascii=text.isascii()) + ending)
        assert results_files.read_records(path) == json.loads(text)
        print(f"{path.relative_to(ROOT)}: {len(text):,} -> {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
