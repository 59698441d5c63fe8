"""Hoyito II options: validation and defaults, shared by the engine, the envs and the batch."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

DEFAULT_HOLES_PER_ROW = 6
DEFAULT_SEEDS_PER_HOLE = 4
DEFAULT_MAX_LAPS = 1000
STALL_PLIES_PER_HOLE = 50  #: default no_capture_limit is 50 x 2n plies


def _positive_int(name: str, value, minimum: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


@dataclass(frozen=True)
class HoyitoOptions:
    """Validated rule options; `no_capture_limit=None` means the default 50 x 2n."""

    holes_per_row: int = DEFAULT_HOLES_PER_ROW
    seeds_per_hole: int = DEFAULT_SEEDS_PER_HOLE
    max_laps: int = DEFAULT_MAX_LAPS
    no_capture_limit: int | None = None

    def __post_init__(self):
        object.__setattr__(self, "holes_per_row", _positive_int("holes_per_row", self.holes_per_row, 2))
        object.__setattr__(self, "seeds_per_hole", _positive_int("seeds_per_hole", self.seeds_per_hole, 1))
        object.__setattr__(self, "max_laps", _positive_int("max_laps", self.max_laps, 1))
        if self.no_capture_limit is None:
            limit = STALL_PLIES_PER_HOLE * 2 * self.holes_per_row
        else:
            limit = _positive_int("no_capture_limit", self.no_capture_limit, 1)
        object.__setattr__(self, "no_capture_limit", limit)

    @property
    def num_holes(self) -> int:
        return 2 * self.holes_per_row

    @property
    def total_counters(self) -> int:
        return 2 * self.holes_per_row * self.seeds_per_hole
