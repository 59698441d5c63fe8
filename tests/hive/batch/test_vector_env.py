"""gym.make_vec("hive_envs/Hive*-v0"): the batched vector env against the single-agent env."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import hive_envs  # noqa: F401
from hive_envs.core.choice import random_legal_actions
from hive_envs.hive.definition import HIVE
from hive_envs.hive.gym_env import HiveEnv
from hive_envs.hive.vector_env import HiveVectorEnv
from tests.core.vector_lockstep import first_legal, play_in_lockstep

HIVE_IDS = list(HIVE.gym_envs)


@pytest.mark.parametrize("env_id", HIVE_IDS)
def test_make_vec_uses_the_batched_vector_env_for_every_id(env_id):
    vec = gym.make_vec(env_id, num_envs=2)
    assert isinstance(vec.unwrapped, HiveVectorEnv)
    single = gym.make(env_id)
    assert vec.single_observation_space == single.observation_space
    assert vec.single_action_space == single.action_space
    obs, _info = vec.reset(seed=0)
    assert obs.shape == (2, *single.observation_space.shape) and vec.observation_space.contains(obs)


@pytest.mark.parametrize("seat", [0, 1])
def test_vector_env_agrees_with_single_agent_envs(seat):
    n = 4
    vec = HiveVectorEnv(n, max_turns=30, opponent=first_legal, learner_seat=seat)
    singles = [HiveEnv(max_turns=30, opponent=first_legal, learner_seat=seat) for _ in range(n)]
    episodes = play_in_lockstep(vec, singles, steps=60, seed=seat)
    assert episodes >= 8


def test_make_vec_with_the_piece_observation_agrees_with_single_agent_envs():
    vec = gym.make_vec("hive_envs/HiveMLP-v0", num_envs=2, observation="pieces")
    single = gym.make("hive_envs/HiveMLP-v0", observation="pieces")
    assert vec.single_observation_space == single.observation_space
    assert single.observation_space.shape == (29, 17)
    n = 3
    vec = HiveVectorEnv(n, max_turns=30, opponent=first_legal, learner_seat=1, observation="pieces")
    singles = [
        HiveEnv(max_turns=30, opponent=first_legal, learner_seat=1, observation="pieces") for _ in range(n)
    ]
    assert play_in_lockstep(vec, singles, steps=50, seed=5) >= 4


def test_random_seats_and_opponents_rewards_and_lengths():
    for opponent in ("random", "greedy"):
        vec = gym.make_vec(
            "hive_envs/HiveP-v0", num_envs=8, max_turns=24, opponent=opponent, learner_seat="random"
        )
        _, info = vec.reset(seed=0)
        rng = np.random.default_rng(0)
        seats, results = set(), []
        for _ in range(60):
            b = vec.unwrapped.batch
            assert (b.to_move == info["learner_seat"]).all()
            actions = np.empty(8, np.int64)
            random_legal_actions(b.action_mask, np.arange(8), rng.random(8), actions)
            _obs, rewards, terminated, truncated, info = vec.step(actions)
            seats.update(info["learner_seat"].tolist())
            results.extend(rewards[terminated].tolist())
            assert (info["episode_length"][terminated] > 0).all() and not truncated.any()
            assert (rewards[~terminated] == 0).all()
        assert seats == {0, 1} and set(results) <= {-1.0, 0.0, 1.0} and len(results) >= 8


def test_random_legal_actions_are_legal_and_cover_every_legal_action():
    mask = np.zeros((2, 50), np.int8)
    mask[0, [3, 7, 40]] = 1
    mask[1, 49] = 1
    out = np.empty(2, np.int64)
    seen = set()
    for u in np.linspace(0, 0.999, 30):
        random_legal_actions(mask, np.arange(2), np.array([u, u]), out)
        assert out[1] == 49
        seen.add(int(out[0]))
    assert seen == {3, 7, 40}
