"""Hoyito II options: validation and defaults, shared by the engine, the envs and the batch.

Bounds. The kernels keep every count in an int32 state (`kernels`), and the env observation holds
hole counts, captured totals and the stall clock as float32 fractions that must decode back to the
exact integers (`hoyito.encoding.decode_observation`; the observation is Markov only if they do).
A float32 has a 24-bit significand, so a count c of at most 2**23 divided by a total of at most
2**23 rounds back to c. Hence:

- ``holes_per_row`` >= 2, ``seeds_per_hole`` >= 1, and all counters ``2 * holes_per_row *
  seeds_per_hole`` <= 2**23 (8,388,608): every hole count and captured total decodes exactly (the
  int32 state would only overflow at 2**31);
- ``no_capture_limit`` in [1, 2**23]: the stall clock decodes exactly;
- ``max_laps`` in [1, 2**31 - 1], the int32 range of every other count (laps are counted, not
  stored; a move is cut after this many laps);
- the longest game must fit the int32 ply counter: a game has at most all counters / 4 captures
  (each takes at least one casa of 4) and at most ``no_capture_limit`` plies after each capture and
  before the first, so ``(all counters // 4 + 1) * no_capture_limit`` <= 2**31 - 1.

Every bound is checked here, so nothing overflows silently downstream; a bad value raises ValueError
naming the option and the allowed range.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hive_envs.hoyito.engine.kernels import CASA

DEFAULT_HOLES_PER_ROW = 6
DEFAULT_SEEDS_PER_HOLE = 4
DEFAULT_MAX_LAPS = 1000
STALL_PLIES_PER_HOLE = 50  #: default no_capture_limit is 50 x 2n plies

INT32_MAX = 2**31 - 1
MAX_EXACT_COUNT = 2**23  #: the largest count a float32 fraction of the observation decodes exactly
MAX_COUNTERS = MAX_EXACT_COUNT  #: all counters on the board at the start
MAX_NO_CAPTURE_LIMIT = MAX_EXACT_COUNT
MAX_LAPS = INT32_MAX


def _bounded_int(name: str, value, minimum: int, maximum: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer >= {minimum} and <= {maximum:,}, got {value!r}")
    if not minimum <= value <= maximum:
        raise ValueError(f"{name} must be an integer >= {minimum} and <= {maximum:,}, got {value!r}")
    return int(value)


@dataclass(frozen=True)
class HoyitoOptions:
    """Validated rule options (bounds in the module docstring); `no_capture_limit=None` means the
    default 50 x 2n."""

    holes_per_row: int = DEFAULT_HOLES_PER_ROW
    seeds_per_hole: int = DEFAULT_SEEDS_PER_HOLE
    max_laps: int = DEFAULT_MAX_LAPS
    no_capture_limit: int | None = None

    def __post_init__(self):
        holes = _bounded_int("holes_per_row", self.holes_per_row, 2, MAX_COUNTERS // 2)
        seeds = _bounded_int("seeds_per_hole", self.seeds_per_hole, 1, MAX_COUNTERS // 2)
        if 2 * holes * seeds > MAX_COUNTERS:
            raise ValueError(
                f"holes_per_row={holes} x seeds_per_hole={seeds} puts {2 * holes * seeds:,} counters on "
                f"the board; at most {MAX_COUNTERS:,} (2**23) keep the float32 observation exact"
            )
        object.__setattr__(self, "holes_per_row", holes)
        object.__setattr__(self, "seeds_per_hole", seeds)
        object.__setattr__(self, "max_laps", _bounded_int("max_laps", self.max_laps, 1, MAX_LAPS))
        if self.no_capture_limit is None:
            limit = STALL_PLIES_PER_HOLE * 2 * holes
            given = f"no_capture_limit={limit:,} (the default, {2 * STALL_PLIES_PER_HOLE} x holes_per_row)"
        else:
            limit = _bounded_int("no_capture_limit", self.no_capture_limit, 1, MAX_NO_CAPTURE_LIMIT)
            given = f"no_capture_limit={limit:,}"
        longest = (2 * holes * seeds // CASA + 1) * limit
        if limit > MAX_NO_CAPTURE_LIMIT or longest > INT32_MAX:
            raise ValueError(
                f"{given} with {2 * holes * seeds:,} counters allows games of {longest:,} plies; "
                f"no_capture_limit must be <= {MAX_NO_CAPTURE_LIMIT:,} (2**23) and "
                f"(counters // 4 + 1) x no_capture_limit <= {INT32_MAX:,} (the int32 ply counter): "
                f"give a smaller no_capture_limit"
            )
        object.__setattr__(self, "no_capture_limit", limit)

    @property
    def num_holes(self) -> int:
        return 2 * self.holes_per_row

    @property
    def total_counters(self) -> int:
        return 2 * self.holes_per_row * self.seeds_per_hole
