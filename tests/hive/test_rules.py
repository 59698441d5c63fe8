"""Turn structure and end-of-game rules of the engine (one rule per test)."""

import numpy as np
import pytest

from hive_envs.hive import GAME_TYPES, PASS_MOVE, HiveGame
from hive_envs.hive.engine.moves import move_piece
from hive_envs.hive.engine.rules import UNDO_SIZE, apply_move, undo_move
from hive_envs.hive.engine.state import I_LAST_MOVED, I_STATUS, PCELL, STATUS_DRAW
from tests.hive.random_games import random_positions

PILLBUG_OPENING = ["wP", "bG1 wP-", "wQ -wP", "bQ bG1/", "wA1 -wQ", "bA1 bQ-", "wA2 -wA1", "bA1 wP/"]


def _pieces(moves):
    return {m.split()[0] for m in moves}


def test_tournament_opening_forbids_the_queen_on_each_players_first_turn():
    game = HiveGame("Base+MLP")
    assert "wQ" not in _pieces(game.legal_move_names())
    game.play("wS1")
    assert "bQ" not in _pieces(game.legal_move_names())
    game.play("bS1 wS1-")
    assert "wQ" in _pieces(game.legal_move_names())


def test_without_tournament_opening_the_queen_may_open():
    game = HiveGame(tournament_opening=False)
    assert "wQ" in game.legal_move_names()


def test_placement_lists_only_the_lowest_numbered_piece_of_each_kind():
    game = HiveGame("Base")
    assert sorted(game.legal_move_names()) == ["wA1", "wB1", "wG1", "wS1"]
    game.play("wA1")
    game.play("bA1 wA1-")
    assert {"wA2", "wS1", "wB1", "wG1", "wQ"} == _pieces(game.legal_move_names())


def test_queen_deadline_forces_the_queen_on_the_fourth_turn():
    game = HiveGame()
    for move in ["wS1", "bS1 wS1-", "wS2 -wS1", "bS2 bS1-", "wB1 -wS2", "bB1 bS2-"]:
        game.play(move)
    assert _pieces(game.legal_move_names()) == {"wQ"}


def test_no_piece_moves_before_its_owners_queen_is_placed():
    game = HiveGame.from_gamestring("Base;InProgress;White[3];wA1;bA1 wA1-;wG1 -wA1;bG1 bA1-")
    assert all(game.state[PCELL + move_piece(int(m))] < 0 for m in game.legal_move_ids())


def test_pillbug_throw_cannot_take_the_last_moved_piece_and_the_thrown_piece_is_frozen():
    game = HiveGame("Base+P")
    for move in PILLBUG_OPENING:
        game.play(move)
    black = sorted(m for m in game.legal_move_names() if m.startswith("b"))
    assert black == ["bG1 -bA1", "bG1 /wP", "bG1 wP\\"]  # bA1 moved last: it cannot be thrown
    game.play("bG1 /wP")
    assert game.last_moved == "bG1"
    assert "bG1" not in _pieces(game.legal_move_names())


def test_pass_clears_the_last_moved_piece_and_two_passes_draw():
    game = HiveGame("Base+P")
    for move in PILLBUG_OPENING + ["bG1 /wP"]:
        game.play(move)
    s = game.state.copy()
    rec1, rec2 = np.empty(UNDO_SIZE, np.int32), np.empty(UNDO_SIZE, np.int32)
    apply_move(s, PASS_MOVE, rec1)
    assert s[I_LAST_MOVED] == -1 and s[I_STATUS] == 0
    apply_move(s, PASS_MOVE, rec2)
    assert s[I_STATUS] == STATUS_DRAW
    undo_move(s, rec2)
    undo_move(s, rec1)
    assert np.array_equal(s, game.state)


def test_max_turns_ends_the_game_in_a_draw():
    game = HiveGame(max_turns=4)
    for move in ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"]:
        assert not game.is_terminal
        game.play(move)
    assert game.outcome == "Draw" and game.legal_move_names() == []


@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_outcome_agrees_with_surrounded_queens_in_random_games(game_type):
    for seed in range(4):
        for game in random_positions(game_type, seed, max_plies=300):
            pass
        white, black = game.queen_neighbours(0) == 6, game.queen_neighbours(1) == 6
        expected = "Draw" if white == black else ("BlackWins" if white else "WhiteWins")
        if white or black:
            assert game.outcome == expected, game.gamestring
        else:
            assert game.outcome == "Draw" and (game.ply == 300 or game.passes_in_a_row == 2)


def test_repetition_draw_is_off_by_default_and_ends_the_game_on_the_third_occurrence_when_on():
    shuffle = ["wQ -wS1", "bQ bS1-", "wQ /wS1", "bQ bS1/"]
    opening = ["wS1", "bS1 wS1-", "wQ /wS1", "bQ bS1/"]
    plain, strict = HiveGame(), HiveGame(repetition_draw=True)
    for move in opening + shuffle + shuffle:
        plain.play(move)
        strict.play(move)
    assert plain.outcome is None
    assert strict.outcome == "Draw"
    strict.undo()
    assert strict.outcome is None
