"""The stock-framework baselines `benchmarks.baselines` renders from the committed results files of the
examples (that the pages hold what it renders is checked by tests/test_docs_fresh.py)."""

from __future__ import annotations

import copy

import pytest

from benchmarks import baselines


@pytest.fixture(scope="module")
def reports():
    return baselines.read_reports()


def test_each_results_file_gives_one_row_with_its_figures(reports):
    text = baselines.render(reports)
    for path, report in reports.items():
        assert f"`{report['command']}`" in text and report["commit"][:10] in text
        random = baselines._match(report, "random")
        assert f"{random['wins']}/{random['draws']}/{random['losses']}" in text, path
        assert f"{report['learner_steps']:,} steps, {report['plies']:,} plies" in text, path


def test_the_target_line_says_met_or_by_how_much_it_was_missed(reports):
    report = copy.deepcopy(reports["docs/results/sb3_hive_base_shaping.json"])
    match = baselines._match(report, "random")
    match["win_rate"] = 0.80
    assert baselines.target_line(report).endswith(": met.")
    match["win_rate"] = 0.735
    assert baselines.target_line(report).endswith("missed by 6.5 points.")


def test_a_report_without_a_match_against_an_opponent_is_refused(reports):
    report = copy.deepcopy(next(iter(reports.values())))
    report["evaluation"]["matches"] = [
        m for m in report["evaluation"]["matches"] if m["opponent"] != "greedy"
    ]
    with pytest.raises(ValueError, match="greedy"):
        baselines.row(report, ("x", "y"))
