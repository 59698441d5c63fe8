"""The one-game search with several leaves per network call (`SearchConfig.leaf_batch`, virtual loss):
it runs exactly the simulations asked for, the virtual losses are all taken back, the tree's counts
stay consistent, the game is left as found, and a timed checkpoint player searches this way."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from hive_envs.agents.batch_evaluators import LeafBatch
from hive_envs.agents.search import NetworkEvaluator, Node, SearchConfig, search, search_root
from hive_envs.hive import HiveGame
from hive_envs.players import PlayerContext, SearchLimits, make_player
from hive_envs.players.checkpoint import TIMED_LEAF_BATCH
from tests.agents.test_batched_search import pretrained
from tests.agents.test_rule_value import random_positions


class FlatEvaluator:
    """Uniform priors and value 0 for every position, one at a time or in a batch; counts the calls."""

    def __init__(self):
        self.calls: list[int] = []

    def __call__(self, game):
        moves = game.legal_move_ids()
        return moves, np.full(len(moves), 1.0 / len(moves)), 0.0

    def batch(self, games) -> LeafBatch:
        self.calls.append(len(games))
        evaluations = [self(game) for game in games]
        moves = [m for m, _, _ in evaluations]
        return LeafBatch(moves, moves, [p for _, p, _ in evaluations], np.zeros(len(games)), None, None)  # type: ignore[arg-type]


def nodes(root: Node):
    yield root
    for child in root.children:
        if child is not None:
            yield from nodes(child)


def check_counts(root: Node) -> None:
    """Each node's visits are its children's; an expanded child was visited once more than it has
    visits of its own (the walk that created it)."""
    for node in nodes(root):
        assert node.visits == node.n.sum()
        for i, child in enumerate(node.children):
            if child is not None:
                assert node.n[i] == child.visits + 1


@pytest.mark.parametrize("leaf_batch", [2, 8, 64])
def test_every_virtual_loss_is_taken_back(leaf_batch):
    """With value 0 everywhere and no finished game in reach, any virtual loss left would show as a
    non-zero value sum."""
    evaluator = FlatEvaluator()
    game = HiveGame()
    root = search_root(game, evaluator, SearchConfig(simulations=200, leaf_batch=leaf_batch))
    assert root.n.sum() == 200 and all(not node.w.any() for node in nodes(root))
    check_counts(root)
    assert max(evaluator.calls) > 1 and max(evaluator.calls) <= leaf_batch
    assert game.record() == HiveGame().record()


@pytest.mark.parametrize("name", ["hive_base", "hoyito_2x6"])
def test_a_network_search_with_leaf_batches_runs_every_simulation(name):
    network, view = pretrained(name)
    evaluator = NetworkEvaluator(network, view, name)
    for game in random_positions(view, 3, seed=2):
        record = game.record()
        root = search_root(game, evaluator, SearchConfig(simulations=100, leaf_batch=8))
        assert root.n.sum() == 100
        check_counts(root)
        assert game.record() == record


@pytest.mark.parametrize("leaf_batch", [0, -1, True, 1.5, "8"])
def test_bad_leaf_batches_are_refused(leaf_batch):
    with pytest.raises(ValueError, match="leaf_batch"):
        SearchConfig(leaf_batch=leaf_batch)


def test_leaf_batches_need_a_batch_evaluator():
    def one_at_a_time(game):
        moves = game.legal_move_ids()
        return moves, np.full(len(moves), 1.0 / len(moves)), 0.0

    with pytest.raises(ValueError, match="batch form"):
        search(HiveGame(), one_at_a_time, SearchConfig(simulations=8, leaf_batch=4))


def test_timed_players_search_with_leaf_batches_and_counted_players_do_not():
    timed = make_player("pretrained:hoyito_2x6@T=0.2", PlayerContext("hoyito", 0))
    counted = make_player("pretrained:hoyito_2x6@32", PlayerContext("hoyito", 0))
    assert timed.config.leaf_batch == TIMED_LEAF_BATCH and counted.config.leaf_batch == 1
    assert counted.config_for(SearchLimits(time_s=0.5)).leaf_batch == TIMED_LEAF_BATCH
    assert replace(counted.config, leaf_batch=1) == counted.config_for(None)
