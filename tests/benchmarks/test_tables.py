"""What `benchmarks.tables` renders from the results files: targets and their verdicts (that the pages
hold what it renders is checked by tests/test_docs_fresh.py)."""

from __future__ import annotations

import copy

import pytest

from benchmarks import results, tables


@pytest.fixture(scope="module")
def committed():
    return results.read(tables.ROOT / tables.RESULTS)


def test_cold_start_targets_say_met_and_not_met():
    doc = copy.deepcopy(results.read(tables.ROOT / tables.COLD_RESULTS))
    gym, train = sorted(doc["rows"], key=lambda row: row["case"])
    gym["cold"]["cpu_s"], train["cold"]["cpu_s"] = 7.9, 30.1
    lines = tables.render_cold_start(doc).splitlines()
    assert next(line for line in lines if "gym.make" in line).endswith("≤ 8 s CPU: met |")
    assert next(line for line in lines if "first update" in line).endswith("≤ 30 s CPU: not met |")


def test_targets_say_met_not_met_and_not_measured(committed):
    doc = copy.deepcopy(committed)
    rows = {row["key"]: row for row in doc["rows"]}
    rows["hive:Base:batch1024"].update(ratio=9.0, ratio_cpu=9.0)
    rows["hive:Base+MLP:batch1024"].update(ratio=4.0, ratio_cpu=4.0)
    rows["hive:Base:aec"].update(plies_per_second=None, cpu_plies_per_second=None, ratio=None, ratio_cpu=None)
    text = tables.targets_table(doc)
    line = {cells.split("|")[1].strip(): cells for cells in text.splitlines()[2:]}
    assert line["HiveBatch N=1024 Base ≥ 8× OpenSpiel"].rstrip(" |").endswith("| met")
    assert line["HiveBatch N=1024 Base+MLP ≥ 5× OpenSpiel"].rstrip(" |").endswith("not met")
    assert "not measured" in line["`hive_v0.env()` Base ≥ 2× OpenSpiel"]


def test_provenance_names_the_run(committed):
    text = tables.provenance(committed)
    assert committed["commit"][:10] in text and committed["machine"]["cpu_model"] in text
    assert "load average" in text and f"numba {committed['versions']['numba']}" in text
