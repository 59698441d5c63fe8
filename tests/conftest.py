"""Shared pytest configuration."""

import pytest


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
