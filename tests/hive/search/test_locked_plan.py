"""The plan against a locked opponent (`hive_envs.hive.search.locked_plan`): the surround it finds
where depth 2 shuffled, the lock it breaks where no plan exists, and the searcher built on both."""

import numpy as np
import pytest

from hive_envs.core.alphabeta import WIN_SCORE
from hive_envs.hive import PASS_MOVE, HiveAlphaBeta, HiveGame
from hive_envs.hive.engine import MAX_MOVES, new_workspace
from hive_envs.hive.engine.repetition import game_position_keys, position_key
from hive_envs.hive.search import alphabeta
from hive_envs.hive.search.locked_plan import lock_keeping_keys, locked_plan_kernel, opponent_locked
from hive_envs.players.builtin import RandomPlayer

# Games of `alphabeta:2` (White) against random play that ended in the turn-cap draw (games 160 and
# 322 of `python training/arena.py alphabeta:2 random --games 400` at commit 36edbb5), as far as
# the tests need them. In game 160 Black is locked from ply 136 on; in game 322 from ply 56.
GAME_160_MOVES = (
    "wA1;bB1 /wA1;wS1 wA1/;bG1 -bB1;wG1 \\wS1;bG2 bB1\\;wQ wS1-;bQ bG2\\;wA2 /wG1;bA1 bQ/;wA2 bA1-;"
    "bB2 /bB1;wG1 /wQ;bS1 bQ\\;wA3 -wS1;bG3 /bG2;wA3 /bS1;bG2 wA3-;wA3 /bQ;bS2 -bG1;wB1 -wS1;"
    "bA2 bG2/;wG1 \\wS1;bA3 \\bG1;wB1 wS1;bA2 /wQ;wB1 bA2;bA3 /bS2;wA3 /bA3;bG2 -bA1;wQ wB1-;"
    "bG2 /bG3;wB2 /wG1;bS1 /bG2;wA3 bA3\\;bS1 /bA3;wA3 /bS1;bG2 -bA1;wA3 bQ\\;bB2 -bG3;wG2 -wG1;"
    "bB2 bG3;wG3 \\wG1;bB2 -bG3;wS2 -wG3;bB2 /bB1;wS2 wG1/;bB2 bG3;wG2 wS1/;bS1 \\bS2;wB2 wS1;"
    "bA3 wA3-;wG3 wG2/;bA3 bS1/;wG1 \\wG3;bA3 wG3/;wG1 bA3-;bB2 -bG3;wB2 /wS2;bB2 /bB1;wG2 /bB2;"
    "bG2 -wA1;wA3 /bQ;bG2 wQ-;wA3 -bS1;bG2 -wA1;wA3 bQ\\;bB1 wA1;wB1 bB1;bS1 /bG1;wG2 \\bS2;bS1 /bQ;"
    "wA3 /bS1;pass;wA3 bS1\\;pass;wG2 /bG1;bS2 /bB2;wG2 /wB2;bS2 -bG2;wG2 -bA3;bS2 /bB2;wA3 bS1-;"
    "bS1 -bS2;wA3 \\bS1;pass;wA3 -bS1;pass;wA3 /bS1;pass;wG2 /wB2;pass;wA3 \\bS1;pass;wA3 -bS1;pass;"
    "wA3 bQ\\;bS1 /bQ;wA3 /bS1;bS2 /wA3;wG2 -bA3;bS2 bS1-;wA3 bS2-;bS1 /bG1;wA3 /bS2;bS1 \\bG2;"
    "wA3 bS2\\;bS1 /bG1;wA3 bS2-;bS1 /bQ;wG2 /wB2;bS1 /bG1;wG2 /bS1;pass;wA3 /bS2;pass;wA3 bS2\\;"
    "pass;wG2 /wB2;bS1 -wG2;wG2 -bS1;pass;wA3 bS2-;pass;wA3 /bS2;pass;wG2 /wB2;bS1 \\wS2;wG2 -bA3;"
    "bS1 /wB2;wS1 wQ-;pass;wS1 wA2\\;pass;wS1 wA3-;pass;wA3 /bQ;pass;wQ bA2/;pass;wG2 /bG1;pass;"
    "wA3 /bG3;pass;wG2 -bA1;pass;wQ bA2-;pass;wG2 /bG1;pass;wA3 -wG2;pass;wA3 wG1\\;pass;wA3 \\wS2;"
    "pass;wA3 -bA3;pass;wA3 wG1/;pass;wA3 wA2\\;pass;wA3 -bG1;pass;wA3 -bG2;pass;wA3 -bS1;pass;"
    "wA3 wG1-;pass;wA3 wA2-;pass;wA3 /wS1;pass;wA3 /bS2;pass;wA3 wS1/;pass;wS1 /bG3;pass;wG2 -bA1;"
    "pass;wQ bA2/;pass;wA3 /bS2;pass;wQ bA2-;pass;wA3 bS2\\;pass;wQ bA2/;pass;wG2 /bG1;pass;"
    "wG2 -bA3;pass;wQ bA2-;pass;wA3 bS2-;pass"
)

