"""UHP notation: round trips, alternative forms of a move, clear errors, fuzzing."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hive_envs.hive import GAME_TYPES, PASS_MOVE, HiveGame
from hive_envs.hive.engine.grid import NEIGHBOURS
from hive_envs.hive.engine.moves import move_cell, move_piece
from hive_envs.hive.engine.pieces import PIECE_NAMES
from hive_envs.hive.engine.state import HEIGHT, PUNDER, TOP
from tests.hive.random_games import random_positions

MARKERS = (("", "/"), ("", "-"), ("", "\\"), ("/", ""), ("-", ""), ("\\", ""))


def _all_forms(game, move_id):
    """Every UHP string naming ``move_id``: each piece in play next to (or under) the destination."""
    s = game.state
    piece, dest = move_piece(move_id), move_cell(move_id)
    name = PIECE_NAMES[piece]
    if s[HEIGHT + dest] > 0:
        return [f"{name} {PIECE_NAMES[s[TOP + dest]]}"]
    forms = []
    for d in range(6):
        cell = NEIGHBOURS[dest * 6 + d]
        prefix, suffix = MARKERS[(d + 3) % 6]
        p = s[TOP + cell]
        while p >= 0:  # every piece of the neighbouring stack, the mover included
            forms.append(f"{name} {prefix}{PIECE_NAMES[p]}{suffix}")
            p = s[PUNDER + p]
    return forms


@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_every_valid_move_string_round_trips_and_every_alternative_form_is_accepted(game_type):
    for game in random_positions(game_type, seed=11, max_plies=100):
        if game.is_terminal:
            break
        ids = [int(m) for m in game.legal_move_ids()]
        strings = game.legal_move_names()
        assert len(set(strings)) == len(strings) == len(set(ids))
        for move_id, text in zip(ids, strings):
            assert game.move_id(text) == move_id
            assert game.move_name(move_id) == text
            if move_id != PASS_MOVE and game.ply > 0:
                for form in _all_forms(game, move_id):
                    assert game.move_id(form) == move_id, (game.gamestring, form)


def test_destination_named_from_the_moving_pieces_own_old_cell():
    game = HiveGame.from_gamestring("Base;InProgress;White[3];wS1;bS1 wS1/;wQ /wS1;bQ bS1/")
    # wQ is south-west of wS1; the cell east of wQ is south-east of wS1: name it both ways.
    target = game.move_id("wQ wQ-")
    assert game.move_id("wQ wS1\\") == target
    game.play("wQ wQ-")
    assert game.gamestring.endswith(";wQ wS1\\")


def test_gamestring_round_trip_over_random_games():
    for game_type in ("Base", "Base+MLP"):
        for game in random_positions(game_type, seed=5, max_plies=200):
            pass
        text = game.gamestring
        again = HiveGame.from_gamestring(text, max_turns=200)
        assert again.gamestring == text
        assert np.array_equal(again.state, game.state)


def test_bare_game_type_string_starts_a_new_game():
    game = HiveGame.from_gamestring("Base+LP")
    assert game.gamestring == "Base+LP;NotStarted;White[1]"


@pytest.mark.parametrize(
    "move, fragment",
    [
        ("", "must be"),
        ("wX1", "'wX1' is not a piece name"),
        ("wS3 -wQ", "'wS3' is not a piece name"),
        ("wM -wS1", "not in this game type"),
        ("wA1 -bQ", "bQ in move 'wA1 -bQ' is not on the board"),
        ("wA1 -wS1-", "two direction markers"),
        ("wA1 *wS1", "is not a reference"),
        ("wA1 wS1 bS1", "must be"),
        ("wA1", "names no destination"),
        ("wQ bS1-", "is not legal"),
        ("bA1 -wS1", "is not legal"),
        ("wA2 -wS1", "wA1 must be placed before wA2"),
        ("pass", "only allowed when no other move"),
    ],
)
def test_malformed_or_illegal_move_raises_value_error_and_leaves_the_game_unchanged(move, fragment):
    game = HiveGame.from_gamestring("Base;InProgress;White[2];wS1;bS1 wS1-")
    before = game.gamestring, game.state.copy()
    with pytest.raises(ValueError, match=None) as info:
        game.play(move)
    assert fragment in str(info.value)
    assert (game.gamestring, game.state.copy().tolist()) == (before[0], before[1].tolist())


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("Base+X;NotStarted;White[1]", "game type 'Base+X'"),
        ("Base;Started;White[1]", "GameStateString 'Started'"),
        ("Base;NotStarted;Red[1]", "TurnString 'Red[1]'"),
        ("Base;InProgress", "needs GameTypeString"),
        ("Base;InProgress;Black[1];wS1;wS2", "GameString move 2 ('wS2')"),
        ("Base;InProgress;White[1];wS1", "TurnString 'White[1]' does not match"),
        ("Base;NotStarted;Black[1];wS1", "GameStateString 'NotStarted' does not match"),
    ],
)
def test_malformed_gamestring_raises_value_error_naming_the_token(text, fragment):
    with pytest.raises(ValueError) as info:
        HiveGame.from_gamestring(text)
    assert fragment in str(info.value)


def test_illegal_move_id_raises_and_game_over_refuses_moves():
    game = HiveGame(max_turns=1)
    with pytest.raises(ValueError, match="is not legal"):
        game.play_id(123456)
    game.play("wG1")
    assert game.outcome == "Draw"
    with pytest.raises(ValueError, match="game is over"):
        game.play("bG1 wG1-")
    with pytest.raises(ValueError, match="game is over"):
        game.play_id(PASS_MOVE)


_TOKEN = st.sampled_from(
    ["w", "b", "Q", "S1", "A3", "G", "M", "L", "P", "-", "/", "\\", " ", "pass", "wS1", "bQ", "x", ";"]
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=20), st.lists(_TOKEN, max_size=8).map("".join)))
def test_fuzzed_move_strings_raise_only_value_error(text):
    game = HiveGame.from_gamestring("Base+MLP;InProgress;White[2];wS1;bP wS1-")
    before = game.state.copy()
    try:
        game.play(text)
    except ValueError:
        assert np.array_equal(game.state, before)


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.text(max_size=40), st.lists(_TOKEN, max_size=12).map("".join).map(lambda t: "Base;InProgress;" + t)
    )
)
def test_fuzzed_gamestrings_raise_only_value_error(text):
    try:
        HiveGame.from_gamestring(text)
    except ValueError:
        pass
