"""A toy game implementing the batch API, for testing the training code without a real engine.

Nim: a pile of `pile` stones; the player to move takes 1, 2 or 3 (action k takes k+1); whoever
takes the last stone wins. With `extra_turn=True`, taking exactly 2 stones (without ending the
game) gives the same player another move, so a seat can decide several times in a row, as in
Hoyito. Perfect play: leave a multiple of 4 (when extra_turn is False).

Observation: one-hot of the stones left, (pile + 1,) uint8, the same for both seats.
"""

from __future__ import annotations

import numpy as np


class NimBatch:
    encoding_version = "v0"

    def __init__(self, num_games: int, pile: int = 10, extra_turn: bool = False):
        if pile < 1:
            raise ValueError(f"pile must be >= 1, got {pile}")
        self.num_games = num_games
        self.num_actions = 3
        self.pile = pile
        self.extra_turn = extra_turn
        self.observation_shape = (pile + 1,)
        self.observation_dtype = np.uint8
        self.stones = np.full(num_games, pile, dtype=np.int64)
        self.plies = np.zeros(num_games, dtype=np.int32)
        self.observation = np.zeros((num_games, pile + 1), dtype=np.uint8)
        self.action_mask = np.zeros((num_games, 3), dtype=np.int8)
        self.to_move = np.zeros(num_games, dtype=np.int8)
        self.rewards = np.zeros((num_games, 2), dtype=np.float32)
        self.terminated = np.zeros(num_games, dtype=bool)
        self.final_observation = np.zeros_like(self.observation)
        self.episode_length = np.zeros(num_games, dtype=np.int32)

    def _refresh(self) -> None:
        self.observation[:] = 0
        self.observation[np.arange(self.num_games), self.stones] = 1
        self.action_mask[:] = (np.arange(1, 4)[None, :] <= self.stones[:, None]).astype(np.int8)

    def reset(self, seed: int | None = None) -> None:
        self.stones[:] = self.pile
        self.plies[:] = 0
        self.to_move[:] = 0
        self.rewards[:] = 0
        self.terminated[:] = False
        self._refresh()

    def step(self, actions: np.ndarray) -> None:
        actions = np.asarray(actions)
        if actions.shape != (self.num_games,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be an integer array of shape ({self.num_games},)")
        for g, a in enumerate(actions):
            if not (0 <= a < 3) or not self.action_mask[g, a]:
                raise ValueError(f"game {g}: illegal action {a}")
        take = actions + 1
        mover = self.to_move.copy()
        self.stones -= take
        self.plies += 1
        ended = self.stones == 0
        self.rewards[:] = 0
        self.rewards[ended, mover[ended]] = 1.0
        self.rewards[ended, 1 - mover[ended]] = -1.0
        self.terminated[:] = ended
        self.episode_length[ended] = self.plies[ended]
        again = (take == 2) & self.extra_turn
        self.to_move[:] = np.where(again, mover, 1 - mover)
        self.final_observation[ended] = 0
        self.final_observation[ended, 0] = 1
        self.stones[ended] = self.pile
        self.plies[ended] = 0
        self.to_move[ended] = 0
        self._refresh()

    def greedy_actions(self, rows: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Take the last stones when possible, else a random legal amount."""
        stones = self.stones[rows]
        random = (rng.random((len(rows), 3)) * self.action_mask[rows]).argmax(axis=1)
        return np.where(stones <= 3, stones - 1, random).astype(np.int64)
