"""Random Hive positions for the env tests: random legal play through the AEC env."""

from __future__ import annotations

import numpy as np

from hive_envs.hive.env import raw_env

EXPANSION_SETS = ("", "M", "L", "P", "ML", "MP", "LP", "MLP")


def random_positions(expansions: str, games: int, seed: int, max_turns: int = 300):
    """Yield the raw env at every ply of ``games`` random games (do not step it while iterating)."""
    env = raw_env(expansions=expansions, max_turns=max_turns)
    rng = np.random.default_rng(seed)
    for g in range(games):
        env.reset(seed=seed * 1000 + g)
        while not env.game.is_terminal:
            yield env
            legal = np.flatnonzero(env._mask)
            env.step(int(legal[rng.integers(legal.size)]))
        yield env
