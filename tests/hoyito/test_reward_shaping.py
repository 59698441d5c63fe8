"""Opt-in reward shaping on Hoyito (`reward_shaping="captured_margin"`): a capture gives the same
seat another move, so a seat's next decision often arrives in its own step; the terms must still
telescope, and the batch must pay what the AEC env pays."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import hive_envs  # noqa: F401
from hive_envs import hoyito_v0
from hive_envs.hoyito import HoyitoBatch
from hive_envs.hoyito.env import raw_env
from tests.core.shaping_lockstep import lockstep, step_in_lockstep

SHAPED = {"reward_shaping": "captured_margin", "shaping_coef": 2.0, "shaping_gamma": 0.95}


@pytest.mark.parametrize("holes_per_row", [6, 12])
def test_aec_terms_follow_the_potential_and_telescope(holes_per_row):
    c, gamma = SHAPED["shaping_coef"], SHAPED["shaping_gamma"]
    env = hoyito_v0.env(holes_per_row=holes_per_row, **SHAPED)
    rng = np.random.default_rng(holes_per_row)
    repeats = 0
    for seed in range(4):
        env.reset(seed=seed)
        game = env.unwrapped.game
        previous, discounted, k, last_agent = {}, dict.fromkeys(env.possible_agents, 0.0), {}, None
        for agent in env.agent_iter():
            obs, reward, term, _, info = env.last()
            seat = env.possible_agents.index(agent)
            potential = 0.0 if term else game.potential(seat)
            repeats += agent == last_agent
            last_agent = agent
            if agent in previous:
                extra = reward - info.get("raw_reward", 0.0)
                assert extra == pytest.approx(c * (gamma * potential - previous[agent]), abs=1e-12)
                discounted[agent] += gamma ** k[agent] * extra
                k[agent] += 1
            else:
                assert reward == 0.0
                k[agent] = 0
            previous[agent] = potential
            env.step(None if term else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert all(v == pytest.approx(0.0, abs=1e-12) for v in discounted.values())
    assert repeats > 0, "extra turns were exercised"


def test_batch_pays_what_the_aec_env_pays():
    n = 8
    batch, envs = lockstep(HoyitoBatch, raw_env, n, seed=0, **SHAPED)
    rng = np.random.default_rng(0)
    for _ in range(300):
        step_in_lockstep(
            batch, envs, (rng.random(batch.action_mask.shape) * batch.action_mask).argmax(axis=1)
        )


def test_gym_and_vector_envs_accept_the_option_and_refuse_the_other_games_name():
    env = gym.make("hive_envs/Hoyito-v0", **SHAPED)
    env.reset(seed=0)
    _, _, _, _, info = env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
    assert "raw_reward" in info
    vec = gym.make_vec("hive_envs/Hoyito-v0", num_envs=2, **SHAPED)
    vec.reset(seed=0)
    assert "raw_reward" in vec.step(vec.unwrapped.action_masks().argmax(axis=1))[4]
    for make in (hoyito_v0.env, lambda **o: HoyitoBatch(2, **o)):
        with pytest.raises(ValueError, match="reward_shaping.*captured_margin"):
            make(reward_shaping="queen_margin")