GAME_322_MOVES = (
    "wS1;bA1 wS1/;wG1 -wS1;bS1 \\bA1;wG2 /wS1;bB1 bS1/;wQ /wG1;bQ bB1/;wA1 wG2-;bA2 bA1/;wA1 bQ-;"
    "bA2 /wQ;wA2 wG2-;bG1 -bA2;wA2 -bQ;bA3 /bG1;wA2 bA3\\;bS2 -bA3;wA2 \\bS2;bG2 -bQ;wA3 wG2-;"
    "bB2 \\bG1;wA3 \\bB2;bG2 bA1/;wA2 -bQ;bG2 -bS1;wA3 bB2/;bG3 bA2\\;wA2 bG3-;bS2 /bA2;wB1 wA3/;"
    "bA3 \\wA1;wA1 \\bA3;bS2 -bB2;wB2 wG2-;bG2 bA1/;wA2 bG3\\;bG2 -bS1;wG3 /wB2;bS2 \\wB1;wS2 wG3-;"
    "bS2 -bB2;wA1 bA3-;bS2 \\wB1;wA2 /bG3;bS2 -bB2;wA1 \\bA3;bS2 /bA2;wA2 bQ-;bG2 bA1/;wS2 bG3\\;"
    "bS1 wB1/;wG1 /bS2;bS1 -wS1;wG2 wB2-;pass;wB1 wA3;pass;wB1 bB2;pass;wA3 -bQ;pass;wG3 \\wG2;pass;"
    "wB2 wS1;pass;wB2 bS1;pass;wA1 bA3/;pass;wA3 -bA3;pass;wA3 -wA1;pass;wA1 -bQ;pass;wA3 bA3/;"
    "pass;wA1 -bA3;pass;wB1 -bB2;pass;wB1 \\bB2;pass;wB1 bB2/;pass;wA1 -bQ;pass;wB1 \\bB2;pass;"
    "wB1 -bB2;pass;wA3 \\bA3;pass;wB1 \\bB2;pass;wB1 bB2/;pass;wA2 bA3/;pass;wA3 bQ-;pass;wB1 bB2;"
    "pass;wA2 \\bA3;pass;wA1 bA3/;pass;wA2 -bQ;pass;wA1 \\bA3;pass;wA2 bA3/;pass;wA1 -bA3;pass;"
    "wB1 -bB2;pass;wB1 \\bB2;pass;wB1 bB2/;pass;wA1 -wA2;pass;wA2 -bQ;pass;wB1 \\bB2;pass;wB1 -bB2;"
    "pass;wA1 bA3/;pass;wA2 -bA3;pass;wB1 bB2;pass;wB1 \\bB2;pass;wA2 -bQ;pass;wB1 bB2/;pass;"
    "wA2 -bA3;pass;wA2 -wA1;pass;wA1 -bQ;pass;wB1 \\bB2;pass;wA2 bA3/;pass;wB1 -bB2;pass;wA2 \\bA3;"
    "pass;wB2 wQ;pass;wB2 bA2;pass;wB1 bB2;pass;wA2 bA3/;pass;wA1 -bA3;pass;wB2 wQ;pass;wA1 -bQ;"
    "pass;wA2 \\bA3;pass;wB1 \\bB2;pass;wB2 bA2;pass;wA2 bA3/;pass;wB1 -bB2;pass;wA1 -bA3;pass;"
    "wB1 \\bB2;pass;wB1 bB2/;pass;wA1 -bQ;pass;wA2 \\bA3;pass;wB2 wQ;pass;wA2 bA3/;pass;wB1 \\bB2;"
    "pass;wB1 -bB2;pass;wA1 -bA3;pass;wB1 \\bB2;pass;wB1 bB2/;pass;wB2 bG3/;pass;wB2 bG3;pass;"
    "wB2 bS2;pass;wG1 -bA1;pass;wG1 /wG3;pass"
)


