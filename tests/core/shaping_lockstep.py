"""A batch with reward shaping and one AEC env per game, stepped in lockstep (both games' shaping tests)."""

from __future__ import annotations

import numpy as np


def lockstep(batch_class, env_class, num_games: int, seed: int, **options):
    """A batch of ``num_games`` and one AEC env per game, all reset with ``seed``."""
    batch = batch_class(num_games, **options)
    batch.reset(seed=seed)
    envs = [env_class(**options) for _ in range(num_games)]
    for env in envs:
        env.reset(seed=seed)
    return batch, envs


def step_in_lockstep(batch, envs, actions: np.ndarray) -> None:
    """Step ``batch`` and ``envs[g]`` (the AEC env of game g) with ``actions``: each game's shaped and raw
    rewards must be its AEC env's; an env whose game ended is reset, as the batch resets the game."""
    batch.step(actions)
    for g, env in enumerate(envs):
        env.step(int(actions[g]))
        shaped = [env.rewards[agent] for agent in env.possible_agents]
        np.testing.assert_allclose(batch.rewards[g], shaped, atol=1e-6, err_msg=f"game {g}")
        assert batch.raw_rewards[g].tolist() == [env.raw_rewards[agent] for agent in env.possible_agents]
        assert batch.terminated[g] == all(env.terminations.values())
        if batch.terminated[g]:
            env.reset()
