"""docs/results/ holds summaries: every figure the docs quote, none of the games behind them
(`hive_envs.evaluation.results_files` writes those to records files the repository does not keep)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RESULTS = sorted((ROOT / "docs" / "results").glob("*.json"))
MAX_BYTES = 2_000_000


def keys(document) -> set[str]:
    if isinstance(document, dict):
        return set(document) | {key for value in document.values() for key in keys(value)}
    if isinstance(document, list):
        return {key for value in document for key in keys(value)}
    return set()


@pytest.mark.parametrize("path", RESULTS, ids=[path.name for path in RESULTS])
def test_a_results_file_is_a_summary_that_names_its_records_file(path):
    document = json.loads(path.read_text())
    assert "games_played" not in keys(document), "write it with evaluation.results_files (its games apart)"
    pointer = document.get("records") if isinstance(document, dict) else None
    if pointer is not None:
        assert pointer["file"] == f"records/{path.stem}.json.gz" and pointer["games"] > 0
        assert re.fullmatch(r"[0-9a-f]{64}", pointer["sha256"])


def test_the_results_folder_stays_small():
    assert len(RESULTS) > 0
    assert sum(path.stat().st_size for path in RESULTS) <= MAX_BYTES
    assert not [p for p in (ROOT / "docs" / "results").iterdir() if p.is_file() and p.suffix != ".json"]
