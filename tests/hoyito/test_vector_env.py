"""gym.make_vec("hive_envs/Hoyito-v0"): the batched vector env against the single-agent env."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import hive_envs  # noqa: F401
from hive_envs.hoyito.gym_env import HoyitoEnv, HoyitoVectorEnv
from tests.core.vector_lockstep import first_legal, play_in_lockstep


@pytest.mark.parametrize("env_id, obs_size", [("hive_envs/Hoyito-v0", 16), ("hive_envs/Hoyito2x12-v0", 28)])
def test_make_vec_uses_the_batched_vector_env(env_id, obs_size):
    vec = gym.make_vec(env_id, num_envs=4)
    assert isinstance(vec.unwrapped, HoyitoVectorEnv)
    obs, _info = vec.reset(seed=0)
    assert obs.shape == (4, obs_size) and vec.observation_space.contains(obs)


@pytest.mark.parametrize("seat", [0, 1])
def test_vector_env_agrees_with_single_agent_envs(seat):
    n = 8
    vec = HoyitoVectorEnv(n, opponent=first_legal, learner_seat=seat)
    singles = [HoyitoEnv(opponent=first_legal, learner_seat=seat) for _ in range(n)]
    episodes = play_in_lockstep(vec, singles, steps=1500, seed=1)
    assert episodes > 50


def test_random_seats_greedy_opponent_rewards_and_lengths():
    vec = gym.make_vec("hive_envs/Hoyito-v0", num_envs=16, opponent="greedy", learner_seat="random")
    _, info = vec.reset(seed=0)
    rng = np.random.default_rng(0)
    seats, results = set(), []
    for _ in range(600):
        mask = vec.unwrapped.batch.action_mask
        assert (vec.unwrapped.batch.to_move == info["learner_seat"]).all()
        _obs, rewards, terminated, truncated, info = vec.step((rng.random(mask.shape) * mask).argmax(axis=1))
        seats.update(info["learner_seat"].tolist())
        results.extend(rewards[terminated].tolist())
        assert (info["episode_length"][terminated] > 0).all() and not truncated.any()
        assert (rewards[~terminated] == 0).all()
    assert seats == {0, 1} and set(results) <= {-1.0, 0.0, 1.0} and len(results) > 20
    assert np.mean(results) < 0  # a random learner loses to the greedy opponent on average
