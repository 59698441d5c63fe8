"""Named rules regressions: whole game records, OpenSpiel's pin position, a forced double pass.

- tests/data/hive_games.txt: complete games (Base, +M, +L, +P, +MLP, each colour winning) replay to
  their recorded result, the loser's Queen is surrounded on the final board (counted from `stacks()`,
  not from the engine's status), every move undoes back to the start, and OpenSpiel's ``hive``
  replaying the same moves declares the same winner.
- The pin position where OpenSpiel lets a pinned Ant move (docs/hive_engine.md): it may not.
- Both players forced to pass in a row: the game is a draw (the seed rules' double-pass rule).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hive_envs.hive import DIRECTIONS, PASS_MOVE, PIECE_IDS, HiveGame, qr_to_cell
from hive_envs.hive.engine.moves import move_cell, move_piece
from hive_envs.hive.engine.state import I_PLY, I_TO_MOVE, put_piece

RECORDS = [
    line.strip()
    for line in (Path(__file__).resolve().parents[1] / "data" / "hive_games.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
]


def _queen_neighbours_on_the_board(game: HiveGame, queen: str) -> int:
    stacks = game.stacks()
    q, r = next(qr for qr, names in stacks.items() if queen in names)
    return sum((q + dq, r + dr) in stacks for dq, dr in DIRECTIONS)


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: f"{r.split(';')[0]}-{r.split(';')[1]}")
def test_a_recorded_game_replays_to_its_result(record):
    game = HiveGame.from_gamestring(record)  # checks the GameStateString and TurnString too
    winner, loser = ("w", "b") if game.outcome == "WhiteWins" else ("b", "w")
    assert game.is_terminal and game.outcome in ("WhiteWins", "BlackWins")
    assert game.result == (1.0 if winner == "w" else -1.0)
    assert _queen_neighbours_on_the_board(game, f"{loser}Q") == 6
    assert _queen_neighbours_on_the_board(game, f"{winner}Q") < 6
    assert game.gamestring == record  # the record is in the engine's own spelling
    moves = game.move_ids
    for _ in moves:
        game.undo()
    assert game.gamestring == f"{game.game_type};NotStarted;White[1]"
    for move in moves:
        game.play_id(move)
    assert game.gamestring == record


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: f"{r.split(';')[0]}-{r.split(';')[1]}")
def test_openspiel_agrees_on_the_winner_of_a_recorded_game(record):
    pytest.importorskip("pyspiel")
    from tests.hive.test_vs_openspiel import _openspiel_game, _their_moves

    ours = HiveGame(record.split(";")[0])
    state = _openspiel_game(ours.game_type).new_initial_state()
    for move in record.split(";")[3:]:
        move_id = ours.move_id(move)
        piece, cell = (move_piece(move_id), move_cell(move_id)) if move_id != PASS_MOVE else (-1, -1)
        state.apply_action(_their_moves(state, ours)[(piece, cell)][0])
        ours.play_id(move_id)
    assert state.is_terminal()
    white, black = state.returns()
    assert (white, black) == ((1.0, -1.0) if ours.outcome == "WhiteWins" else (-1.0, 1.0))


OPENSPIEL_PIN = r"Base;InProgress;Black[3];wB1;bA1 wB1\;wB2 -wB1;bQ /bA1;wG1 wB1/"


def test_a_pinned_piece_may_not_move_where_openspiel_lets_it():
    """bQ touches only bA1: moving bA1 would split the hive. OpenSpiel offers bA1 to 13 cells and plays
    ``bA1 wG1/``; here bA1 has no move at all."""
    game = HiveGame.from_gamestring(OPENSPIEL_PIN)
    assert game.to_move == 1
    assert not any(move.startswith("bA1") for move in game.legal_move_names())
    with pytest.raises(ValueError, match="bA1"):
        game.play("bA1 wG1/")
    assert game.gamestring == OPENSPIEL_PIN


# Both sides stuck: White has not placed its Queen (so none of its pieces may move) and every empty
# cell next to a White piece touches a Black one (so White may not place); Black has every piece on
# the board, all on one path of the hive (each pinned), except its Mosquito, whose only neighbour is
# the White Mosquito (nothing to copy). A constructed position (White's Queen would have had to come
# out by its fourth turn); the cells were found by a search over induced paths and the engine's own
# move generator confirms both passes.
DOUBLE_PASS_PATH = [
    ("bM", 0, 0), ("wM", 1, 0), ("bQ", 2, 0), ("wS1", 2, 1), ("bS1", 2, 2), ("wS2", 3, 2),
    ("bS2", 4, 2), ("wB1", 4, 3), ("bB1", 4, 4), ("wB2", 3, 5), ("bB2", 2, 6), ("wG1", 1, 6),
    ("bG1", 0, 7), ("wG2", -1, 8), ("bG2", -2, 9), ("wG3", -3, 9), ("bG3", -4, 9), ("bA1", -4, 8),
    ("bA2", -3, 7), ("wA1", -2, 7), ("bA3", -1, 6), ("wA2", 0, 5), ("bL", 1, 4), ("wA3", 2, 4),
]  # fmt: skip


def test_both_players_forced_to_pass_in_a_row_draw():
    state = HiveGame("Base+ML", max_turns=None).state.copy()
    for name, q, r in DOUBLE_PASS_PATH:
        put_piece(state, PIECE_IDS[name], qr_to_cell(q, r))
    state[I_PLY], state[I_TO_MOVE] = 60, 0
    game = HiveGame.from_state(state)
    assert game.reserve(1) == [] and game.reserve(0) == ["wQ", "wL"]
    assert game.legal_move_names() == ["pass"]
    game.play("pass")
    assert game.outcome is None and game.passes_in_a_row == 1
    assert game.legal_move_names() == ["pass"]
    game.play("pass")
    assert game.outcome == "Draw" and game.result == 0.0 and game.legal_move_names() == []
    game.undo()
    assert game.outcome is None and game.legal_move_names() == ["pass"]
