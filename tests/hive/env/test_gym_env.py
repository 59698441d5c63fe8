"""The Gymnasium env `hive_envs/Hive-v0` and its convenience ids."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import hive_envs  # noqa: F401 (registers the ids)

CONVENIENCE = {
    "HiveM-v0": "Base+M",
    "HiveL-v0": "Base+L",
    "HiveP-v0": "Base+P",
    "HiveML-v0": "Base+ML",
    "HiveMP-v0": "Base+MP",
    "HiveLP-v0": "Base+LP",
    "HiveMLP-v0": "Base+MLP",
    "Hive-v0": "Base",
}


@pytest.mark.parametrize("expansions", ["", "MLP"])
def test_check_env_passes(expansions):
    env = gym.make("hive_envs/Hive-v0", expansions=expansions)
    check_env(env.unwrapped)


@pytest.mark.parametrize("expansions", ["", "MLP"])
def test_check_env_passes_with_the_piece_observation(expansions):
    env = gym.make("hive_envs/Hive-v0", expansions=expansions, observation="pieces")
    check_env(env.unwrapped)
    n = 11 + len(expansions)
    assert env.observation_space.shape == (2 * n + 1, 17) and env.observation_space.dtype == np.int16


def test_a_callable_opponent_sees_the_piece_observation():
    seen = []

    def first_legal(observation, action_mask):
        seen.append(observation)
        return int(np.flatnonzero(action_mask)[0])

    env = gym.make("hive_envs/Hive-v0", opponent=first_legal, observation="pieces", max_turns=20)
    obs, _ = env.reset(seed=0)
    while True:
        assert env.observation_space.contains(obs) and obs[-1, 0] == 1, "the learner is to move"
        obs, _, terminated, _, _ = env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
        if terminated:
            break
    assert seen and all(o.shape == (23, 17) and o[-1, 0] == 1 for o in seen)


@pytest.mark.parametrize(("env_id", "game_type"), sorted(CONVENIENCE.items()))
def test_convenience_ids_pick_the_game_type(env_id, game_type):
    env = gym.make(f"hive_envs/{env_id}")
    env.reset(seed=0)
    assert env.unwrapped.game.game_type == game_type


def test_reachable_without_prior_import():
    env = gym.make("hive_envs:hive_envs/Hive-v0")
    assert env.observation_space.shape == (42, 24, 24)


def _episode(env, rng, seed):
    obs, info = env.reset(seed=seed)
    total, done, steps = 0.0, False, 0
    while not done:
        mask = env.unwrapped.action_masks()
        assert mask.any() and env.observation_space.contains(obs)
        assert obs[42 - 7].all(), "the learner is always the one to move"  # to_move plane
        legal = np.flatnonzero(mask)
        obs, reward, done, truncated, info = env.step(int(legal[rng.integers(legal.size)]))
        assert not truncated
        total += reward
        steps += 1
    assert env.unwrapped.action_masks().all(), "all ones once the episode is over"
    return total, info, steps


@pytest.mark.parametrize("opponent", ["random", "greedy"])
@pytest.mark.parametrize("seat", [0, 1, "random"])
def test_episodes_against_builtin_opponents(opponent, seat):
    env = gym.make("hive_envs/Hive-v0", opponent=opponent, learner_seat=seat, max_turns=80)
    rng = np.random.default_rng(0)
    seats = set()
    for seed in range(4):
        total, info, _ = _episode(env, rng, seed)
        seats.add(info["learner_seat"])
        outcome = info["outcome"]
        learner_white = info["learner_seat"] == 0
        want = 0.0 if outcome == "Draw" else (1.0 if (outcome == "WhiteWins") == learner_white else -1.0)
        assert total == want
    if seat != "random":
        assert seats == {seat}


def test_learner_as_black_starts_after_whites_first_move():
    env = gym.make("hive_envs/Hive-v0", learner_seat=1)
    env.reset(seed=3)
    assert env.unwrapped.game.ply == 1 and env.unwrapped.game.to_move == 1


def test_greedy_opponent_beats_random_play_most_of_the_time():
    env = gym.make("hive_envs/Hive-v0", opponent="greedy")
    rng = np.random.default_rng(1)
    results = [_episode(env, rng, seed)[0] for seed in range(10)]
    assert results.count(-1.0) >= 6, results


def test_callable_opponent_sees_observation_and_mask():
    calls = []

    def first_legal(observation, action_mask):
        calls.append((observation.shape, action_mask.dtype))
        return int(np.flatnonzero(action_mask)[0])

    env = gym.make("hive_envs/HiveP-v0", opponent=first_legal, max_turns=30)
    _episode(env, np.random.default_rng(2), 0)
    assert calls and calls[0] == ((46, 26, 26), np.int8)


def test_move_names_and_illegal_actions():
    env = gym.make("hive_envs/Hive-v0")
    env.reset(seed=0)
    u = env.unwrapped
    a = int(np.flatnonzero(u.action_masks())[0])
    assert u.uhp_to_action(u.action_to_uhp(a)) == a
    with pytest.raises(ValueError):
        env.step(u.action_space.n)
    illegal = int(np.flatnonzero(~u.action_masks())[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert reward == -1.0 and terminated and info["illegal_action"]


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ({"opponent": "nobody"}, "opponent"),
        ({"learner_seat": 2}, "learner_seat"),
        ({"expansions": "Q"}, "expansions"),
    ],
)
def test_bad_options(options, name):
    with pytest.raises(ValueError, match=name):
        gym.make("hive_envs/Hive-v0", **options)
