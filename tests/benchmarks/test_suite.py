"""The benchmark suite runs end to end (`python -m benchmarks --quick`), prints its one table and
writes a results file the docs' tables render from."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import results, suite, tables

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # run alone with -m slow: minutes of the default suite
def test_quick_suite_measures_every_row_prints_one_table_and_writes_the_results_file(tmp_path):
    out = tmp_path / "bench.json"
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--quick", "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    progress = {line.split()[0]: line for line in proc.stderr.splitlines() if "plies/s" in line}
    rows = suite.all_rows()
    for key in rows:
        line = progress[key]
        rate = float(line.split()[1].replace(",", ""))
        assert rate > 0 or "not measured" in line, line  # optional peers (shimmy, chess) may be absent
    table = proc.stdout.split("peer rows call")[0].strip().splitlines()
    assert len(table) == 2 + len(rows)
    assert sum("OpenSpiel, set_from + mask" in row for row in table) >= 2 * 11
    assert "perft(3) =       1,440" in proc.stdout

    doc = results.read(out)
    assert [row["key"] for row in doc["rows"]] == list(rows)
    assert doc["machine"]["cpus"] >= 1 and doc["versions"]["numba"]
    assert len(doc["load_average"]["before"]) == 3 and len(doc["load_average"]["after"]) == 3
    assert {f["game_type"] for f in doc["perft"]} == {"Base", "Base+MLP"}
    assert all(set(c["us_per_position"]) >= {"generate_moves", "encode_mask"} for c in doc["kernel_costs"])
    batch = next(row for row in doc["rows"] if row["key"] == "hive:Base:batch1024")
    assert batch["peer"] == "hive:Base:openspiel" and batch["ratio"] > 0
    for render in (tables.render_summary, tables.render_throughput, tables.render_env, tables.render_hoyito):
        assert "| Hive Base" in render(doc) or "| Hoyito" in render(doc), render.__name__


def test_one_row_in_its_own_process_reports_peak_memory_and_batch_arrays():
    result = suite.measure_isolated("hoyito:2x6:batch64", 0.02)
    assert result.plies_per_second > 0 and result.note == ""
    assert result.peak_rss_bytes > 2**20 and result.buffer_bytes > 0


def test_every_game_row_has_a_peer_row():
    rows = suite.all_rows()
    for key in rows:
        peer = suite.peer_of(key)
        assert peer is None or peer in rows, key


def test_hive_rows_are_compared_with_openspiel_at_its_fastest_and_engines_with_its_move_loop():
    assert suite.peer_of("hive:Base:batch1024") == "hive:Base:openspiel"
    assert suite.peer_of("hive:Base+MLP:aec") == "hive:Base+MLP:openspiel"
    assert suite.peer_of("hive:Base:openspiel_tensor") == "hive:Base:openspiel"
    assert suite.peer_of("hive:Base:engine") == "hive:Base:openspiel_moves"
    assert suite.peer_of("hive:Base+MLP:kernel") == "hive:Base+MLP:openspiel_moves"
    assert suite.peer_of("hive:Base:openspiel") is None
    rows = suite.all_rows()
    assert "set_from" in rows["hive:Base:openspiel"].calls
    assert "observation_tensor" in rows["hive:Base:openspiel_tensor"].calls
    assert all(row.calls for row in rows.values())
