"""`python -m benchmarks.bench_observations`: both observations' batch loops run and are compared."""

from __future__ import annotations

from benchmarks import bench_observations


def test_both_observations_are_timed_side_by_side(capsys):
    bench_observations.main(["--seconds", "0.05", "--games", "2"])
    lines = capsys.readouterr().out.splitlines()
    rows = [line.split() for line in lines if line.startswith(("Base ", "Base+MLP"))]
    assert [row[:2] for row in rows] == [["Base", "2"], ["Base+MLP", "2"]]
    for row in rows:
        planes, pieces, ratio = float(row[2]), float(row[3]), float(row[4].rstrip("x"))
        assert planes > 0 and pieces > 0 and abs(ratio - pieces / planes) < 0.01
    assert lines[0].startswith("load average before") and lines[-1].startswith("load average after")
