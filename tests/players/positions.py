"""A game played some seeded random plies from its start: the players' tests' positions."""

import numpy as np


def mid_game(game, plies: int, seed: int = 0):
    """``game`` (a protocol game, mutated and returned) after ``plies`` uniformly random moves."""
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        ids = game.legal_move_ids()
        game.play_id(int(ids[rng.integers(len(ids))]))
    return game
