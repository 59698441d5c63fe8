"""Shared pytest configuration."""

import os
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "hive_envs"


def numba_cache_note(package: Path = PACKAGE, cache_dir: str | None = None) -> str | None:
    """A line for the start of a run whose compiled kernels are not cached yet (no numba index file
    under the package, or under NUMBA_CACHE_DIR when that is set): the first tests then wait,
    silent, while numba compiles them. None when a cache is there."""
    where = Path(cache_dir) if cache_dir else package
    if where.is_dir() and next(where.rglob("*.nbi"), None) is not None:
        return None
    return (
        f"numba: no compiled kernels cached in {where} yet: they compile on first use, once "
        "(a cold run of the suite took ~11 min longer than a warm one on 2 cores)"
    )


def pytest_sessionstart(session):
    note = numba_cache_note(cache_dir=os.environ.get("NUMBA_CACHE_DIR"))
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if note and reporter is not None:
        reporter.write_line(note)


@pytest.fixture(scope="module")
def nim_registered():
    """The tests' Nim (`tests.nim`) added to the games for one test module, then removed again, so
    that the other modules see the package's games only (messages listing the games, searchers)."""
    from hive_envs import register_game
    from hive_envs.games import GAMES
    from tests.nim import NIM

    register_game(NIM)
    yield NIM
    GAMES.pop(NIM.name, None)
