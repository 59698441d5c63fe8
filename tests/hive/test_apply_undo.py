"""apply/undo restore the full state array; HiveGame.undo and copy() behave."""

import numpy as np
import pytest

from hive_envs.hive import GAME_TYPES, HiveGame
from hive_envs.hive.engine.movegen import MAX_MOVES, generate_moves
from hive_envs.hive.engine.rules import UNDO_SIZE, apply_move, undo_move
from hive_envs.hive.engine.workspace import new_workspace
from tests.hive.random_games import random_positions


@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_every_legal_move_applies_and_undoes_to_the_identical_state(game_type):
    w = new_workspace()
    out = np.empty(MAX_MOVES, dtype=np.int32)
    rec = np.empty(UNDO_SIZE, dtype=np.int32)
    for seed in range(2):
        for game in random_positions(game_type, seed, max_plies=80):
            s = game.state.copy()
            before = s.copy()
            for move in out[: generate_moves(s, w, out)].copy():
                apply_move(s, move, rec)
                undo_move(s, rec)
                assert np.array_equal(s, before), (game.gamestring, game.move_name(int(move)))


@pytest.mark.parametrize("game_type", ["Base", "Base+MLP"])
def test_undo_walks_back_through_a_whole_game(game_type):
    game = None
    snapshots = []
    for game in random_positions(game_type, seed=7, max_plies=150):
        snapshots.append((game.gamestring, game.state.copy()))
    while snapshots:
        text, state = snapshots.pop()
        assert game.gamestring == text
        assert np.array_equal(game.state, state)
        if snapshots:
            game.undo()
    with pytest.raises(ValueError, match="no move"):
        game.undo()


def test_copy_is_independent():
    game = HiveGame("Base+MLP")
    for move in ["wS1", "bP wS1-", "wQ -wS1", "bQ bP-"]:
        game.play(move)
    clone = game.copy()
    clone.play(clone.legal_move_names()[0])
    assert clone.ply == game.ply + 1
    assert game.gamestring == "Base+MLP;InProgress;White[3];wS1;bP wS1-;wQ -wS1;bQ bP-"
    game.play("wA1 -wQ")
    assert clone.gamestring.split(";")[-1] != "wA1 -wQ"
    assert not np.array_equal(clone.state, game.state)
    assert clone.legal_move_names() == HiveGame.from_gamestring(clone.gamestring).legal_move_names()


def test_play_then_undo_of_each_listed_move_restores_the_gamestring():
    for game in random_positions("Base+MLP", seed=3, max_plies=60):
        if game.is_terminal:
            break
        text = game.gamestring
        for move in game.legal_move_names():
            game.play(move)
            game.undo()
            assert game.gamestring == text


def test_workspace_counters_restart_before_overflow_without_changing_the_moves():
    from hive_envs.hive.engine.workspace import _STAMP_LIMIT, W_CLOCK, W_STAMP, W_VSTAMP

    for game in random_positions("Base+MLP", seed=9, max_plies=50):
        pass
    s = game.state.copy()
    fresh = new_workspace()
    out = np.empty(MAX_MOVES, dtype=np.int32)
    expected = sorted(out[: generate_moves(s, fresh, out)])
    for counter in (W_STAMP, W_VSTAMP, W_CLOCK):
        w = new_workspace()
        w[counter] = _STAMP_LIMIT + 1
        assert sorted(out[: generate_moves(s, w, out)]) == expected
        assert w[counter] < 1000


def test_pickled_and_deep_copied_games_keep_working():
    import copy
    import pickle

    game = HiveGame("Base+MLP")
    for move in ["wS1", "bP wS1-", "wQ -wS1"]:
        game.play(move)
    game.legal_move_ids()
    for clone in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert clone.gamestring == game.gamestring
        ids = clone.legal_move_ids()
        assert sorted(ids) == sorted(game.legal_move_ids())
        for _ in range(4):  # legality checks must follow the clone's own move generation
            clone.play_id(int(clone.legal_move_ids()[-1]))
        assert clone.ply == game.ply + 4
