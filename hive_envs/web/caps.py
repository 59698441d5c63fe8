"""The web page's ceilings: how much of the machine requests may hold, per client and in all.

A client is one browser (`guards`: a random id in a cookie the server sets). `Tables` keeps to
`Caps`: games held, engine processes alive, computer moves being computed at once; `trust` keeps
each search a request names under ``move_time_s`` and ``simulations``. A per-client cap on games or
engines is kept by dropping that client's own oldest game; a per-client cap on moves computed at
once, and every global cap, refuse the request (`Full`): nothing of another client is touched, except
a game left unused for ``idle_s``, which any client's new game may replace. How the server bounds its
threads and slow connections is in `serving`.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass(frozen=True)
class Caps:
    games: int = 1_000  #: games held in all
    games_per_client: int = 20
    engines: int = 8  #: UHP engine processes alive in all
    engines_per_client: int = 2
    thinking: int = 4  #: computer moves being computed at once, in all
    thinking_per_client: int = 2
    move_time_s: float = 30.0  #: the longest search a request may ask for (alpha-beta, PUCT by time)
    simulations: int = 2_000  #: the most PUCT simulations a request may ask for (PATH@N)
    idle_s: float = 3_600.0  #: a game unused this long may be dropped for another client's


class Full(RuntimeError):
    """A cap is reached: ``status`` 429 when it is the client's own, 503 when it is the server's."""

    def __init__(self, message: str, status: int = 503):
        super().__init__(message)
        self.status = status


class Slots:
    """Up to ``total`` holders at once, at most ``per_client`` of them for one client (`hold`)."""

    def __init__(self, what: str, total: int, per_client: int):
        self.what, self.total, self.per_client = what, total, per_client
        self._held: Counter[str] = Counter()
        self._lock = threading.Lock()

    @contextmanager
    def hold(self, client: str) -> Iterator[None]:
        """One slot for ``client`` while the block runs; `Full` when none is free."""
        with self._lock:
            if self._held[client] >= self.per_client:
                raise Full(f"at most {self.per_client} {self.what} at once per client", status=429)
            if sum(self._held.values()) >= self.total:
                raise Full(f"the server is busy: at most {self.total} {self.what} at once; try again soon")
            self._held[client] += 1
        try:
            yield
        finally:
            with self._lock:
                self._held[client] -= 1
                if not self._held[client]:
                    del self._held[client]
