"""Unboundedness: the rules do not see the torus seam (translation invariance), and the helpers
`stacks()` / `cell_to_qr` / `qr_to_cell` give a contiguous, consistent picture."""

import numpy as np
import pytest

from hive_envs.hive import DIRECTIONS, GAME_TYPES, GRID_SIZE, PASS_MOVE, cell_to_qr, qr_to_cell
from hive_envs.hive.engine import MAX_MOVES, generate_moves, new_workspace
from hive_envs.hive.engine.movegen import count_moves, generate_movements
from hive_envs.hive.engine.moves import move_cell, move_piece, pack_move
from hive_envs.hive.engine.repetition import position_key
from hive_envs.hive.engine.state import HEIGHT, PCELL, TOP
from tests.hive.random_games import random_positions

SHIFTS = [(14, 0), (0, 17), (-9, 23), (16, 16)]


def _shift_cell(cell, dq, dr):
    q, r = divmod(int(cell), GRID_SIZE)
    return qr_to_cell(q + dq, r + dr)


def _translated(state, dq, dr):
    """The same position with every stack moved by (dq, dr) on the torus."""
    out = state.copy()
    cells = np.arange(GRID_SIZE * GRID_SIZE)
    moved = np.array([_shift_cell(c, dq, dr) for c in cells])
    out[TOP + moved] = state[TOP + cells]
    out[HEIGHT + moved] = state[HEIGHT + cells]
    for p in range(28):
        if state[PCELL + p] >= 0:
            out[PCELL + p] = _shift_cell(state[PCELL + p], dq, dr)
    return out


def _moves(state):
    out = np.empty(MAX_MOVES, dtype=np.int32)
    n = generate_moves(state, new_workspace(), out)
    return out[:n].copy()


@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_translated_positions_have_translated_moves_and_equal_repetition_keys(game_type):
    for game in random_positions(game_type, seed=21, max_plies=70):
        if game.ply < 2 or game.is_terminal:
            continue  # the first two plies are tied to the origin by the rules
        state = game.state.copy()
        expected = sorted(_moves(state))
        for dq, dr in SHIFTS:
            moved = _translated(state, dq, dr)
            got = sorted(
                m if m == PASS_MOVE else pack_move(move_piece(m), _shift_cell(move_cell(m), -dq, -dr))
                for m in _moves(moved)
            )
            assert got == expected, (game.gamestring, dq, dr)
            assert position_key(moved) == position_key(state)


def _random_states(seed):
    """(game, copy of its state) over random games of every game type."""
    for game_type in GAME_TYPES:
        for game in random_positions(game_type, seed=seed, max_plies=120):
            yield game, game.state.copy()


def test_count_moves_equals_the_generated_count_in_random_games():
    w, out = new_workspace(), np.empty(MAX_MOVES, dtype=np.int32)
    for game, s in _random_states(seed=4):
        assert count_moves(s, w, out) == generate_moves(s, w, out), game.gamestring


def test_generate_movements_lists_the_generated_moves_of_pieces_in_play_in_random_games():
    """The movements-only generation: exactly the moves of pieces already on the board."""
    w, out = new_workspace(), np.empty(MAX_MOVES, dtype=np.int32)
    for game, s in _random_states(seed=5):
        n = generate_movements(s, w, out)
        movements = sorted(int(m) for m in out[:n])
        expected = sorted(
            int(m) for m in game.legal_move_ids() if m != PASS_MOVE and s[PCELL + move_piece(int(m))] >= 0
        )
        assert movements == expected, game.gamestring


def test_stacks_unwrap_a_hive_that_straddles_the_seam():
    for game in random_positions("Base+MLP", seed=2, max_plies=60):
        pass
    for dq, dr in SHIFTS:
        shifted = game.copy()
        shifted._s[:] = _translated(game.state, dq, dr)  # test-only: same position, moved across the seam
        stacks = shifted.stacks()
        for (q, r), pieces in stacks.items():
            cell = qr_to_cell(q, r)
            assert shifted.state[HEIGHT + cell] == len(pieces)
            for ddq, ddr in DIRECTIONS:
                neighbour_occupied = shifted.state[HEIGHT + qr_to_cell(q + ddq, r + ddr)] > 0
                assert neighbour_occupied == ((q + ddq, r + ddr) in stacks)
        original = game.stacks()
        (q0, r0), (q1, r1) = min(original), min(stacks)
        assert {(q - q0, r - r0): v for (q, r), v in original.items()} == {
            (q - q1, r - r1): v for (q, r), v in stacks.items()
        }


def test_cell_coordinates_round_trip():
    for cell in range(GRID_SIZE * GRID_SIZE):
        q, r = cell_to_qr(cell)
        assert -16 <= q < 16 and -16 <= r < 16
        assert qr_to_cell(q, r) == cell
    with pytest.raises(ValueError):
        cell_to_qr(GRID_SIZE * GRID_SIZE)


def test_move_ids_pack_the_piece_above_the_cell_as_documented():
    """``move_id = piece_id * 1024 + cell`` on the 32 x 32 torus, pass after the last real move."""
    assert (pack_move(3, 517), move_piece(3 * 1024 + 517), move_cell(3 * 1024 + 517)) == (
        3 * 1024 + 517,
        3,
        517,
    )
    assert PASS_MOVE == 28 * 1024 == pack_move(28, 0)
