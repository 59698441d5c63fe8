"""The search's leaf value from the network's rule value (`NetworkEvaluator(rule_value_share=...)`):
the rule value is the value `init_from_rule` starts the value head at, the share mixes it in, and
settings a network cannot use are refused."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from benchmarks import bench_search
from hive_envs.agents.network_kinds import build_network
from hive_envs.agents.search import NetworkEvaluator
from hive_envs.agents.views import view_for


def hive_network_and_view(feature_set: int = 2):
    view = view_for("hive", {"expansions": "", "tournament_opening": True})
    rules = {"expansions": "", "tournament_opening": True, "max_turns": 300}
    spec = {"kind": "hive_lookahead", "channels": 4, "blocks": 0, "rules": rules, "features": feature_set}
    return build_network(spec, view.observation_shape, view.num_actions), view


def random_positions(view, count: int, seed: int = 0):
    """``count`` seeded random openings of 4 to 29 uniformly random plies (finished games skipped)."""
    return bench_search.random_positions(view.new_game, count, seed, (4, 29))


def test_the_rule_value_is_the_value_init_from_rule_starts_at():
    network, view = hive_network_and_view()
    network.init_from_rule()
    games = random_positions(view, 12)
    observations = torch.as_tensor(np.stack([view.encode(game)[0] for game in games]))
    with torch.no_grad():
        features = network.rule_features(observations)
        _, value = network.legal_policy(observations, features)
        rule = network.rule_value(features)
    torch.testing.assert_close(rule, value)
    assert rule.abs().max() > 0  # not all level positions: the comparison says something


def test_the_share_mixes_the_rule_value_into_the_value_head():
    network, view = hive_network_and_view()  # random weights: the value head and the rule differ
    game = random_positions(view, 1, seed=3)[0]
    observation = torch.as_tensor(view.encode(game)[0]).unsqueeze(0)
    with torch.no_grad():
        features = network.rule_features(observation)
        head = float(network(observation)[1][0])
        rule = float(network.rule_value(features)[0])
    plain_moves, plain_priors, plain = NetworkEvaluator(network, view)(game)
    moves, priors, half = NetworkEvaluator(network, view, rule_value_share=0.5)(game)
    *_, full = NetworkEvaluator(network, view, rule_value_share=1.0)(game)
    assert plain == pytest.approx(np.clip(head, -1, 1), abs=1e-6)
    assert full == pytest.approx(np.clip(rule, -1, 1), abs=1e-6)
    assert half == pytest.approx(np.clip((head + rule) / 2, -1, 1), abs=1e-6)
    np.testing.assert_array_equal(moves, plain_moves)  # the priors do not depend on the share
    np.testing.assert_allclose(priors, plain_priors, rtol=1e-6)


@pytest.mark.parametrize("share", [-0.1, 1.5, float("nan"), "1"])
def test_a_share_out_of_range_is_refused(share):
    network, view = hive_network_and_view()
    with pytest.raises(ValueError, match="rule_value_share"):
        NetworkEvaluator(network, view, rule_value_share=share)


def test_a_network_without_a_rule_value_is_refused():
    view = view_for("hoyito", {})
    mlp = build_network({"kind": "mlp", "hidden_sizes": [8]}, view.observation_shape, view.num_actions)
    with pytest.raises(ValueError, match="has no rule value"):
        NetworkEvaluator(mlp, view, rule_value_share=1.0)
    network, hive_view = hive_network_and_view(feature_set=1)
    game = hive_view.new_game()
    with pytest.raises(ValueError, match="feature set 2"):
        NetworkEvaluator(network, hive_view, rule_value_share=1.0)(game)
