"""Stopping a search from another thread: a thread's searches read one `threading.Event`.

    with cancellable(stop):          # this thread's searches watch ``stop``
        move = player.choose(game)   # another thread's ``stop.set()`` ends the search early

A search by time ends at its deadline; a set event makes the clock the searches read jump
`CANCEL_JUMP_S` ahead (`clock`), so a running alpha-beta search sees its deadline passed at its next
reading of the clock and answers with the best move of its last finished iteration, and the PUCT
search's `Deadline` stops after the simulation under way (`cancelled`). Either search finishes its
first iteration or simulation, so a move still comes back. The web page stops so the moves of a game
its client left; elsewhere no event is set and the clock is `time.perf_counter`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

CANCEL_JUMP_S = 1e9  #: how far a cancelled search's clock jumps ahead: past any deadline
_watched = threading.local()


@contextmanager
def cancellable(stop: threading.Event) -> Iterator[None]:
    """Within the block, this thread's searches end early once ``stop`` is set."""
    previous = getattr(_watched, "event", None)
    _watched.event = stop
    try:
        yield
    finally:
        _watched.event = previous


def cancelled() -> bool:
    """Whether the event this thread's searches watch (`cancellable`) is set."""
    event = getattr(_watched, "event", None)
    return event is not None and event.is_set()


def clock() -> float:
    """`time.perf_counter`, `CANCEL_JUMP_S` ahead once this thread's search is cancelled."""
    return time.perf_counter() + (CANCEL_JUMP_S if cancelled() else 0.0)
