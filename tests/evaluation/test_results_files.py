"""A report with games is written as a summary and a compressed records file (`evaluation.results_files`)."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from hive_envs.evaluation import results_files
from hive_envs.evaluation.results_files import read_records, read_report, records_path, write_report

ROOT = Path(__file__).resolve().parents[2]


def report_with_games(result: float = 1.0) -> dict:
    game = {"seat_of_a": 0, "result_for_a": result, "plies": 2, "record": "x", "move_seconds_a": [0.1]}
    return {
        "game": "hive",
        "matches": [{"player": "a", "opponent": "b", "wins": 1, "games_played": [game, dict(game)]}],
        "runs": [{"matches": [{"player": "c", "games_played": [game]}]}],  # nested as in a hand-made file
    }


def test_a_report_with_games_is_a_summary_without_them_and_a_records_file_with_everything(tmp_path):
    out = tmp_path / "results" / "match.json"
    report = report_with_games()
    write_report(out, report)
    summary = json.loads(out.read_text())
    assert "games_played" not in out.read_text()
    assert summary["matches"][0] == {"player": "a", "opponent": "b", "wins": 1}
    assert summary["records"]["file"] == "records/match.json.gz" and summary["records"]["games"] == 3
    assert records_path(out) == tmp_path / "results" / "records" / "match.json.gz"
    assert read_records(out) == report
    assert json.loads(gzip.decompress(records_path(out).read_bytes())) == report  # any gunzip reads it


def test_a_report_without_games_is_written_whole_and_alone(tmp_path):
    out = tmp_path / "elo.json"
    write_report(out, {"game": "hive", "matches": [{"player": "a", "wins": 1}]})
    assert json.loads(out.read_text()) == {"game": "hive", "matches": [{"player": "a", "wins": 1}]}
    assert not records_path(out).parent.exists()
    with pytest.raises(ValueError, match="names no records file"):
        read_records(out)
    assert read_report(out) == (json.loads(out.read_text()), None)


def test_the_same_report_makes_the_same_bytes(tmp_path):
    first, second = tmp_path / "a" / "r.json", tmp_path / "b" / "r.json"
    results_files.write(first, report_with_games())
    results_files.write(second, report_with_games())
    assert first.read_bytes() == second.read_bytes()
    assert records_path(first).read_bytes() == records_path(second).read_bytes()


def test_another_runs_records_file_or_a_missing_one_is_refused_and_the_summary_still_reads(tmp_path):
    mine, other = tmp_path / "mine" / "r.json", tmp_path / "other" / "r.json"
    results_files.write(mine, report_with_games(1.0))
    results_files.write(other, report_with_games(-1.0))
    shutil.copy(records_path(other), records_path(mine))
    with pytest.raises(ValueError, match="is not the records file of .*another run"):
        read_records(mine)
    summary, why = read_report(mine)
    assert summary == json.loads(mine.read_text()) and "another run" in why
    records_path(mine).unlink()
    with pytest.raises(ValueError, match="cannot read the records of .*not in the repository"):
        read_records(mine)
    records_path(mine).write_bytes(b"not gzip")
    with pytest.raises(ValueError, match="cannot read the records"):
        read_records(mine)
    with pytest.raises(ValueError, match="cannot read"):
        read_records(tmp_path / "missing.json")


def test_a_records_file_that_cannot_be_written_is_saved_elsewhere_and_said_so(tmp_path):
    out = tmp_path / "r.json"
    (tmp_path / "records").write_text("")  # a file where the records folder goes
    with pytest.raises(
        ValueError, match=r"cannot write the report to .*records.*; it was saved to '(.*)'"
    ) as error:
        write_report(out, report_with_games())
    saved = Path(str(error.value).rsplit("saved to ", 1)[1].strip("'"))
    assert json.loads(gzip.decompress(saved.read_bytes())) == report_with_games()
    saved.unlink()
    assert "records" in json.loads(out.read_text())  # the summary was still written


def test_git_ignores_the_records_of_the_results_folder_and_keeps_its_summaries():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")

    def ignored(path: str) -> bool:
        return subprocess.run(["git", "check-ignore", "-q", path], check=False, cwd=ROOT).returncode == 0

    assert ignored("docs/results/records/ladder_hive_base.json.gz")
    assert not ignored("docs/results/ladder_hive_base.json")
