"""Seeded random games shared by the engine tests (positions of every game type, mid-game)."""

import random

from hive_envs.hive import GAME_TYPES, HiveGame


def random_positions(game_type: str, seed: int, max_plies: int = 120):
    """Yield the game after each ply of a seeded random game (the same object, mutated)."""
    rng = random.Random(seed)
    game = HiveGame(game_type, max_turns=max_plies)
    yield game
    while not game.is_terminal:
        ids = game.legal_move_ids()
        game.play_id(int(ids[rng.randrange(len(ids))]))
        yield game


def all_game_types():
    return list(GAME_TYPES)
