"""Bad input to the engine: clear ValueErrors naming what is wrong, state unchanged."""

from __future__ import annotations

import numpy as np
import pytest

from hive_envs.hoyito import HoyitoGame


@pytest.mark.parametrize(
    "hole, message",
    [
        (0, "illegal move 0"),
        (-1, "illegal move -1"),
        (12, "illegal move 12"),
        (99, "illegal move 99"),
        (1.0, "integer"),
        ("0", "integer"),
        (None, "integer"),
        (True, "integer"),
    ],
)
def test_illegal_hole_raises_and_leaves_state_unchanged(hole, message):
    g = HoyitoGame()
    g.play_id(0)  # North to move now
    before = g.state.copy()
    with pytest.raises(ValueError, match=message):
        g.play_id(hole)  # hole 0 is South's: illegal for North
    assert np.array_equal(g.state, before)


def test_empty_hole_is_illegal():
    g = HoyitoGame.from_position([0, 4] + [4] * 10, (4, 0), 0)
    with pytest.raises(ValueError, match=r"illegal move 0: legal holes are \[1, 2, 3, 4, 5\]"):
        g.play_id(0)


def test_numpy_integer_holes_are_accepted():
    g = HoyitoGame()
    g.play_id(np.int64(2))
    assert g.ply == 1


def test_playing_a_finished_game_raises():
    g = HoyitoGame(no_capture_limit=1)
    g.play_id(0)
    before = g.state.copy()
    with pytest.raises(ValueError, match="game is over"):
        g.play_id(6)
    assert np.array_equal(g.state, before)


@pytest.mark.parametrize(
    "options, name",
    [
        ({"holes_per_row": 1}, "holes_per_row"),
        ({"holes_per_row": 6.0}, "holes_per_row"),
        ({"holes_per_row": True}, "holes_per_row"),
        ({"seeds_per_hole": 0}, "seeds_per_hole"),
        ({"max_laps": 0}, "max_laps"),
        ({"no_capture_limit": 0}, "no_capture_limit"),
        ({"no_capture_limit": "600"}, "no_capture_limit"),
    ],
)
def test_invalid_options_raise_naming_the_option_and_what_is_allowed(options, name):
    with pytest.raises(ValueError, match=rf"{name} must be an integer >= \d"):
        HoyitoGame(**options)


def test_copy_is_independent():
    g = HoyitoGame()
    c = g.copy()
    c.play_id(0)
    assert g.board == [4] * 12 and g.ply == 0 and c.ply == 1


@pytest.mark.parametrize(
    "board, captured, to_move, match",
    [
        ([4] * 11, (0, 0), 0, "board must be 12"),
        ([-1] + [4] * 11, (5, 0), 0, "board must be"),
        ([4] * 12, (0,), 0, "captured"),
        ([4] * 12, (0, 0), 2, "to_move"),
    ],
)
def test_from_position_rejects_bad_positions(board, captured, to_move, match):
    with pytest.raises(ValueError, match=match):
        HoyitoGame.from_position(board, captured, to_move)


def test_capture_values_preview_each_move_without_changing_state():
    g = HoyitoGame.from_position([1, 3, 0, 0, 0, 2, 1, 1, 1, 1, 1, 1], (36, 0), 0)
    before = g.state.copy()
    # hole 0 makes a casa at once; hole 1 ends in the empty hole 4; hole 5 relays 7, 9, 11
    # and its fourth lap ends in hole 1 (3 -> 4)
    assert g.capture_values().tolist() == [4, 0, -1, -1, -1, 4]
    assert np.array_equal(g.state, before)
