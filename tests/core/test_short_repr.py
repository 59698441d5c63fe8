"""`short_repr`: any value read from outside is quoted in a message at most 200 characters long, in
bounded time: shared lists, huge strings, dicts and sets of a million items, integers Python will not
print."""

from __future__ import annotations

import time

import pytest

from hive_envs.core.short_repr import LIMIT, short_repr


def shared_lists(levels: int) -> list:
    value: list = [1]
    for _ in range(levels):
        value = [value] * 9
    return value


class Unprintable:
    def __repr__(self) -> str:
        raise RuntimeError("no")


@pytest.mark.parametrize(
    ("value", "starts"),
    [
        (shared_lists(12), "[[[[...], [...]"),
        ("x" * 10_000_000, "'xxx"),
        (16**5000, "<an integer of 20001 bits>"),
        ({str(i): i for i in range(1_000_000)}, "{'0': 0, '1': 1"),
        (set(range(1_000_000)), "{0, 1, 2"),
        (Unprintable(), "<Unprintable instance at"),
    ],
    ids=["shared lists", "long string", "huge int", "large dict", "large set", "failing repr"],
)
def test_a_value_is_quoted_short_and_fast(value, starts):
    started = time.perf_counter()
    text = short_repr(value)
    assert time.perf_counter() - started < 0.05
    assert len(text) <= LIMIT and text.startswith(starts), text


def test_a_small_value_is_quoted_as_repr_quotes_it():
    value = {"hidden_sizes": [256, 256], "game": "hive", "lr": 3e-4, "on": None}
    assert short_repr(value) == repr(value)
