"""`opening_plies`: every training game starts with that many uniformly random plies, not trained."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from hive_envs.agents.network_kinds import build_network
from hive_envs.core.aec_batch import AecBatch
from hive_envs.training.config import config_from_dict
from hive_envs.training.selfplay import SelfPlayCollector


def collector(opening_plies: int, games: int = 16) -> SelfPlayCollector:
    batch = AecBatch(games, "pettingzoo.classic.connect_four_v3")
    network = build_network({"kind": "mlp", "hidden_sizes": [16]}, batch.observation_shape, batch.num_actions)
    return SelfPlayCollector(batch, network, torch.device("cpu"), seed=3, opening_plies=opening_plies)


def plies_into_game(rollout, games: int) -> np.ndarray:
    """(T, N): how many plies of its game were played before each step (the batch starts fresh)."""
    plies = np.zeros(rollout.terminated.shape, dtype=np.int64)
    count = np.zeros(games, dtype=np.int64)
    for t in range(len(plies)):
        plies[t] = count
        count = np.where(rollout.terminated[t], 0, count + 1)
    return plies


@pytest.mark.parametrize("opening_plies", [0, 3])
def test_the_first_plies_of_every_game_are_random_and_untrained(opening_plies):
    rollouts = collector(opening_plies)
    rollout = rollouts.collect(60)  # connect four ends within 42 plies, so new games start
    assert rollout.terminated.any(axis=0).all()
    plies = plies_into_game(rollout, 16)
    np.testing.assert_array_equal(rollout.trained, plies >= opening_plies)
    chosen = np.take_along_axis(rollout.action_masks, rollout.actions[..., None], axis=2)
    assert chosen.all()  # the random plies are legal moves too


def test_the_opening_plies_are_uniform_over_the_legal_moves():
    rollout = collector(1, games=512).collect(1)
    counts = np.bincount(rollout.actions[0], minlength=7)
    assert counts.min() > 40  # 512 draws over the 7 columns: ~73 each


def test_opening_plies_must_not_be_negative():
    with pytest.raises(ValueError, match="opening_plies"):
        config_from_dict({"opening_plies": -1})
