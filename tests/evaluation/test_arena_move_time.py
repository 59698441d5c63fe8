"""Equal time in the arena (`--move-time`): a player that cannot keep the limit is refused, and each
side's moves over the limit are reported."""

from __future__ import annotations

import pytest

from hive_envs.evaluation import arena
from hive_envs.evaluation.match import paired, play_games, summarise
from hive_envs.hoyito import HoyitoGame
from hive_envs.players import RandomPlayer, SearchLimits
from hive_envs.players.base import keeps_move_time
from tests.evaluation.test_match_move_times import PAUSE_S, SlowRandom


def test_moves_over_the_limit_are_counted_for_each_side():
    records = play_games(SlowRandom(1), RandomPlayer(2), paired([[]]), HoyitoGame, SearchLimits())
    result = summarise("slow", "random", records, limit_s=PAUSE_S / 2)
    assert result.move_seconds["player"]["over_limit"] == result.move_seconds["player"]["moves"] > 0
    assert result.move_seconds["opponent"]["over_limit"] == 0
    assert "over_limit" not in summarise("slow", "random", records).move_seconds["player"]  # no limit


def test_the_arena_reports_each_side_s_moves_over_the_move_time(capsys):
    settings = arena.Settings(game="hoyito", opening_plies=2, move_time_s=0.05)
    report = arena.run(["alphabeta:T=0.05"], ["random"], 2, settings)
    times = report["matches"][0]["move_seconds"]
    assert {"over_limit"} <= times["player"].keys() and times["opponent"]["over_limit"] == 0
    assert "over the 0.05 s limit" in capsys.readouterr().out


def test_a_network_whose_features_search_is_refused_for_a_move_time():
    """``hive_base_searched``'s features run a 3-ply search per position: its raw policy took 3 s on a
    "1 s" move before the arena refused it (issue #56)."""
    settings = arena.Settings(game="hive", opening_plies=2, move_time_s=1.0)
    with pytest.raises(ValueError, match="pretrained:hive_base_searched cannot keep --move-time 1"):
        arena.run(["pretrained:hive_base_searched"], ["random"], 2, settings)
    player = arena.Settings(game="hive").player("pretrained:hive_base", 0)
    assert keeps_move_time(player) and keeps_move_time(RandomPlayer(0))
