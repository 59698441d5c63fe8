"""Random Hive positions for the env tests: random legal play through the AEC env; translated states."""

from __future__ import annotations

import numpy as np

from hive_envs.hive.engine.grid import GRID_SIZE, NUM_CELLS
from hive_envs.hive.engine.pieces import NUM_PIECES
from hive_envs.hive.engine.state import HEIGHT, PCELL, PUNDER, TOP, put_piece
from hive_envs.hive.env import raw_env

EXPANSION_SETS = ("", "M", "L", "P", "ML", "MP", "LP", "MLP")


def random_positions(expansions: str, games: int, seed: int, max_turns: int = 300, observation="planes"):
    """Yield the raw env at every ply of ``games`` random games (do not step it while iterating)."""
    env = raw_env(expansions=expansions, max_turns=max_turns, observation=observation)
    rng = np.random.default_rng(seed)
    for g in range(games):
        env.reset(seed=seed * 1000 + g)
        while not env.game.is_terminal:
            yield env
            legal = np.flatnonzero(env._mask)
            env.step(int(legal[rng.integers(legal.size)]))
        yield env


def translated(s, dq, dr):
    """The same position with every piece moved by (dq, dr) on the engine torus."""
    t = s.copy()
    t[TOP : TOP + NUM_CELLS] = -1
    t[HEIGHT : HEIGHT + NUM_CELLS] = 0
    t[PCELL : PCELL + NUM_PIECES] = -1
    t[PUNDER : PUNDER + NUM_PIECES] = -1
    order = sorted((p for p in range(NUM_PIECES) if s[PCELL + p] >= 0), key=lambda p: _level(s, p))
    for p in order:
        q, r = divmod(int(s[PCELL + p]), GRID_SIZE)
        put_piece(t, p, ((q + dq) % GRID_SIZE) * GRID_SIZE + (r + dr) % GRID_SIZE)
    return t


def _level(s, p):
    level, below = 0, s[PUNDER + p]
    while below >= 0:
        level, below = level + 1, s[PUNDER + below]
    return level
