"""A text a test compares with a frozen file (a golden playthrough, the searches' reference results)."""

from __future__ import annotations

import itertools

import pytest


def assert_same_text(expected: str, actual: str, why: str) -> None:
    """Fail with ``why`` and the first line where ``actual`` differs from the frozen ``expected``."""
    if actual == expected:
        return
    pairs = itertools.zip_longest(expected.splitlines(), actual.splitlines(), fillvalue="(none)")
    line, (frozen, now) = next((i, p) for i, p in enumerate(pairs, 1) if p[0] != p[1])
    pytest.fail(f"{why}\nFirst difference, line {line}:\n  frozen: {frozen}\n  now:    {now}")
