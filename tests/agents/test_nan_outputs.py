"""A network whose outputs turn NaN at play time is named as the cause, never blamed on an illegal action.

`load_checkpoint` already refuses NaN weights in a file; here the weights are set to NaN (or made to
overflow) after loading, as an in-memory change or an overflow would, and every play path is tried:
the checkpoint player's raw policy (argmax and sampled, one game and batched), its search, the
`load_policy` callable, and a Gym env with such an opponent.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
import torch

import hive_envs  # noqa: F401  (registers the env ids)
from hive_envs.agents import load_policy
from hive_envs.hoyito import HoyitoBatch, HoyitoGame
from hive_envs.players.checkpoint import AgentPlayer
from tests.play.helpers import tiny_hoyito_checkpoint

NAMED = r"checkpoint '.*nan\.pt' produced NaN or infinite"


def poison(network: torch.nn.Module, value: float = float("nan")) -> None:
    with torch.no_grad():
        for parameter in network.parameters():
            parameter.fill_(value)


@pytest.fixture
def path(tmp_path):
    return tiny_hoyito_checkpoint(tmp_path / "nan.pt")


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 1e38])
@pytest.mark.parametrize("simulations, sample", [(0, False), (0, True), (8, False), (8, True)])
def test_checkpoint_player_names_the_network(path, simulations, sample, value):
    player = AgentPlayer.load(path, simulations=simulations, sample=sample, seed=0)
    poison(player.network, value)  # 1e38: finite weights whose products overflow to inf, then NaN
    with pytest.raises(ValueError, match=NAMED):
        player.choose(HoyitoGame())
    if simulations == 0:
        with pytest.raises(ValueError, match=NAMED):
            player.act(HoyitoBatch(3), np.arange(3))


@pytest.mark.parametrize("greedy", [False, True])
def test_load_policy_callable_names_the_checkpoint(path, greedy):
    policy = load_policy(path, greedy=greedy, seed=0)
    poison(policy.network)
    observation = np.zeros(16, np.float32)
    observation[:12] = 1.0
    with pytest.raises(ValueError, match=NAMED):
        policy(observation, np.ones(6, np.int8))


def test_gym_env_with_a_nan_opponent_reports_the_network_not_an_illegal_action(path):
    player = AgentPlayer.load(path, simulations=0, sample=True, seed=0)
    env = gym.make("hive_envs/Hoyito-v0", opponent=player, learner_seat=1)
    poison(player.network)
    with pytest.raises(ValueError, match=NAMED) as raised:
        env.reset(seed=0)
    assert "illegal" not in str(raised.value)


def test_finite_networks_still_play(path):
    player = AgentPlayer.load(path, simulations=8, seed=0)
    assert player.choose(HoyitoGame()) in HoyitoGame().legal_move_ids().tolist()
