"""Search by time: ``PATH@T=S`` / ``pretrained:NAME@T=S`` and a ``time_s`` limit (UHP ``bestmove
time``) stop the agent's search so that the move comes within the limit (+50 ms at most)."""

from __future__ import annotations

import time

import pytest

from hive_envs.players import PlayerContext, SearchLimits, make_player
from hive_envs.players.checkpoint import MAX_SIMULATIONS
from hive_envs.pretrained import pretrained_path
from tests.agents.test_rule_value import random_positions

SLACK_S = 0.05


def timed_moves(player, limits=None, count=4) -> list[float]:
    player.warm_up()
    times = []
    for game in random_positions(player.view, count, seed=7):
        start = time.monotonic()
        move = player.choose(game, limits)
        times.append(time.monotonic() - start)
        assert move in game.legal_move_ids()
    return times


def test_a_pretrained_agent_at_t_seconds_answers_within_the_limit():
    player = make_player("pretrained:hive_base@T=0.5", PlayerContext("hive", 0))
    assert player.config.simulations == MAX_SIMULATIONS
    assert max(timed_moves(player)) <= 0.5 + SLACK_S


def test_a_checkpoint_path_at_t_seconds_searches_by_time():
    spec = f"{pretrained_path('hoyito_2x6')}@T=0.3"
    player = make_player(spec, PlayerContext("hoyito", 0))
    assert player.name == spec and player.config.time_s is not None
    assert max(timed_moves(player)) <= 0.3 + SLACK_S


def test_a_time_limit_stops_a_search_by_simulations_too():
    player = make_player("pretrained:hive_base@100000", PlayerContext("hive", 0))
    assert max(timed_moves(player, SearchLimits(time_s=0.4), count=3)) <= 0.4 + SLACK_S


@pytest.mark.parametrize("budget", ["T=0", "T=-1", "T=nan", "T=x", "T=4000", "T="])
def test_bad_seconds_are_refused_naming_the_spec(budget):
    with pytest.raises(ValueError, match=f"hive_base@{budget}.*after '@T='"):
        make_player(f"pretrained:hive_base@{budget}", PlayerContext("hive", 0))
