"""What a network player saw when it chose its last move: the root of its search, or its raw policy.

`AgentPlayer.choose` keeps one as ``last_search``, so that a tool can show the thinking behind the
move that was played (the web page's thoughts panel) without searching the position a second time:
a second search differs from the first (its top move, in a search by time its visits) and doubles
the time a move takes.

Values are for the player to move at the root, in [-1, 1]. ``policy`` is the network's policy as
it is: the search itself reads it through its prior temperature (`search.tempered`), which
`untempered` takes back off.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class RootSummary:
    """One move choice of a network player (see the module docstring).

    ``moves``: the root's legal moves; ``policy``: the network's probability of each; ``visits``: the
    root's visits of each (all zero for the raw policy); ``values``: the mean value the search backed
    up through each move (NaN for a move it did not visit); ``value``: the network's value of the
    position; ``simulations``: simulations this choice ran; ``kept_visits``: the visits the root had
    already, from the tree the player kept from its previous move; ``time_limit_s``: the search's
    time budget (None: a search by simulations, or the raw policy); ``elapsed_s``: the whole choice's
    time; ``move``: the move played (not always the most visited: the repetition rule, the tactical
    check or sampling may choose another).
    """

    moves: np.ndarray
    policy: np.ndarray
    visits: np.ndarray
    values: np.ndarray
    value: float
    simulations: int
    kept_visits: int
    time_limit_s: float | None
    elapsed_s: float
    move: int

    @property
    def searched(self) -> bool:
        return self.simulations + self.kept_visits > 0


def untempered(priors: np.ndarray, temperature: float) -> np.ndarray:
    """The policy that `search.tempered` turned into ``priors`` at ``temperature``."""
    if temperature == 1.0:
        return priors
    policy = priors**temperature
    return policy / policy.sum()


def mean_values(visits: np.ndarray, value_sums: np.ndarray) -> np.ndarray:
    """``value_sums / visits`` per move, NaN where a move has no visit."""
    values = np.full(len(visits), np.nan)
    seen = visits > 0
    values[seen] = value_sums[seen] / visits[seen]
    return values
