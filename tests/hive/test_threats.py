"""Hive's threat search (`hive_envs.hive.engine.threats`, `HiveAlphaBeta.forced_win`): every win it
reports is a forced win by the full-width alpha-beta search of the same depth, it finds every win in one
move, its proofs hold one move on, it finds a nine-ply surround from a lost match game that the 3-ply
search does not see, and it refuses bad arguments and leaves the game as it found it."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

from hive_envs.hive import HiveGame
from hive_envs.hive.engine.alphabeta import HiveAlphaBeta, game_position_keys
from hive_envs.hive.engine.threats import MAX_ATTACKS, forced_surround_kernel
from hive_envs.hoyito import HoyitoAlphaBeta, HoyitoGame
from tests.hive.lost_games import deep_loss


def tactical_positions(games: int, plies: int = 90):
    """Positions of seeded games between two 1-ply alpha-beta searchers, one move in four random:
    Queens come under attack and many positions hold a short forced surround."""
    for seed in range(games):
        rng = random.Random(seed)
        searcher = HiveAlphaBeta(depth=1, seed=seed, table_bits=10)
        game = HiveGame("Base")
        while not game.is_terminal and game.ply < plies:
            if game.ply >= 10:
                yield game
            if rng.random() < 0.25:
                moves = game.legal_move_ids()
                game.play_id(int(moves[rng.randrange(len(moves))]))
            else:
                game.play_id(searcher.choose(game))


def test_every_win_found_is_proven_by_the_full_width_search():
    searcher = HiveAlphaBeta(depth=3)
    found = {1: 0, 2: 0, 3: 0}
    for game in tactical_positions(12):
        mover = game.to_move
        for attacks in found:
            move = searcher.forced_win(game, attacks)
            if move is None:
                continue
            found[attacks] += 1
            after = game.copy()
            after.play_id(move)
            if attacks == 1:
                assert after.is_terminal and after.result == (1.0 if mover == 0 else -1.0), game.gamestring
            elif not after.is_terminal:
                proof = HiveAlphaBeta(depth=2 * attacks - 2).search(after)
                assert proof.is_proven_loss, (attacks, game.gamestring, game.move_name(move))
    assert found[1] >= 5 and found[3] > found[1], found  # the test sees wins of each length


def test_every_win_in_one_move_is_found():
    searcher = HiveAlphaBeta(depth=1)
    wins = 0
    for game in tactical_positions(12):
        mover_wins = 1.0 if game.to_move == 0 else -1.0
        winning = []
        for move in game.legal_move_ids():
            after = game.copy()
            after.play_id(int(move))
            if after.result == mover_wins:
                winning.append(int(move))
        found = searcher.forced_win(game, 1)
        assert (found is not None) == bool(winning), game.gamestring
        assert found is None or found in winning
        wins += bool(winning)
    assert wins >= 5


def test_a_proof_holds_one_move_on():
    """After the first move of a win in five, every reply leaves a win in four (or ends the game)."""
    _, after = deep_loss()
    searcher = HiveAlphaBeta(depth=1)
    assert searcher.forced_win(after, 4) is None
    move = searcher.forced_win(after, 5)
    assert move is not None
    attacked = after.copy()
    attacked.play_id(move)
    for reply in attacked.legal_move_ids():
        line = attacked.copy()
        line.play_id(int(reply))
        assert (line.is_terminal and line.result == 1.0) or searcher.forced_win(line, 4) is not None, (
            attacked.move_name(int(reply))
        )


def test_it_sees_a_loss_the_three_ply_search_does_not():
    game, after = deep_loss()
    assert not HiveAlphaBeta(depth=3).search(after).is_proven_win
    searcher = HiveAlphaBeta(depth=1)
    assert searcher.forced_win(after, 5) is not None
    flagged = 0
    for move in game.legal_move_ids():
        child = game.copy()
        child.play_id(int(move))
        flagged += searcher.forced_win(child, 5) is not None
    assert flagged == 3


def test_the_kernel_reports_the_shortest_win_and_its_nodes():
    _, after = deep_loss()
    seen = np.sort(game_position_keys(after.start_state, np.asarray(after.move_ids, dtype=np.int32)))
    stats = np.zeros(3, dtype=np.int64)
    state = after.state.copy()
    move = forced_surround_kernel(state, HiveAlphaBeta(depth=1)._w, MAX_ATTACKS, 2, 0.0, seen, stats)
    assert move >= 0 and stats[2] == 5 and stats[1] == 0 and stats[0] > 0
    np.testing.assert_array_equal(state, after.state)  # the search's state is restored


def test_the_game_is_left_unchanged_and_the_time_limit_holds():
    _, after = deep_loss()
    searcher = HiveAlphaBeta(depth=1)
    record = after.record()
    started = time.perf_counter()
    searcher.forced_win(after, MAX_ATTACKS, time_s=0.05)
    assert time.perf_counter() - started < 2.0  # a generous bound: the limit is read every 64 nodes
    assert after.record() == record
    np.testing.assert_array_equal(after.state, HiveGame.from_gamestring(after.gamestring).state)


def test_a_finished_game_has_no_win_to_find():
    game, _ = deep_loss()
    searcher = HiveAlphaBeta(depth=1)
    line = game.copy()
    while not line.is_terminal:
        move = searcher.forced_win(line, 3)
        line.play_id(move if move is not None else searcher.choose(line))
    assert searcher.forced_win(line, 3) is None


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"attacks": 0}, "attacks"),
        ({"attacks": MAX_ATTACKS + 1}, "attacks"),
        ({"attacks": True}, "attacks"),
        ({"attacks": 2.0}, "attacks"),
        ({"attacks": 2, "approach_liberties": -1}, "approach_liberties"),
        ({"attacks": 2, "approach_liberties": 6}, "approach_liberties"),
        ({"attacks": 2, "time_s": 0}, "time_s"),
        ({"attacks": 2, "time_s": float("nan")}, "time_s"),
    ],
)
def test_bad_arguments_are_refused(kwargs, match):
    _, after = deep_loss()
    with pytest.raises(ValueError, match=match):
        HiveAlphaBeta(depth=1).forced_win(after, **kwargs)


def test_other_games_have_no_threat_search():
    with pytest.raises(ValueError, match="HiveGame"):
        HiveAlphaBeta(depth=1).forced_win(HoyitoGame(), 2)
    assert HoyitoAlphaBeta(depth=1).forced_win(HoyitoGame(), 2) is None
