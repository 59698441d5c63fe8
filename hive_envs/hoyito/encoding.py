"""Observation and action encoding of Hoyito II (layout documented in `hive_envs.hoyito_v0`).

Action k = the mover's k-th hole counted from their own left (absolute hole mover*n + k).
Observation = float32 vector of length 2n + 4 written by `kernels.encode`.
"""

from __future__ import annotations

import numpy as np

from hive_envs.hoyito.engine.kernels import CASA
from hive_envs.hoyito.engine.options import HoyitoOptions

OBS_DTYPE = np.float32


def observation_size(holes_per_row: int) -> int:
    return 2 * holes_per_row + 4


def observation_bounds(options: HoyitoOptions) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) of every observation entry: holes up to all counters / 4, the rest in [0, 1]."""
    size = observation_size(options.holes_per_row)
    low = np.zeros(size, dtype=OBS_DTYPE)
    high = np.ones(size, dtype=OBS_DTYPE)
    high[: options.num_holes] = options.total_counters / CASA
    return low, high
