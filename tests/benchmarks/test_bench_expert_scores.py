"""`python -m benchmarks.bench_expert_scores`: the three ways of scoring a position's moves are timed on
the same positions, and the kernel's best score is alphabeta:depth's root value."""

from __future__ import annotations

import re

from benchmarks import bench_expert_scores


def test_each_way_is_timed_on_the_same_positions(capsys):
    bench_expert_scores.main(["--positions", "3", "--depth", "2"])
    out = capsys.readouterr().out
    assert "Hive, depth 2: 3 positions" in out
    rows = re.findall(
        r"^  (one kernel call|a search per move).*?best = alphabeta:2's root value in (\d)/3$",
        out,
        re.MULTILINE,
    )
    assert len(rows) == 3
    assert [found for way, found in rows if way == "one kernel call"] == ["3", "3"]
    assert len(bench_expert_scores.positions(5, 0)) == 5
