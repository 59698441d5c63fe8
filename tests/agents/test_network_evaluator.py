"""The one-game search's evaluator (`search.NetworkEvaluator`) reads a Hive lookahead network's
features from the engine state and scores the legal actions only; it must give what the network's
dense form gives on the game view's observation (the path it replaced: state -> planes -> decoded
state -> features, logits scattered over all 12,673 actions and read back at the legal ones)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from hive_envs.agents.checkpoint import load_checkpoint, network_from_checkpoint
from hive_envs.agents.search import NetworkEvaluator
from hive_envs.agents.views import view_for_checkpoint
from hive_envs.hive.agent.evaluator import HiveStateEvaluator
from hive_envs.pretrained import pretrained_path
from tests.agents.test_rule_value import random_positions


def dense_evaluation(network, view, game, share: float):
    """The reference: the view's observation through the network's dense forward pass."""
    observation, moves, actions = view.encode(game)
    batch = torch.as_tensor(observation).unsqueeze(0)
    with torch.no_grad():
        if share:
            features = network.rule_features(batch)
            logits, value = network(batch, features)
            value = (1.0 - share) * value + share * network.rule_value(features)
        else:
            logits, value = network(batch)
    priors = torch.softmax(logits[0, torch.as_tensor(actions)].double(), dim=0).numpy()
    return moves, priors, float(value[0].clamp(-1.0, 1.0))


@pytest.mark.parametrize("name, share", [("hive_base", 0.5), ("hive_base", 0.0), ("hoyito_2x6", 0.0)])
def test_the_evaluator_gives_the_dense_paths_priors_and_value(name, share):
    data = load_checkpoint(pretrained_path(name))
    network, view = network_from_checkpoint(data), view_for_checkpoint(data)
    network.eval()
    evaluator = NetworkEvaluator(network, view, name, share)
    if name.startswith("hive"):
        assert isinstance(evaluator.batch, HiveStateEvaluator)  # the engine-state path, not the view's
    for game in random_positions(view, 12, seed=11):
        moves, priors, value = evaluator(game)
        ref_moves, ref_priors, ref_value = dense_evaluation(network, view, game, share)
        order, ref_order = np.argsort(moves), np.argsort(ref_moves)
        assert np.array_equal(moves[order], ref_moves[ref_order])
        np.testing.assert_allclose(priors[order], ref_priors[ref_order], rtol=0, atol=1e-9)
        assert value == pytest.approx(ref_value, abs=1e-9)
