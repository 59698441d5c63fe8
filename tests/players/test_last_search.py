"""A player's ``last_search`` is the record of the search that chose its last move: a network player's
`RootSummary` holds that search's root (its visits, mean values and the network's policy), an
alpha-beta player's the `SearchResult`; a tool reads it instead of searching again."""

from __future__ import annotations

import numpy as np
import pytest

from hive_envs.agents.root_summary import untempered
from hive_envs.agents.search import subtree, tempered
from hive_envs.hive import HiveGame
from hive_envs.players import PlayerContext, SearchLimits, checkpoint, make_player
from hive_envs.players.checkpoint import MAX_SIMULATIONS
from tests.agents.test_rule_value import random_positions
from tests.players.search_roots import record_search_roots


@pytest.fixture
def roots(monkeypatch):
    """Every root `AgentPlayer.choose` searches, as it was when the search returned."""
    return record_search_roots(monkeypatch, checkpoint)


def test_a_network_players_summary_holds_the_root_of_the_search_that_chose_its_move(roots):
    player = make_player("pretrained:hive_base@16", PlayerContext("hive", 0))
    game = random_positions(player.view, 1, seed=5)[0]
    move = player.choose(game)
    summary = player.last_search
    ((moves, visits, sums, total),) = roots
    assert summary.move == move and np.array_equal(summary.moves, moves)
    assert np.array_equal(summary.visits, visits) and summary.simulations == total == 16
    assert summary.kept_visits == 0 and summary.time_limit_s is None and summary.elapsed_s > 0
    seen = visits > 0
    assert np.array_equal(np.isnan(summary.values), ~seen)
    assert np.allclose(summary.values[seen], sums[seen] / visits[seen])
    assert summary.policy.sum() == pytest.approx(1.0) and -1.0 <= summary.value <= 1.0


def expected_reply(root, move: int, game) -> int:
    """The reply the player's kept tree visited most after ``move`` (so its next search keeps it)."""
    node = subtree(root, [move])
    if node is None or not node.has_priors or not node.n.any():
        return int(game.legal_move_ids()[0])
    return int(node.moves[np.argmax(node.n)])


def test_a_timed_players_summary_counts_this_moves_simulations_apart_from_the_kept_tree(roots):
    player = make_player("pretrained:hive_base@T=0.3", PlayerContext("hive", 0))
    game = player.view.new_game()
    roots.clear()  # the warm-up's search
    kept = []
    for limit in (2.0, 0.3, 0.3):  # a long first search, so that the next ones start from its tree
        game.play_id(player.choose(game, SearchLimits(time_s=limit)))
        summary = player.last_search
        *_, total = roots[-1]
        assert 0 < summary.simulations < MAX_SIMULATIONS and summary.time_limit_s is not None
        assert summary.simulations + summary.kept_visits == total == summary.visits.sum()
        kept.append(summary.kept_visits)
        game.play_id(expected_reply(player.kept.root, summary.move, game))
    assert kept[0] == 0 and kept[1] > 0


def test_the_raw_policys_summary_is_the_networks_policy_with_no_visits(roots):
    player = make_player("pretrained:hive_base", PlayerContext("hive", 0))
    game = random_positions(player.view, 1, seed=2)[0]
    move = player.choose(game)
    summary = player.last_search
    legal, policy, value = player.evaluator(game)
    assert roots == [] and summary.simulations == 0 and not summary.searched
    assert np.array_equal(summary.moves, legal) and np.allclose(summary.policy, policy)
    assert summary.value == pytest.approx(value) and not summary.visits.any()
    assert summary.move == move == int(legal[np.argmax(policy)])


def test_the_policy_is_read_back_from_the_searchs_tempered_priors():
    policy = np.array([0.6, 0.3, 0.08, 0.02])
    for temperature in (0.5, 1.0, 3.0):
        assert np.allclose(untempered(tempered(policy, temperature), temperature), policy)


def test_a_failed_choice_leaves_no_summary_of_an_earlier_one():
    player = make_player("pretrained:hoyito_2x6@4", PlayerContext("hoyito", 0))
    game = player.view.new_game()
    player.choose(game)
    assert player.last_search is not None
    with pytest.raises(ValueError, match="hoyito agent"):
        player.choose(HiveGame())
    assert player.last_search is None


def test_an_alpha_beta_players_last_search_is_the_result_it_played():
    player = make_player("alphabeta:2", PlayerContext("hive", 0))
    game = HiveGame.from_gamestring("Base;InProgress;White[3];wS1;bS1 -wS1;wQ wS1/;bQ -bS1")
    move = player.choose(game)
    result = player.last_search
    assert result.move_id == move and result.depth_reached == 2 and result.nodes > 0
    assert result.pv and result.pv[0] == move
