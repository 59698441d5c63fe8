"""Shared check for every game's vector env: it must step exactly like N single-agent envs."""

from __future__ import annotations

import numpy as np


def first_legal(observation, action_mask):
    """A deterministic opponent, so the vector env and the single envs see the same replies."""
    return int(np.flatnonzero(action_mask)[0])


def play_in_lockstep(vec, singles, steps: int, seed: int) -> int:
    """Step `vec` and the single-agent envs `singles` with the same random legal actions for
    `steps` steps, asserting equal masks, observations, rewards, terminations and final
    observations every step; returns the number of finished episodes."""
    obs, _ = vec.reset(seed=0)
    single_obs = [env.reset(seed=0)[0] for env in singles]
    rng = np.random.default_rng(seed)
    episodes = 0
    for _ in range(steps):
        masks = np.stack([env.action_masks() for env in singles])
        assert np.array_equal(masks, vec.action_masks())
        assert np.array_equal(np.stack(single_obs), obs)
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        obs, rewards, terminated, _truncated, infos = vec.step(actions)
        for g, env in enumerate(singles):
            o, r, t, _, _ = env.step(int(actions[g]))
            assert (r, t) == (rewards[g], terminated[g])
            if t:
                assert np.array_equal(o, infos["final_obs"][g]) and infos["_final_obs"][g]
                o, _ = env.reset()
                episodes += 1
            single_obs[g] = o
    return episodes
