"""The README's and the docs' throughput tables are what `benchmarks.tables` renders from the
committed results file, so no document can drift from it (or from the others)."""

from __future__ import annotations

import copy

import pytest

from benchmarks import results, tables


@pytest.fixture(scope="module")
def committed():
    return results.read(tables.ROOT / tables.RESULTS)


@pytest.mark.parametrize("name", list(tables.DOCUMENTS))
def test_generated_block_equals_what_the_committed_results_file_renders(committed, name):
    _before, block, _after = tables.split_block((tables.ROOT / name).read_text(), name)
    assert block == tables.rendered_block(tables.DOCUMENTS[name], committed), (
        f"{name} is stale: run python -m benchmarks.tables"
    )


def test_the_readme_cold_start_block_is_what_the_cold_start_file_renders():
    doc = results.read(tables.ROOT / tables.COLD_RESULTS)
    _before, block, _after = tables.split_block(
        (tables.ROOT / "README.md").read_text(), "README.md", tables.COLD_BEGIN, tables.COLD_END
    )
    assert block == tables.rendered_block(tables.render_cold_start, doc), "run python -m benchmarks.tables"
    assert "python -m benchmarks.cold_start" in block and "load average" in block
    assert {row["case"] for row in doc["rows"]} == {"gym", "train"}


def test_cold_start_targets_say_met_and_not_met():
    doc = copy.deepcopy(results.read(tables.ROOT / tables.COLD_RESULTS))
    gym, train = sorted(doc["rows"], key=lambda row: row["case"])
    gym["cold"]["cpu_s"], train["cold"]["cpu_s"] = 7.9, 30.1
    lines = tables.render_cold_start(doc).splitlines()
    assert next(line for line in lines if "gym.make" in line).endswith("≤ 8 s CPU: met |")
    assert next(line for line in lines if "first update" in line).endswith("≤ 30 s CPU: not met |")


def test_the_check_command_agrees():
    assert tables.main(["--check"]) == 0


def test_a_document_without_its_block_is_refused():
    with pytest.raises(ValueError, match="exactly one"):
        tables.split_block("no markers here", "X.md")
    with pytest.raises(ValueError, match="exactly one"):
        tables.split_block(f"{tables.BEGIN}\n{tables.END}\n{tables.BEGIN}\n{tables.END}", "X.md")


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
