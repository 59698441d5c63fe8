"""`python -m benchmarks.move_times`: a player is timed on the game its options make."""

from __future__ import annotations

import json

import pytest

from benchmarks import move_times


def test_options_make_the_game_the_timed_agent_plays(tmp_path):
    out = tmp_path / "times.json"
    args = ["--game", "hive", "--players", "pretrained:hive_mlp", "--opponent", "random", "--games", "2"]
    with pytest.raises(ValueError, match="the agent plays Base\\+MLP; this game is Base"):
        move_times.main(args)
    move_times.main([*args, "--options", "expansions=MLP", "--json", str(out)])
    report = json.loads(out.read_text())
    assert report["game_options"] == {"expansions": "MLP"}
    (row,) = report["results"]
    assert row["player"] == "pretrained:hive_mlp" and row["moves"] > 0
    assert 0 < row["cpu_s"]["median"] <= row["cpu_s"]["max"]


def test_a_bad_option_is_refused():
    with pytest.raises(ValueError, match="option .expansion=MLP.: expected NAME=VALUE"):
        move_times.main(["--options", "expansion=MLP", "--players", "random"])
