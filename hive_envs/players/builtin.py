"""The built-in players: uniformly random, and greedy (the game's own 1-ply heuristic).

- `RandomPlayer`: a uniformly random legal move.
- `GreedyPlayer`: a move of highest ``game.greedy_move_scores()`` (Hive: a move that wins at once,
  else the best Queen margin after the move; Hoyito: the largest immediate capture), ties broken
  uniformly at random.

Both have a batched form over a batch's masks (random: one compiled scan per row) or its compiled
greedy choice (``batch.greedy_actions(rows, rng)``), so matches of thousands of games stay cheap.
"""

from __future__ import annotations

import numpy as np

from hive_envs.core.batch import check_rows
from hive_envs.core.choice import best_index, random_legal_actions
from hive_envs.core.game import Game
from hive_envs.players.base import BasePlayer, SearchLimits


class RandomPlayer(BasePlayer):
    """A uniformly random legal move."""

    def __init__(self, seed: int | None = None, name: str = "random"):
        super().__init__(name, seed)

    def choose(self, game: Game, limits: SearchLimits | None = None) -> int:
        ids = game.legal_move_ids()
        return int(ids[int(self.rng.random() * len(ids))])  # random() is twice as fast as integers()

    def act(self, batch, rows: np.ndarray) -> np.ndarray:
        rows = check_rows(rows, batch.num_games)  # the compiled scan does not check bounds
        out = np.empty(rows.size, dtype=np.int64)
        random_legal_actions(batch.action_mask, rows, self.rng.random(rows.size), out)
        return out


class GreedyPlayer(BasePlayer):
    """A move of highest 1-ply greedy score (``game.greedy_move_scores()``), ties at random."""

    def __init__(self, seed: int | None = None, name: str = "greedy"):
        super().__init__(name, seed)

    def choose(self, game: Game, limits: SearchLimits | None = None) -> int:
        ids, scores = game.greedy_move_scores()
        return int(ids[best_index(scores, self.rng)])

    def act(self, batch, rows: np.ndarray) -> np.ndarray:
        if hasattr(batch, "greedy_actions"):
            return np.asarray(batch.greedy_actions(rows, self.rng), dtype=np.int64)
        return super().act(batch, rows)
