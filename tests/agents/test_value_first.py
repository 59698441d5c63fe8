"""A search whose evaluator has a ``value_only`` form (a Hive network whose value is all the rule's,
``rule_value_share`` 1) makes each new leaf from its value alone and asks the network for its moves and
priors only when a walk goes through it (`search.Node.from_value`). It is the same search: one leaf per
call, it visits exactly what the search that evaluates every leaf in full visits; with leaf batches its
counts stay consistent and every virtual loss is taken back."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from hive_envs.agents.search import NetworkEvaluator, SearchConfig, search, search_root
from hive_envs.hive import HiveGame
from tests.agents.test_batched_search import pretrained
from tests.agents.test_leaf_batch import FlatEvaluator, check_counts, nodes
from tests.agents.test_rule_value import random_positions


def hive_evaluators(share: float = 1.0):
    """(value-first evaluator, the same evaluator made to evaluate every leaf in full), `hive_base`."""
    network, view = pretrained("hive_base")
    value_first = NetworkEvaluator(network, view, "hive_base", rule_value_share=share)
    in_full = copy.copy(value_first)
    in_full.value_only = None
    return value_first, in_full, view


def test_one_leaf_per_call_the_value_first_search_visits_what_the_full_one_does():
    value_first, in_full, view = hive_evaluators()
    assert value_first.value_only is not None
    config = SearchConfig(simulations=120, prior_temperature=3.0)
    waited = 0
    for game in random_positions(view, 4, seed=5):
        record = game.record()
        root = search_root(game, value_first, config)
        moves, visits, priors = search(game, in_full, config)
        np.testing.assert_array_equal(root.moves, moves)
        np.testing.assert_array_equal(root.n, visits)
        np.testing.assert_array_equal(root.priors, priors)
        assert game.record() == record
        tree = list(nodes(root))
        waited += sum(not node.has_priors for node in tree)
        assert any(node.has_priors and node is not root and node.visits for node in tree)
    assert waited > 0, "some leaves were never given priors (the network was skipped for them)"


def test_the_value_of_a_leaf_made_from_its_value_is_the_full_evaluations():
    value_first, _, view = hive_evaluators()
    values = []
    for game in random_positions(view, 8, seed=7):
        _, _, value = value_first(game)
        assert value_first.value_only is not None
        assert value_first.value_only(game) == value
        values.append(value)
    assert len(set(values)) > 3


@pytest.mark.parametrize("leaf_batch", [2, 8])
def test_value_first_leaf_batches_run_every_simulation_with_consistent_counts(leaf_batch):
    value_first, _, view = hive_evaluators()
    calls = []
    batch = value_first.batch

    def counted(games):
        calls.append(len(games))
        return batch(games)

    value_first.batch = counted  # type: ignore[method-assign]
    for game in random_positions(view, 3, seed=2):
        record = game.record()
        root = search_root(game, value_first, SearchConfig(simulations=150, leaf_batch=leaf_batch))
        assert root.n.sum() == 150
        check_counts(root)
        assert game.record() == record
    assert max(calls) <= leaf_batch and sum(calls) < 3 * 150  # not every leaf went through the network


def test_every_virtual_loss_is_taken_back_in_a_value_first_search():
    evaluator = FlatEvaluator()
    evaluator.value_only = lambda game: 0.0  # type: ignore[attr-defined]
    root = search_root(HiveGame(), evaluator, SearchConfig(simulations=200, leaf_batch=8))
    assert root.n.sum() == 200 and all(not node.w.any() for node in nodes(root))
    check_counts(root)


def test_only_a_value_that_is_all_the_rules_is_computed_without_the_network():
    assert hive_evaluators(share=0.5)[0].value_only is None
    network, view = pretrained("hoyito_2x6")
    assert NetworkEvaluator(network, view, "hoyito_2x6", rule_value_share=1.0).value_only is None
