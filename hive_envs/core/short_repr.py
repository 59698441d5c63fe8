"""`short_repr(value)`: a value read from outside, shown in an error message at a bounded length.

An error message quotes the value it refuses, and the value may be anything a file held: a list of
a million items, a string of megabytes, lists that share themselves (a YAML alias, a pickle memo), an
integer of thousands of digits (whose ``repr`` Python refuses past 4,300). `reprlib` shows a few
levels, items and characters of each; what it returns is cut at ``limit`` characters, so the time and
text it takes are bounded whatever the value is.
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterator
from itertools import islice
from typing import Any

LIMIT = 200
"""Characters of a value an error message shows at most."""


class _Short(reprlib.Repr):
    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = self.maxfrozenset = 8
        self.maxstring = self.maxother = 60
        self.maxlong = 40

    def repr_int(self, x: int, level: int) -> str:
        if abs(x).bit_length() > 128:  # repr of a huge int is slow, and refused past 4,300 digits
            return f"<an integer of {abs(x).bit_length()} bits>"
        return super().repr_int(x, level)

    def repr_dict(self, x: dict, level: int) -> str:  # reprlib sorts every key first: unbounded
        pieces = (f"{self.repr1(key, level - 1)}: {self.repr1(item, level - 1)}" for key, item in x.items())
        return self._first(pieces, len(x), level, "{}")

    def repr_set(self, x: set, level: int) -> str:  # unsorted too
        return self._first((self.repr1(item, level - 1) for item in x), len(x), level, "set()")

    def repr_frozenset(self, x: frozenset, level: int) -> str:
        return self._first((self.repr1(item, level - 1) for item in x), len(x), level, "frozenset()")

    def _first(self, pieces: Iterator[str], count: int, level: int, empty: str) -> str:
        """``{a, b, ...}`` of the first `maxdict` pieces of ``count``."""
        if not count:
            return empty
        if level <= 0:
            return "{...}"
        shown = list(islice(pieces, self.maxdict))
        return "{" + ", ".join(shown + (["..."] if count > len(shown) else [])) + "}"


_SHORT = _Short()


def short_repr(value: Any, limit: int = LIMIT) -> str:
    """``repr(value)`` at most ``limit`` characters long (``...`` marks a cut), in bounded time."""
    try:
        text = _SHORT.repr(value)
    except Exception:  # noqa: BLE001 (a value's own __repr__ may fail in any way)
        text = f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."
