"""Properties over thousands of random games, checked against the reference reading of the rules."""

from __future__ import annotations

import random

import pytest

from hive_envs.hoyito import HoyitoGame
from tests.hoyito.reference import reference_play

CONFIGS = [
    {"holes_per_row": 6},
    {"holes_per_row": 12},
    {"holes_per_row": 2},
    {"holes_per_row": 3, "seeds_per_hole": 3},
    {"holes_per_row": 5, "seeds_per_hole": 2, "max_laps": 7, "no_capture_limit": 40},
]


def play_random_games(options, games, seed):
    rng = random.Random(seed)
    probe = HoyitoGame(**options)
    n, total = probe.holes_per_row, probe.options.total_counters
    max_laps, limit = probe.options.max_laps, probe.options.no_capture_limit
    for _ in range(games):
        g = HoyitoGame(**options)
        plies = 0
        while not g.is_terminal:
            moves = g.legal_move_ids().tolist()
            mover, board = g.to_move, g.board
            # moves: exactly the mover's non-empty holes, never empty while the game runs
            assert moves == [h for h in range(mover * n, mover * n + n) if board[h] > 0] and moves
            hole = rng.choice(moves)
            expected = reference_play(
                board, g.captured, mover, g.plies_without_capture, hole, n, max_laps, limit
            )
            g.play_id(hole)
            plies += 1
            assert (g.board, list(g.captured), g.is_terminal) == (expected[0], expected[1], expected[4])
            assert g.plies_without_capture == expected[3]
            if not g.is_terminal:
                assert g.to_move == expected[2]
            # counters conserved every ply
            assert sum(g.board) + sum(g.captured) == total
            # terminates: the stall guard bounds the plies between captures
            assert plies <= limit * (total // 4 + 1)
        assert g.legal_move_ids().tolist() == [] and g.winner in (0, 1, -1)
        assert g.ply == plies


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: "-".join(f"{k}{v}" for k, v in o.items()))
def test_random_games_conserve_counters_follow_the_rules_and_terminate(options):
    play_random_games(options, games=400 if options.get("holes_per_row") != 12 else 150, seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: "-".join(f"{k}{v}" for k, v in o.items()))
def test_many_random_games_against_the_reference(options):
    play_random_games(options, games=5000, seed=2)


def test_compiled_random_playout_finishes_games_and_conserves_counters():
    import numpy as np

    from hive_envs.hoyito.engine import kernels as K

    state = np.zeros(K.state_size(6), np.int32)
    for seed in range(1, 200):
        K.init_state(state, 6, 4)
        plies = K.random_playout(state, 6, 1000, 600, seed)
        assert state[12 + 4] == 1 and state[12 + 5] == plies > 0
        assert state[:12].sum() + state[12] + state[13] == 48


def test_arbitrary_positions_match_the_reference():
    """Random mid-game positions (not only ones random play reaches), small lap caps included."""
    import numpy as np

    rng = np.random.default_rng(7)
    checked = 0
    while checked < 3000:
        n = int(rng.integers(2, 8))
        seeds = int(rng.integers(1, 6))
        total = 2 * n * seeds
        on_board = int(rng.integers(1, total + 1))
        board = rng.multinomial(on_board, np.ones(2 * n) / (2 * n)).tolist()
        south = int(rng.integers(0, total - on_board + 1))
        captured = (south, total - on_board - south)
        options = {
            "holes_per_row": n,
            "seeds_per_hole": seeds,
            "max_laps": int(rng.choice([1, 2, 5, 1000])),
            "no_capture_limit": int(rng.integers(1, 50)),
        }
        stall = int(rng.integers(0, options["no_capture_limit"]))
        g = HoyitoGame.from_position(
            board, captured, int(rng.integers(2)), plies_without_capture=stall, **options
        )
        if g.is_terminal:
            continue
        hole = int(rng.choice(g.legal_move_ids().tolist()))
        expected = reference_play(
            g.board, g.captured, g.to_move, stall, hole, n, options["max_laps"], options["no_capture_limit"]
        )
        g.play_id(hole)
        assert (g.board, list(g.captured), g.plies_without_capture, g.is_terminal) == (
            expected[0],
            expected[1],
            expected[3],
            expected[4],
        )
        if not g.is_terminal:
            assert g.to_move == expected[2]
        checked += 1
