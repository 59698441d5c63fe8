"""The Gymnasium single-agent env Hoyito-v0: conformance, opponents, seats, bad input."""

from __future__ import annotations

import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import hive_envs  # noqa: F401
from hive_envs.hoyito.definition import HOYITO
from hive_envs.hoyito.gym_env import HoyitoEnv
from hive_envs.players import BasePlayer, register_player_kind
from hive_envs.players import specs as player_specs

HOYITO_IDS = list(HOYITO.gym_envs)


@pytest.mark.parametrize("env_id", HOYITO_IDS)
def test_check_env_passes_and_gym_make_works_for_every_id(env_id):
    env = gym.make(env_id)
    check_env(env.unwrapped, skip_render_check=False)
    obs, _info = env.reset(seed=0)
    assert env.observation_space.contains(obs)


def test_gym_make_with_module_prefix_needs_no_prior_import():
    code = (
        "import gymnasium as gym; e = gym.make('hive_envs:hive_envs/Hoyito-v0'); "
        "print(e.reset(seed=1)[0].shape)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "(16,)"


def play_episode(env, seed, pick=lambda mask: int(np.flatnonzero(mask)[0])):
    obs, info = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        mask = env.unwrapped.action_masks()
        assert mask.any() and obs[-1] == 1.0  # the learner is to move
        obs, reward, terminated, truncated, info = env.step(pick(mask))
        total += reward
        done = terminated or truncated
    return total, info


def test_episode_reward_matches_the_final_score():
    env = gym.make("hive_envs/Hoyito-v0", learner_seat=1)
    for seed in range(5):
        total, info = play_episode(env, seed)
        south, north = info["score"]
        assert total == float(np.sign(north - south))


def test_learner_seat_random_per_episode_and_fixed_otherwise():
    env = gym.make("hive_envs/Hoyito-v0", learner_seat="random")
    seats = {env.reset(seed=s)[1]["learner_seat"] for s in range(20)}
    assert seats == {0, 1}
    env = gym.make("hive_envs/Hoyito-v0", learner_seat=1)
    assert {env.reset(seed=s)[1]["learner_seat"] for s in range(5)} == {1}


def test_greedy_opponent_takes_the_largest_capture():
    env = HoyitoEnv(opponent="greedy", learner_seat=0)
    env.reset(seed=0)
    chosen = []
    real = env.aec._play  # every ply of the Gym env goes through it

    def spy(action):
        if env.aec._seat_to_move() == 1:
            values = env.aec.action_values()
            chosen.append((values[action], values[env.aec._mask == 1].max()))
        real(action)

    env.aec._play = spy
    play_episode(env, 0)
    assert chosen and all(v == best for v, best in chosen)


def test_callable_opponent_gets_its_own_observation_and_mask():
    calls = []

    def first_legal(observation, action_mask):
        calls.append(observation[-1])
        return int(np.flatnonzero(action_mask)[0])

    env = HoyitoEnv(opponent=first_legal, learner_seat=1)
    play_episode(env, 0)
    assert calls and set(calls) == {1.0}  # the opponent always observes as the mover


def test_a_registered_player_kind_is_an_opponent_string(monkeypatch):
    monkeypatch.setattr(player_specs, "_KINDS", dict(player_specs._KINDS))
    picked = []

    class LastHole(BasePlayer):
        def choose(self, game, limits=None):
            picked.append(int(game.legal_move_ids()[-1]))
            return picked[-1]

    register_player_kind("last", lambda _, context: LastHole("last", context.seed), argument=False)
    env = HoyitoEnv(opponent="last", learner_seat=1)
    env.reset(seed=0)
    assert picked == [5]


@pytest.mark.parametrize(
    "kwargs, name", [({"opponent": "nobody"}, "opponent"), ({"render_mode": "x"}, "render_mode")]
)
def test_bad_env_arguments_raise_naming_them(kwargs, name):
    # learner seats and the game's options are refused on every surface in tests/core/test_bad_options.py
    with pytest.raises(ValueError, match=name):
        gym.make("hive_envs/Hoyito-v0", **kwargs)


def test_illegal_action_loses_out_of_range_raises():
    env = HoyitoEnv(learner_seat=0)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action 6 is out of range"):
        env.step(6)
    env.aec.game.state[2] = 0
    env.aec.game.state[12] = 4
    env.aec._after_ply()
    _obs, reward, terminated, _truncated, info = env.step(2)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    with pytest.raises(ValueError, match="reset"):
        env.step(0)


def test_same_seed_same_episode():
    a = gym.make("hive_envs/Hoyito-v0", learner_seat="random")
    b = gym.make("hive_envs/Hoyito-v0", learner_seat="random")
    rng_a, rng_b = np.random.default_rng(3), np.random.default_rng(3)
    ra = play_episode(a, 7, lambda m: int(rng_a.choice(np.flatnonzero(m))))
    rb = play_episode(b, 7, lambda m: int(rng_b.choice(np.flatnonzero(m))))
    assert ra == rb


def test_rgb_render_through_gym():
    env = gym.make("hive_envs/Hoyito-v0", render_mode="rgb_array")
    env.reset(seed=0)
    assert env.render().dtype == np.uint8
