"""Opt-in potential-based reward shaping for the envs and batches of any protocol game.

Three options, the same on every env and batch (`hive_v0.env`, `raw_env`, the Gymnasium ids,
`gym.make_vec`, `HiveBatch`, `HoyitoBatch`):

- ``reward_shaping``: None (the default: off, rewards exactly as without the option) or the name of
  the game's potential (`Game.potential`): ``"queen_margin"`` for Hive (occupied neighbours of the
  opponent's Queen minus of one's own, / 6), ``"captured_margin"`` for Hoyito (captured counters
  minus the opponent's, / all counters);
- ``shaping_coef``: c, a finite number >= 0 (default 1.0);
- ``shaping_gamma``: gamma in (0, 1] (default 1.0), the discount per own decision the learner uses.

The rule (Ng, Harada & Russell 1999): a transition of seat p runs from one of p's decisions
(a position s where p is to move) to p's next decision s' in the same game, or to the end of the
game. It earns the extra reward c * (gamma * Phi_p(s') - Phi_p(s)), with Phi_p = 0 once the game is
over, so the final +1 / -1 / 0 is unchanged. The extra reward is paid when s' arrives: in the step
that gives p its next decision, or in the step that ends the game (both seats then get
-c * Phi_p(s) for their last decision s). A seat's first decision of a game earns nothing.

Over a game whose decisions of p are s_0 ... s_K, the extra rewards discounted per own decision
sum to sum_k gamma^k c (gamma Phi(s_{k+1}) - Phi(s_k)) = -c Phi_p(s_0): with gamma = 1 the shaped
return is the raw return minus c Phi_p(s_0), and Phi_p(s_0) = 0 from the start position of Hive
(no Queen in play) and Hoyito (nothing captured). So the objective and the best policy are those of
the raw game; progress is credited when it happens instead of at the end.

`ShapingLedger` keeps, per (game, seat), the potential at the seat's last decision while its
transition is open; the AEC env uses one row, a batch one row per game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Real

import numpy as np

SHAPING_OPTIONS = ("reward_shaping", "shaping_coef", "shaping_gamma")  #: the keyword options of every env


@dataclass(frozen=True)
class Shaping:
    """Validated shaping options: the potential's name, c and gamma (see the module docstring)."""

    potential: str
    coef: float
    gamma: float


def parse_shaping(potential: str, reward_shaping=None, shaping_coef=1.0, shaping_gamma=1.0) -> Shaping | None:
    """The options as a `Shaping` (None when off); ValueError naming the option for a bad value.

    ``potential`` is the game's potential name, the only value ``reward_shaping`` accepts.
    """
    if reward_shaping is not None and reward_shaping != potential:
        raise ValueError(
            f"reward_shaping must be None (off) or {potential!r} (this game's potential), "
            f"got {reward_shaping!r}"
        )
    coef = _real("shaping_coef", shaping_coef)
    if not (math.isfinite(coef) and coef >= 0):
        raise ValueError(f"shaping_coef must be a finite number >= 0, got {shaping_coef!r}")
    gamma = _real("shaping_gamma", shaping_gamma)
    if not 0 < gamma <= 1:  # NaN fails too
        raise ValueError(f"shaping_gamma must be a number in (0, 1], got {shaping_gamma!r}")
    if reward_shaping is None:
        if coef != 1.0 or gamma != 1.0:
            raise ValueError(
                f"shaping_coef / shaping_gamma are set ({shaping_coef!r}, {shaping_gamma!r}) but "
                f"reward_shaping is None; pass reward_shaping={potential!r} to shape rewards"
            )
        return None
    return Shaping(potential, coef, gamma)


def _real(name: str, value) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real):
        raise ValueError(f"{name} must be a number, got {value!r}")
    return float(value)


class ShapingLedger:
    """Open transitions of each (game, seat): the potential at the seat's last decision."""

    def __init__(self, shaping: Shaping, num_games: int):
        self.coef = shaping.coef
        self.gamma = shaping.gamma
        self.last = np.zeros((num_games, 2))
        self.open = np.zeros((num_games, 2), dtype=bool)

    def clear(self, rows=slice(None)) -> None:
        """Forget the open transitions of ``rows`` (a new game starts there)."""
        self.last[rows] = 0.0
        self.open[rows] = False

    def decide(self, rows: np.ndarray, seats: np.ndarray, potentials: np.ndarray) -> np.ndarray:
        """Seat ``seats[i]`` of game ``rows[i]`` is to move in a position of potential ``potentials[i]``:
        returns the extra reward of the transition this decision closes (0 for a first decision) and
        opens the next one."""
        last = self.last[rows, seats]
        pay = np.where(self.open[rows, seats], self.coef * (self.gamma * potentials - last), 0.0)
        self.last[rows, seats] = potentials
        self.open[rows, seats] = True
        return pay

    def close(self, rows: np.ndarray) -> np.ndarray:
        """The games ``rows`` are over: (len(rows), 2) extra rewards -c * Phi(last decision) of each
        seat with an open transition (Phi = 0 at the end); the rows are cleared."""
        pay = np.where(self.open[rows], -self.coef * self.last[rows], 0.0)
        self.clear(rows)
        return pay
