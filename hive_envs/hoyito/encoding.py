"""Observation and action encoding of Hoyito II (layout documented in `hive_envs.hoyito_v0`).

Action k = the mover's k-th hole counted from their own left (absolute hole mover*n + k).
Observation = float32 vector of length 2n + 4 written by `kernels.encode`.

`HoyitoEncoding(options)` is the encoder of a `HoyitoGame` under those options (the interface the
envs and the agents use, `hive_envs.core.game_env`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from hive_envs.core.game import OneGameEncoder
from hive_envs.hoyito.engine import kernels as K
from hive_envs.hoyito.engine.options import HoyitoOptions

OBS_DTYPE = np.float32


def observation_size(holes_per_row: int) -> int:
    return 2 * holes_per_row + 4


def observation_bounds(options: HoyitoOptions) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) of every observation entry: holes up to all counters / 4, the rest in [0, 1]."""
    size = observation_size(options.holes_per_row)
    low = np.zeros(size, dtype=OBS_DTYPE)
    high = np.ones(size, dtype=OBS_DTYPE)
    high[: options.num_holes] = options.total_counters / K.CASA
    return low, high


@njit(cache=True)
def decode_observation(obs, n, seeds, limit, s_out):
    """Write into ``s_out`` (a kernel state) the position an observation describes, with the observer
    as South (seat 0) to move: the inverse of `kernels.encode` up to the seat names (the observation
    holds the mover's view of every hole, both captured totals and the stall clock; it is Markov)."""
    m = 2 * n
    for j in range(m):
        s_out[j] = int(np.rint(obs[j] * K.CASA))
    s_out[m + K.CAPTURED] = int(np.rint(obs[m] * m * seeds))
    s_out[m + K.CAPTURED + 1] = int(np.rint(obs[m + 1] * m * seeds))
    s_out[m + K.TURN] = 0
    s_out[m + K.STALL] = int(np.rint(obs[m + 2] * limit))
    s_out[m + K.OVER] = 0
    s_out[m + K.PLY] = 0


@dataclass(frozen=True)
class HoyitoEncoding(OneGameEncoder):
    """The encoder of a `HoyitoGame` under ``options``."""

    encodes = "hoyito"
    options: HoyitoOptions
    _kernel_args: tuple[int, int, int] = field(init=False, repr=False, compare=False)
    observation_dtype = np.dtype(OBS_DTYPE)

    @property
    def num_actions(self) -> int:
        return self.options.holes_per_row

    @property
    def observation_shape(self) -> tuple[int]:
        return (observation_size(self.options.holes_per_row),)

    @property
    def label(self) -> str:
        return f"Hoyito with {self.options}"

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        return observation_bounds(self.options)

    def __post_init__(self):  # the kernels' arguments, read once per step: computed once here
        o = self.options
        object.__setattr__(self, "_kernel_args", (o.holes_per_row, o.no_capture_limit, o.total_counters))

    def observe(self, game, seat: int, out: np.ndarray) -> None:
        n, limit, total = self._kernel_args
        K.encode(game.state, seat, n, limit, total, out)

    def write_mask(self, game, out: np.ndarray) -> None:
        K.legal_mask(game.state, self._kernel_args[0], out)

    def legal_actions(self, game) -> tuple[np.ndarray, np.ndarray]:
        moves = game.legal_move_ids()
        return moves, moves - game.to_move * self._kernel_args[0]

    def action_to_move(self, game, action: int) -> int:
        return game.to_move * self._kernel_args[0] + int(action)

    def move_to_action(self, game, move_id: int) -> int:
        return int(move_id) - game.to_move * self._kernel_args[0]