def replay(moves: str, plies: int) -> HiveGame:
    game = HiveGame("Base")
    for move in moves.split(";")[:plies]:
        game.play(move)
    assert game.ply == plies and not game.is_terminal
    return game


def plan_search(game: HiveGame, max_moves: int, node_budget: int = 10**8):
    """`locked_plan_kernel` on ``game``: (length, plan line, stats); checks the state is restored."""
    s = game.state.copy()
    seen = np.sort(game_position_keys(game.start_state, np.asarray(game.move_ids, dtype=np.int32)))
    plan = np.zeros(2 * max_moves - 1, dtype=np.int32)
    stats = np.zeros(2, dtype=np.int64)
    length = locked_plan_kernel(s, new_workspace(), max_moves, node_budget, seen, plan, stats)
    assert np.array_equal(s, game.state)
    return length, [int(m) for m in plan[: max(2 * length - 1, 0)]], [int(v) for v in stats]


def locked(game: HiveGame) -> bool:
    return opponent_locked(game.state.copy(), new_workspace(), np.empty(MAX_MOVES, dtype=np.int32))


def test_finds_the_five_move_surround_that_depth_2_missed():
    game = replay(GAME_322_MOVES, 214)
    assert locked(game)
    length, line, stats = plan_search(game, 6)
    assert length == 5 and stats[1] == 0
    # The line wins: every reply on it is Black's only move, the last own move surrounds its Queen.
    played = game.copy()
    for k, move in enumerate(line):
        if k % 2 == 1:
            assert list(played.legal_move_ids()) == [move]
        played.play_id(move)
    assert played.outcome == "WhiteWins"
    # The shortest: no plan of four own moves (every line searched, the budget not used up).
    assert plan_search(game, 4)[0] == 0 and plan_search(game, 4)[2][1] == 0
    # The searcher plays it: a proven win in 9 plies (depth 2 with the extension scored +284).
    result = HiveAlphaBeta(depth=2).search(game)
    assert result.move_id == line[0]
    assert result.score == WIN_SCORE - 9 and result.depth_reached == 9
    assert list(result.pv) == line[: len(result.pv)]


def test_follows_the_plan_to_the_win():
    game = replay(GAME_322_MOVES, 214)
    searcher = HiveAlphaBeta(depth=2)
    for _ in range(5):
        game.play_id(searcher.choose(game))
        if game.is_terminal:
            break
        assert list(game.legal_move_ids()) == [PASS_MOVE]
        game.play_id(PASS_MOVE)
    assert game.outcome == "WhiteWins" and game.ply == 214 + 9


