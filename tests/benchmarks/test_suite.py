"""The benchmark suite runs end to end (`python -m benchmarks --quick`) and prints its one table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from benchmarks import suite

ROOT = Path(__file__).resolve().parents[2]


def test_quick_suite_measures_every_row_and_prints_one_table():
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--quick"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    progress = {line.split()[0]: line for line in proc.stderr.splitlines() if "plies/s" in line}
    for key in suite.all_rows():
        line = progress[key]
        rate = float(line.split()[1].replace(",", ""))
        assert rate > 0 or "not measured" in line, line  # optional peers (shimmy, chess) may be absent
    table = proc.stdout.splitlines()
    assert len(table) == 2 + len(suite.all_rows())
    assert sum("x  OpenSpiel pyspiel" in row for row in table) >= 2 * 8


def test_one_row_in_its_own_process_reports_peak_memory_and_batch_arrays():
    result = suite.measure_isolated("hoyito:2x6:batch64", 0.02)
    assert result.plies_per_second > 0 and result.note == ""
    assert result.peak_rss_bytes > 2**20 and result.buffer_bytes > 0


def test_every_game_row_has_a_peer_row():
    rows = suite.all_rows()
    for key in rows:
        peer = suite.peer_of(key)
        assert peer is None or peer in rows, key
