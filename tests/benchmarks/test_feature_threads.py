"""`python -m benchmarks.feature_threads`: both features are timed on one thread and on two, the same
rows, and the run says (and its exit status) whether the arrays were the same."""

from __future__ import annotations

import json

import pytest

from benchmarks import feature_threads


def test_both_features_are_timed_and_compared(tmp_path, capsys):
    out = tmp_path / "threads.json"
    argv = [
        "--hive-positions",
        "3",
        "--hoyito-rows",
        "8",
        "--rounds",
        "1",
        "--threads",
        "2",
        "--json",
        str(out),
    ]
    assert feature_threads.main(argv) == 0
    printed = capsys.readouterr().out
    assert "Hive, searched value depth 3 (3 rows)" in printed and "Hoyito 2x6" in printed
    document = json.loads(out.read_text())
    assert [row["rows"] for row in document["rows"]] == [3, 8]
    for row in document["rows"]:
        assert row["same_arrays"] is True and set(row["threads"]) == {"1", "2"}
        assert row["wall_ratio"] > 0


def test_bad_flags_are_refused():
    with pytest.raises(SystemExit):
        feature_threads.main(["--threads", "1"])