@pytest.mark.parametrize("plies", [150, 200])
def test_without_a_plan_the_lock_is_broken(plies):
    """Game 160: the Queen's last liberties are gated or filled only by pieces that hold the lock:
    no plan of up to six own moves (every line searched). Keeping the lock then only leads to the
    turn-cap draw, so the searcher plays a move that gives Black a move."""
    game = replay(GAME_160_MOVES, plies)
    assert locked(game)
    length, _, stats = plan_search(game, 6)
    assert length == 0 and stats[1] == 0
    move = HiveAlphaBeta(depth=2).search(game).move_id
    game.play_id(move)
    assert list(game.legal_move_ids()) != [PASS_MOVE]


def test_from_the_drawn_game_depth_2_now_wins_against_random_play():
    """From ply 150 of game 160, where depth 2 used to shuffle until the turn-cap draw (0 of 4 random
    seeds won before the plan). Which seeds' games run into the turn cap with 150 plies left moves with
    any change of the search (seed 3 before the quiescence search, seed 1 with it; seeds 1 and 3 with
    the guessed mobility, which wins 8 of seeds 0-11 where the listed moves win 9), so the test asks
    for four wins in six."""
    won = 0
    for seed in range(6):
        game = replay(GAME_160_MOVES, 150)
        searcher, opponent = HiveAlphaBeta(depth=2), RandomPlayer(seed)
        while not game.is_terminal:
            game.play_id((searcher if game.to_move == 0 else opponent).choose(game))
        won += game.outcome == "WhiteWins"
    assert won >= 4


def test_lock_keeping_keys_are_the_moves_that_leave_only_a_pass():
    for game in (replay(GAME_160_MOVES, 200), replay(GAME_322_MOVES, 214)):
        s = game.state.copy()
        keys = lock_keeping_keys(s, new_workspace())
        assert np.array_equal(s, game.state)
        expected = set()
        for move in game.legal_move_ids():
            child = game.copy()
            child.play_id(int(move))
            if not child.is_terminal and list(child.legal_move_ids()) == [PASS_MOVE]:
                expected.add(int(position_key(child.state.copy())))
        assert expected and {int(k) for k in keys} == expected


def test_the_plan_search_is_deterministic_and_bounded():
    game = replay(GAME_322_MOVES, 214)
    assert plan_search(game, 6) == plan_search(game, 6)
    # Out of nodes: no plan, and the budget says so.
    length, _, stats = plan_search(game, 6, node_budget=1000)
    assert length == 0 and stats[1] == 1 and stats[0] == 1001


def test_a_finished_game_has_no_plan():
    game = replay(GAME_322_MOVES, 214)
    searcher = HiveAlphaBeta(depth=2)
    while not game.is_terminal:
        game.play_id(searcher.choose(game))
    assert plan_search(game, 6)[0] == 0


def test_out_of_plan_nodes_the_searcher_extends_by_one_own_move(monkeypatch):
    """When the plan search runs out of nodes nothing is known: the searcher keeps the locked
    opponent's extension (one more own move) and does not score the lock as a draw."""
    game = replay(GAME_160_MOVES, 200)
    monkeypatch.setattr(alphabeta, "DEFAULT_PLAN_NODES", 10)
    assert HiveAlphaBeta(depth=2).search(game).depth_reached == 3


def test_past_its_nodes_the_extension_gives_way_to_the_depth_asked_for(monkeypatch):
    """The extension is bounded (`EXTENSION_NODES`): past it the searcher answers as if it had never
    extended, the plain search at the depth asked for (alphabeta:3 once spent 73 s on one move)."""
    game = replay(GAME_160_MOVES, 200)
    monkeypatch.setattr(alphabeta, "DEFAULT_PLAN_NODES", 10)
    monkeypatch.setattr(alphabeta, "EXTENSION_NODES", 50)
    bounded = HiveAlphaBeta(depth=2).search(game)
    monkeypatch.setattr(alphabeta, "opponent_locked", lambda *args: False)
    plain = HiveAlphaBeta(depth=2).search(game)
    assert bounded.depth_reached == plain.depth_reached == 2
    assert (bounded.move_id, bounded.score, bounded.pv) == (plain.move_id, plain.score, plain.pv)
    assert bounded.nodes > plain.nodes + 50  # the extension's nodes count too
