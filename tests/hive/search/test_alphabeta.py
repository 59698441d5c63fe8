"""The Hive alpha-beta player: forced wins, defence, draws, legality, time, determinism, bad input,
and a differential check of the compiled search against a plain Python minimax."""

import itertools
import math
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from hive_envs.core.alphabeta import WIN_SCORE, new_table, search_plies
from hive_envs.hive import GAME_TYPES, PASS_MOVE, HiveGame
from hive_envs.hive.engine import (
    MAX_MOVES,
    UNDO_SIZE,
    apply_move,
    generate_moves,
    new_workspace,
    undo_move,
)
from hive_envs.hive.engine.grid import NEIGHBOURS, NUM_CELLS
from hive_envs.hive.engine.moves import NUM_MOVE_IDS, move_cell, move_piece
from hive_envs.hive.engine.pieces import NUM_PIECE_SLOTS
from hive_envs.hive.engine.repetition import position_key
from hive_envs.hive.engine.rules import queen_neighbours
from hive_envs.hive.engine.state import (
    HEIGHT,
    I_STATUS,
    I_TO_MOVE,
    PCELL,
    STATUS_DRAW,
    STATUS_IN_PROGRESS,
    STATUS_WHITE_WINS,
)
from hive_envs.hive.search import alphabeta
from hive_envs.hive.search.alphabeta import DEFAULT_DEPTH, MAX_DEPTH, HiveAlphaBeta
from hive_envs.hive.search.evaluation import (
    EVAL_BUFFER_SIZE,
    NUM_TERMS,
    RULE_WEIGHTS,
    SEARCH_WEIGHTS,
    evaluate,
    quick_evaluate,
)
from hive_envs.hive.search.learned import hand_evaluation
from hive_envs.hive.search.locked_plan import opponent_locked
from hive_envs.hive.search.negamax import (
    ALL_FEATURES,
    EVAL_CACHE,
    GUESSED_MOBILITY,
    MAX_QUIESCENCE_PLIES,
    NO_ROOT_SCORES,
    PVS,
    QUIESCENCE,
    SearchLimits,
    SearchOutput,
    SearchSettings,
    SearchTables,
    alphabeta_kernel,
)
from hive_envs.hive.search.ordering import mark_queen_rings, marked_order, static_order
from tests.search_tree import tree

# Black's Queen (2,0) has five neighbours; wB1 at (0,1) fills the sixth (1,1) with 'wB1 /bQ', the
# only winning move of 108.
WIN_IN_1 = (
    "Base;InProgress;White[11];wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wA1 \\wG1;bA1 bQ-;wA1 bQ/;bS1 bA1\\;"
    "wA2 -wQ;bS2 bS1\\;wA2 bQ\\;bB1 bS2\\;wA3 /wQ;bB2 bB1\\;wA3 \\bQ;bB2 bB1-;wB1 /wG1;bB2 bB1\\;"
    "wB1 wG1\\;bB2 bB1-"
)
# The same position one move earlier, Black to move: White threatens 'wB1 /bQ'; only moves of bA1
# (which opens a second liberty) avoid losing at once (24 of 45 moves).
DEFEND = WIN_IN_1.rsplit(";", 1)[0].replace("White[11]", "Black[10]")
# Found in a seeded game of the depth-2 player against random play, then checked here by brute
# force: White has no win in one, but after 'wA3 /bA1' every Black reply allows a win.
WIN_IN_2 = (
    "Base;InProgress;White[13];wS1;bS1 wS1\\;wQ -wS1;bA1 bS1\\;wA1 wS1/;bQ /bS1;wA1 bA1-;bS2 /bQ;"
    "wQ \\wS1;bB1 bS2\\;wB1 /wQ;bG1 bB1-;wB1 wS1;bB2 /bB1;wB2 /wQ;bG1 /bS2;wQ wB1/;bB2 /bG1;"
    "wA2 -wQ;bB1 bB2-;wA2 -bQ;bA2 bB1/;wA3 wA1/;bB1 bA2"
)


# Black can only pass (every piece pinned or boxed in): ply 60 of a game against random play that
# depth 2 drew at the turn cap before the locked-opponent extension.
LOCKED = (
    "Base;InProgress;White[31];wS1;bA1 wS1/;wG1 -wS1;bS1 \\bA1;wG2 /wS1;bB1 bS1/;wQ /wG1;"
    "bQ bB1/;wA1 wG2-;bA2 bA1/;wA1 bQ-;bA2 /wQ;wA2 wG2-;bG1 -bA2;wA2 -bQ;bA3 /bG1;wA2 bA3\\;"
    "bS2 -bA3;wA2 \\bS2;bG2 -bQ;wA3 wG2-;bB2 \\bG1;wA3 \\bB2;bG2 bA1/;wA2 -bQ;bG2 -bS1;"
    "wA3 bB2/;bG3 bA2\\;wA2 bG3-;bS2 /bA2;wB1 wA3/;bA3 \\wA1;wA1 \\bA3;bS2 -bB2;wB2 wG2-;"
    "bG2 bA1/;wA2 bG3\\;bG2 -bS1;wG3 /wB2;bS2 \\wB1;wS2 wG3-;bS2 -bB2;wA1 bA3-;bS2 \\wB1;"
    "wA2 /bG3;bS2 -bB2;wA1 \\bA3;bS2 /bA2;wA2 bQ-;bG2 bA1/;wS2 bG3\\;bS1 wB1/;wG1 /bS2;"
    "bS1 -wS1;wG2 wB2-;pass;wB1 wA3;pass;wB1 bB2;pass"
)


def winning_moves(game: HiveGame) -> list[int]:
    me = ("WhiteWins", "BlackWins")[game.to_move]
    found = []
    for move in game.legal_move_ids():
        child = game.copy()
        child.play_id(int(move))
        if child.outcome == me:
            found.append(int(move))
    return found


def forces_win_in_2(game: HiveGame, move: int) -> bool:
    """After ``move``, does every reply leave the mover a winning move?"""
    child = game.copy()
    child.play_id(move)
    if child.is_terminal:
        return False
    for reply in child.legal_move_ids():
        grandchild = child.copy()
        grandchild.play_id(int(reply))
        if grandchild.is_terminal or not winning_moves(grandchild):
            return False
    return True


def random_game(game_type: str, seed: int, plies: int) -> HiveGame:
    rng = random.Random(seed)
    game = HiveGame(game_type)
    for _ in range(plies):
        if game.is_terminal:
            break
        ids = game.legal_move_ids()
        game.play_id(int(ids[rng.randrange(len(ids))]))
    return game


def unfinished_positions(game_types, seeds, plies=(4, 12, 24, 40)):
    for game_type in game_types:
        for seed in seeds:
            for n in plies:
                game = random_game(game_type, seed * 101 + n, n)
                if not game.is_terminal:
                    yield game


# -- forced wins, defence, draws ------------------------------------------------------------------
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_takes_the_win_in_one(depth):
    game = HiveGame.from_gamestring(WIN_IN_1)
    assert game.queen_neighbours(1) == 5 and len(winning_moves(game)) == 1
    result = HiveAlphaBeta(depth=depth).search(game)
    assert result.move_id == winning_moves(game)[0]
    assert result.score == WIN_SCORE - 1 and result.is_proven_win
    assert game.move_name(result.move_id) == "wB1 /bQ"


def test_finds_the_forced_win_in_two():
    game = HiveGame.from_gamestring(WIN_IN_2)
    assert not winning_moves(game)
    result = HiveAlphaBeta(depth=3).search(game)
    assert forces_win_in_2(game, result.move_id)
    assert result.score == WIN_SCORE - 3
    assert len(result.pv) == 3 and result.pv[0] == result.move_id
    # Deeper searches stop at the proven win (here already at depth 1: the threat extension plays
    # the win out) and take the shortest one.
    deeper = HiveAlphaBeta(depth=5).search(game)
    assert deeper.score == WIN_SCORE - 3 and deeper.depth_reached <= 3


def test_a_time_limited_search_finds_the_win_in_two():
    game = HiveGame.from_gamestring(WIN_IN_2)
    result = HiveAlphaBeta(time_s=5.0).search(game)
    assert result.score == WIN_SCORE - 3 and forces_win_in_2(game, result.move_id)


@pytest.mark.parametrize("depth", [2, 3])
def test_avoids_the_immediate_loss(depth):
    game = HiveGame.from_gamestring(DEFEND)
    result = HiveAlphaBeta(depth=depth).search(game)
    child = game.copy()
    child.play_id(result.move_id)
    assert not winning_moves(child)
    assert game.move_name(result.move_id).startswith("bA1 ")


def test_sees_the_loss_when_every_move_loses():
    game = HiveGame.from_gamestring(WIN_IN_2)
    game.play("wA3 /bA1")  # now every Black move allows a White win
    result = HiveAlphaBeta(depth=2).search(game)
    assert result.score == -(WIN_SCORE - 2) and result.is_proven_loss
    assert game.is_legal_id(result.move_id)


def test_the_turn_cap_draw_scores_zero():
    base = random_game("Base", 3, 30)
    assert not base.is_terminal
    game = HiveGame.from_gamestring(base.gamestring, max_turns=base.ply + 1)
    result = HiveAlphaBeta(depth=3).search(game)
    assert result.score == 0  # every move ends the game in a draw
    game.play_id(result.move_id)
    assert game.outcome == "Draw"


def test_positions_seen_before_in_the_game_score_as_draws():
    """With every child position marked as seen, each non-winning move scores 0 at depth 1."""
    for game in unfinished_positions(["Base", "Base+MLP"], seeds=[0], plies=(12, 30)):
        seen = []
        for move in game.legal_move_ids():
            child = game.copy()
            child.play_id(int(move))
            seen.append(position_key(child.state.copy()))
        pv = np.zeros(search_plies(1), dtype=np.int32)
        stats = np.zeros(4, dtype=np.int64)
        alphabeta_kernel(
            game.state.copy(),
            new_workspace(),
            SearchLimits(1, 0.0, 0),
            SearchSettings(0, ALL_FEATURES, True, 0),
            SearchTables(new_table(12), new_evals()),
            hand_evaluation(SEARCH_WEIGHTS),
            np.sort(np.array(seen, dtype=np.uint64)),
            SearchOutput(pv, stats, NO_ROOT_SCORES),
        )
        assert stats[0] == (WIN_SCORE - 1 if winning_moves(game) else 0)


def test_a_locked_opponent_gets_one_more_own_move(monkeypatch):
    """When the plan search (tests/hive/search/test_locked_plan.py) runs out of nodes; here it has none.
    With its nodes it proves that LOCKED has no plan and breaks the lock at the depth asked for."""
    game = HiveGame.from_gamestring(LOCKED)
    fortress = HiveAlphaBeta(depth=2).search(game)
    assert fortress.depth_reached == 2
    monkeypatch.setattr(alphabeta, "DEFAULT_PLAN_NODES", 0)
    s = game.state.copy()
    assert opponent_locked(s, new_workspace(), np.empty(MAX_MOVES, dtype=np.int32))
    assert np.array_equal(s, game.state)
    assert HiveAlphaBeta(depth=2).search(game).depth_reached == 3
    assert HiveAlphaBeta(depth=1).search(game).depth_reached == 2
    # An opponent with moves: the depth asked for.
    free = HiveGame.from_gamestring(DEFEND)
    assert not opponent_locked(free.state.copy(), new_workspace(), np.empty(MAX_MOVES, dtype=np.int32))
    assert HiveAlphaBeta(depth=2).search(free).depth_reached == 2


def test_a_forced_pass_is_returned_as_the_pass_move():
    for seed in range(200):
        rng = random.Random(seed)
        game = HiveGame("Base")
        while not game.is_terminal and game.ply < 120:
            ids = game.legal_move_ids()
            if list(ids) == [PASS_MOVE]:
                result = HiveAlphaBeta(depth=2).search(game)
                assert result.move_id == PASS_MOVE
                # An only move is answered at once, whatever the time allowed.
                timed = HiveAlphaBeta(time_s=5.0).search(game)
                assert timed.move_id == PASS_MOVE and timed.elapsed_s < 0.5
                return
            game.play_id(int(ids[rng.randrange(len(ids))]))
    pytest.fail("no forced pass in 200 random games")


# -- legality, game untouched, determinism, time -------------------------------------------------
@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_never_returns_an_illegal_move(game_type):
    for game in unfinished_positions([game_type], seeds=range(3)):
        before = game.state.copy()
        moves_before = game.move_ids
        legal = {int(m) for m in game.legal_move_ids()}
        for player in (HiveAlphaBeta(depth=1), HiveAlphaBeta(depth=2), HiveAlphaBeta(time_s=0.005)):
            result = player.search(game)
            assert result.move_id in legal
            assert np.array_equal(game.state, before) and game.move_ids == moves_before


def test_depth_three_legal_on_expansion_positions():
    for game in unfinished_positions(["Base+MLP", "Base+P"], seeds=range(2), plies=(16, 36)):
        result = HiveAlphaBeta(depth=3).search(game)
        assert game.is_legal_id(result.move_id) and result.depth_reached == 3


def test_the_game_is_left_unchanged_and_keeps_playing():
    game = random_game("Base+MLP", 5, 25)
    snapshot = (game.state.copy(), game.gamestring, list(game.legal_move_ids()))
    HiveAlphaBeta(depth=3).search(game)
    assert np.array_equal(game.state, snapshot[0])
    assert game.gamestring == snapshot[1]
    assert list(game.legal_move_ids()) == snapshot[2]
    game.play_id(int(snapshot[2][0]))  # the game's move cache still works
    game.undo()


def test_deterministic_for_a_fixed_seed():
    positions = list(unfinished_positions(["Base", "Base+MLP"], seeds=[7], plies=(10, 30)))
    for game in positions:
        a = HiveAlphaBeta(depth=3, seed=4).search(game)
        b = HiveAlphaBeta(depth=3, seed=4).search(game)
        again = HiveAlphaBeta(depth=3, seed=4)
        again.search(random_game("Base", 1, 10))  # a depth-limited search keeps no table: nothing changes
        c = again.search(game)
        assert tree(a) == tree(b) == tree(c)


def test_the_seed_breaks_ties():
    game = HiveGame("Base")  # 4 opening placements, all equal for the evaluation
    chosen = {HiveAlphaBeta(depth=1, seed=seed).choose(game) for seed in range(20)}
    assert len(chosen) > 1


@pytest.mark.parametrize("time_s", [0.05, 0.2])
def test_respects_the_time_limit(time_s):
    HiveAlphaBeta(depth=1).search(HiveGame("Base+MLP"))  # compile outside the clock
    worst = 0.0
    for game in unfinished_positions(["Base+MLP"], seeds=range(2), plies=(20, 40)):
        started = time.process_time()
        result = HiveAlphaBeta(time_s=time_s).search(game)
        worst = max(worst, time.process_time() - started)
        assert game.is_legal_id(result.move_id)
        assert result.depth_reached >= 1
    # The clock (wall time) is read every 1024 nodes, a few ms of search. Measured in CPU time, so that
    # a loaded machine, which stretches the wall time between two reads, does not fail the test; a
    # search that ignored its clock would run on to its maximum depth, seconds of CPU.
    assert worst < time_s + 0.15


def test_running_out_of_time_before_depth_one_still_gives_a_legal_move():
    game = random_game("Base+MLP", 2, 30)
    result = HiveAlphaBeta(time_s=1e-9).search(game)
    assert game.is_legal_id(result.move_id)


# -- bad input -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"depth": 0}, "depth"),
        ({"depth": MAX_DEPTH + 1}, "depth"),
        ({"depth": 2.0}, "depth"),
        ({"depth": True}, "depth"),
        ({"depth": "3"}, "depth"),
        ({"time_s": -1.0}, "time_s"),
        ({"time_s": 0}, "time_s"),
        ({"time_s": math.nan}, "time_s"),
        ({"time_s": math.inf}, "time_s"),
        ({"time_s": "1"}, "time_s"),
        ({"seed": -1}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"table_bits": 40}, "table_bits"),
        ({"features": True}, "features"),
        ({"features": -1}, "features"),
        ({"features": 2}, "features"),  # no feature has that bit
        ({"features": ALL_FEATURES | 32}, "features"),  # a bit past the last feature
        ({"features": "1"}, "features"),
    ],
)
def test_bad_limits_raise_value_error_naming_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        HiveAlphaBeta(**kwargs)


def test_defaults_and_search_overrides():
    player = HiveAlphaBeta()
    assert (player.depth, player.time_s) == (DEFAULT_DEPTH, None)
    assert HiveAlphaBeta(time_s=0.5).depth == MAX_DEPTH
    game = random_game("Base", 4, 12)
    assert player.search(game, depth=1).depth_reached == 1
    with pytest.raises(ValueError, match="depth"):
        player.search(game, depth=0)


def test_a_finished_game_or_a_wrong_object_is_refused():
    game = HiveGame.from_gamestring(WIN_IN_1)
    game.play("wB1 /bQ")
    with pytest.raises(ValueError, match="over"):
        HiveAlphaBeta(depth=1).search(game)
    with pytest.raises(ValueError, match="HiveGame"):
        HiveAlphaBeta(depth=1).search("Base")


# -- differential check against a plain minimax --------------------------------------------------
class Minimax:
    """Plain recursive negamax over the engine kernels, without pruning, ordering or table, with the
    search's documented rules: proven results as ±(WIN_SCORE - ply), repetitions (game history or
    path) score 0, a single legal move costs no depth, a leaf with a five-neighbour Queen gets one
    more ply (at most two per line), and a leaf that is not (``quiescence``) scores the better of
    its evaluation and its attacking moves (a piece brought next to the opponent's Queen or onto
    it), searched the same way up to `MAX_QUIESCENCE_PLIES` on a line, all within
    ``search_plies(depth)`` plies. Leaves score `quick_evaluate` (``guessed``, the search's default) or
    `evaluate`."""

    def __init__(
        self,
        game: HiveGame,
        depth: int,
        weights: np.ndarray = SEARCH_WEIGHTS,
        quiescence: bool = True,
        guessed: bool = True,
    ):
        self.weights = weights
        self.quiescence = quiescence
        self.evaluate = quick_evaluate if guessed else evaluate
        self.plies = search_plies(depth)
        self.w = new_workspace()
        self.buffer = np.empty(EVAL_BUFFER_SIZE, dtype=np.int32)
        self.seen = {int(k) for k in history_keys(game)}

    def value(self, s: np.ndarray, depth: int, ply: int, path: list, threats: int, quiet: int = 0) -> int:
        status = s[I_STATUS]
        if ply > 0 and status != STATUS_IN_PROGRESS:
            if status == STATUS_DRAW:
                return 0
            winner = 0 if status == STATUS_WHITE_WINS else 1
            return WIN_SCORE - ply if winner == s[I_TO_MOVE] else -(WIN_SCORE - ply)
        key = int(position_key(s))
        if ply > 0 and (key in self.seen or key in path):
            return 0
        out = np.empty(MAX_MOVES, dtype=np.int32)
        rec = np.empty(UNDO_SIZE, dtype=np.int32)
        if depth == 0:
            danger = 5 in (queen_neighbours(s, 0), queen_neighbours(s, 1))
            if quiet > 0 or threats >= 2 or ply + 1 >= self.plies or not danger:
                best = int(self.evaluate(s, self.w, self.buffer, self.weights))
                if not self.quiescence or quiet >= MAX_QUIESCENCE_PLIES or ply + 1 >= self.plies:
                    return best
                for move in attacking_moves(s, out[: generate_moves(s, self.w, out)].copy()):
                    apply_move(s, move, rec)
                    best = max(best, -self.value(s, 0, ply + 1, path + [key], threats, quiet + 1))
                    undo_move(s, rec)
                return best
            threats, depth = threats + 1, 1
        moves = out[: generate_moves(s, self.w, out)].copy()
        child_depth = depth if len(moves) == 1 and ply + depth + 1 < self.plies else depth - 1
        best = -(WIN_SCORE + 1)
        for move in moves:
            apply_move(s, move, rec)
            best = max(best, -self.value(s, child_depth, ply + 1, path + [key], threats))
            undo_move(s, rec)
        return best


def attacking_moves(s: np.ndarray, moves: np.ndarray) -> list[int]:
    """The moves of ``moves`` that put a piece onto the opponent's Queen, or next to it on an empty
    cell from the hand or from a cell not next to it."""
    queen = int(s[PCELL + (1 - s[I_TO_MOVE]) * NUM_PIECE_SLOTS])
    if queen < 0:
        return []
    ring = {int(c) for c in NEIGHBOURS[queen * 6 : queen * 6 + 6]}
    kept = []
    for move in moves:
        if move == PASS_MOVE:
            continue
        dest, origin = move_cell(move), int(s[PCELL + move_piece(move)])
        if dest == queen or (dest in ring and s[HEIGHT + dest] == 0 and origin not in ring):
            kept.append(int(move))
    return kept


def history_keys(game: HiveGame) -> np.ndarray:
    """Position keys of every position of ``game`` so far (the current one included)."""
    replay = HiveGame(game.game_type, game.tournament_opening, game.max_turns)
    keys = [position_key(replay.state.copy())]
    for move in game.move_ids:
        replay.play_id(move)
        keys.append(position_key(replay.state.copy()))
    return np.sort(np.array(keys, dtype=np.uint64))


def new_evals(bits: int = 12) -> tuple[np.ndarray, np.ndarray]:
    return np.zeros(1 << bits, dtype=np.uint64), np.zeros(1 << bits, dtype=np.int32)


def kernel_search(
    game: HiveGame, depth: int, use_table: bool, features: int = ALL_FEATURES, node_limit: int = 0, state=None
) -> np.ndarray:
    pv = np.zeros(search_plies(depth), dtype=np.int32)
    stats = np.zeros(4, dtype=np.int64)
    move = alphabeta_kernel(
        game.state.copy() if state is None else state,
        new_workspace(),
        SearchLimits(depth, 0.0, node_limit),
        SearchSettings(0, features, use_table, 0),
        SearchTables(new_table(16), new_evals()),
        hand_evaluation(SEARCH_WEIGHTS),
        history_keys(game),
        SearchOutput(pv, stats, NO_ROOT_SCORES),
    )
    return move, stats


def differential_positions(depth: int):
    """Depth 1: mid-game positions and the two threat positions (the threat extension at work).
    Depth 2: positions where no Queen has more than three neighbours yet (the pure-Python reference
    takes minutes where the extensions multiply its nodes)."""
    if depth == 1:
        yield HiveGame.from_gamestring(DEFEND)
        yield HiveGame.from_gamestring(WIN_IN_1)
        yield from unfinished_positions(["Base", "Base+MLP"], seeds=range(3), plies=(8, 18, 30))
        return
    for game in unfinished_positions(["Base", "Base+MLP"], seeds=range(3), plies=(8, 12, 18)):
        if max(game.queen_neighbours(0), game.queen_neighbours(1)) <= 3:
            yield game


@pytest.mark.parametrize(
    ("depth", "quiescence", "positions", "guessed"),
    [
        (1, True, None, True),
        (1, True, None, False),
        (1, False, None, True),
        (2, False, None, True),
        (2, False, 4, False),
        (2, True, 2, True),  # the pure-Python reference's quiescence makes each position a minute or more
        pytest.param(2, True, None, True, marks=pytest.mark.slow),
        pytest.param(2, True, None, False, marks=pytest.mark.slow),
    ],
)
def test_root_value_equals_plain_minimax(depth, quiescence, positions, guessed):
    checked = 0
    features = ALL_FEATURES if quiescence else ALL_FEATURES & ~QUIESCENCE
    if not guessed:
        features &= ~GUESSED_MOBILITY
    for game in itertools.islice(differential_positions(depth), positions):
        reference = Minimax(game, depth, quiescence=quiescence, guessed=guessed)
        s = game.state.copy()
        expected = reference.value(s, depth, 0, [], 0)
        assert np.array_equal(s, game.state)
        for use_table in (False, True):
            move, stats = kernel_search(game, depth, use_table, features)
            assert stats[0] == expected, (game.gamestring, depth, use_table)
            # The move returned achieves that value.
            rec = np.empty(UNDO_SIZE, dtype=np.int32)
            apply_move(s, move, rec)
            child_depth = depth if len(game.legal_move_ids()) == 1 else depth - 1
            assert -reference.value(s, child_depth, 1, [int(position_key(game.state.copy()))], 0) == expected
            undo_move(s, rec)
        checked += 1
    assert checked >= (positions or 12)


def test_the_searcher_evaluates_with_the_weights_it_is_given():
    """`HiveAlphaBeta(weights=...)`: the depth-1 value is the plain minimax's over that evaluation, for
    the rule features' weights and for arbitrary ones; weights of another shape or type are refused."""
    other = np.random.default_rng(1).integers(-60, 60, NUM_TERMS).astype(np.int32)
    for game in list(differential_positions(1))[:6]:
        for weights in (RULE_WEIGHTS, other):
            expected = Minimax(game, 1, weights).value(game.state.copy(), 1, 0, [], 0)
            assert HiveAlphaBeta(depth=1, weights=weights).search(game).score == expected
    too_big = np.zeros(NUM_TERMS, np.int64)
    too_big[0] = 2**32  # would wrap to 0 as int32
    for bad in (np.zeros(NUM_TERMS - 1, np.int32), np.zeros(NUM_TERMS), [0.5] * NUM_TERMS, too_big):
        with pytest.raises(ValueError, match="weights"):
            HiveAlphaBeta(depth=1, weights=bad)


@pytest.mark.parametrize("depth", [3])
def test_windowed_searches_keep_the_plain_alpha_beta_value(depth):
    """Principal-variation search and the evaluation cache only prune: without the
    table (whose entries depend on the path, through the extensions), the root value is that of the
    full-window search, and its move achieves it."""
    checked = 0
    for game in unfinished_positions(["Base", "Base+MLP"], seeds=range(2), plies=(12, 24, 40)):
        for quiescence in (0, QUIESCENCE, QUIESCENCE | GUESSED_MOBILITY):
            _, plain = kernel_search(game, depth, False, quiescence)
            for features in (PVS, EVAL_CACHE, PVS | EVAL_CACHE):
                _, stats = kernel_search(game, depth, False, features | quiescence)
                assert stats[0] == plain[0], (game.gamestring, features, quiescence)
        checked += 1
    assert checked >= 8


def test_quiescence_changes_the_value_of_some_leaves():
    """The quiescence search is not a no-op: at depth 1 some positions score differently with it (the
    reply that brings a piece next to the Queen is seen), and so do the searcher's answers."""
    changed = 0
    for game in differential_positions(1):
        with_attacks = Minimax(game, 1).value(game.state.copy(), 1, 0, [], 0)
        without = Minimax(game, 1, quiescence=False).value(game.state.copy(), 1, 0, [], 0)
        searched = HiveAlphaBeta(depth=1, features=ALL_FEATURES & ~QUIESCENCE).search(game).score
        assert searched == without
        changed += with_attacks != without
    assert changed >= 3


def test_a_timed_search_keeps_its_table_across_the_moves_of_a_game():
    """A time-limited searcher keeps its table from move to move: it is not empty when the next search
    starts, every move is legal, and a depth-limited search clears it (its answer is that of a fresh
    searcher)."""
    searcher = HiveAlphaBeta(time_s=0.02, seed=1)
    game = random_game("Base+MLP", 3, 6)
    while not game.is_terminal and game.ply < 20:
        move = searcher.choose(game)
        assert game.is_legal_id(move)
        game.play_id(move)
        assert (searcher._table[3] >= 0).any()  # entries left for the next move
    fresh = HiveAlphaBeta(depth=2, seed=1).search(game)
    again = searcher.search(game, depth=2)
    assert tree(again) == tree(fresh)


def test_the_marked_static_order_equals_static_order():
    """The search ranks moves with the Queens' rings stamped once per node; the same ranks as
    `static_order` (the rule features' ordering), move by move."""
    near = np.zeros((2, NUM_CELLS), dtype=np.int64)
    checked = 0
    for stamp, game in enumerate(unfinished_positions(GAME_TYPES, seeds=range(2), plies=(6, 14, 30, 60)), 1):
        s = game.state.copy()
        mark_queen_rings(s, near, stamp)
        for move in game.legal_move_ids():
            assert marked_order(s, int(move), near, stamp) == static_order(s, int(move)), game.gamestring
            checked += 1
    assert checked > 1000


def test_the_first_searcher_of_a_process_loads_the_search_kernels():
    """Made in a fresh process, the first `HiveAlphaBeta` has the search kernel loaded (numba loads a
    kernel on its first call; inside a timed search that load came on top of the limit)."""
    code = (
        "from hive_envs.hive.search import alphabeta as a, negamax as n\n"
        "assert not n.alphabeta_kernel.signatures\n"
        "a.HiveAlphaBeta(time_s=1.0)\n"
        "assert n.alphabeta_kernel.signatures\n"
    )
    root = Path(__file__).resolve().parents[3]
    env = dict(os.environ, PYTHONPATH=str(root))
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=root, timeout=600)


def test_a_node_limit_gives_up_with_the_state_restored():
    """Past ``node_limit`` nodes the kernel answers -1 (nothing, not a half-searched move), ``s`` as it
    was and ``stats[2]`` the nodes visited; below it the search is the unlimited one."""
    for game in unfinished_positions(["Base", "Base+MLP"], seeds=[3], plies=(20,)):
        full_move, full_stats = kernel_search(game, 2, True)
        state = game.state.copy()
        move, stats = kernel_search(game, 2, True, node_limit=100, state=state)
        assert move == -1 and stats[2] == 101 and np.array_equal(state, game.state)
        move, stats = kernel_search(game, 2, True, node_limit=int(full_stats[2]))
        assert move == full_move and np.array_equal(stats, full_stats)


# -- every root move's score (the alpha-beta expert's) ---------------------------------------------
def kernel_root_scores(game: HiveGame, depth: int, features: int, margin: int) -> np.ndarray:
    """The kernel's ``root_scores`` without the table (so every value is the plain minimax's)."""
    scores = np.full(NUM_MOVE_IDS, -4 * WIN_SCORE, dtype=np.int64)
    alphabeta_kernel(
        game.state.copy(),
        new_workspace(),
        SearchLimits(depth, 0.0, 0),
        SearchSettings(0, features, False, margin),
        SearchTables(new_table(12), new_evals()),
        hand_evaluation(SEARCH_WEIGHTS),
        history_keys(game),
        SearchOutput(np.zeros(search_plies(depth), dtype=np.int32), np.zeros(4, dtype=np.int64), scores),
    )
    return scores


@pytest.mark.parametrize(("depth", "quiescence", "margin"), [(1, True, 48), (1, True, 8), (2, False, 48)])
def test_root_scores_are_each_moves_minimax_value_down_to_the_margin(depth, quiescence, margin):
    """``root_scores``: every root move within ``margin`` of the best scores its plain minimax value
    (the pure-Python reference's, one ply down), every other move at most the best - ``margin``."""
    features = ALL_FEATURES if quiescence else ALL_FEATURES & ~QUIESCENCE
    checked = refuted = 0
    for game in itertools.islice(differential_positions(depth), 8):
        moves = game.legal_move_ids()
        if len(moves) == 1:
            continue
        scores = kernel_root_scores(game, depth, features, margin)[moves]
        reference = Minimax(game, depth, quiescence=quiescence)
        s = game.state.copy()
        exact = []
        for move in moves:
            rec = np.empty(UNDO_SIZE, dtype=np.int32)
            apply_move(s, move, rec)
            exact.append(-reference.value(s, depth - 1, 1, [int(position_key(game.state.copy()))], 0))
            undo_move(s, rec)
        exact = np.array(exact)
        close = exact > exact.max() - margin
        assert np.array_equal(scores[close], exact[close]), game.gamestring
        assert (scores[~close] <= exact.max() - margin).all()
        checked += 1
        refuted += (~close).sum()
    assert checked >= 6 and refuted > 0


def test_move_scores_best_is_the_root_searchs_and_bad_input_is_refused():
    """`HiveAlphaBeta.move_scores` (one kernel call, with the table): the best score is ``alphabeta:depth``'s
    root value, a score below the best - margin is raised to it, the game is left as found; an illegal
    move, a finished game, a bad depth or margin are refused."""
    searcher = HiveAlphaBeta()
    checked = 0
    for game in unfinished_positions(["Base", "Base+MLP"], seeds=range(2), plies=(6, 16, 30)):
        record = game.record()
        moves = game.legal_move_ids()
        for depth in (2, 3):
            scores, nodes = searcher.move_scores(game, moves, depth, 48)
            assert scores.max() == HiveAlphaBeta(depth=depth).search(game).score and nodes > 0
            assert scores.min() >= scores.max() - 48
        assert game.record() == record
        checked += 1
    assert checked >= 8
    game = random_game("Base", 3, 10)
    illegal = np.setdiff1d(np.arange(NUM_MOVE_IDS), game.legal_move_ids())[:1]
    with pytest.raises(ValueError, match="not legal"):
        searcher.move_scores(game, illegal, 2)
    for depth, margin in ((1, None), (14, None), (2, 0), (2, 1.5)):
        with pytest.raises(ValueError, match="depth" if margin is None else "margin"):
            searcher.move_scores(game, game.legal_move_ids(), depth, margin)
    game = HiveGame.from_gamestring(WIN_IN_1)
    game.play("wB1 /bQ")
    with pytest.raises(ValueError, match="over"):
        searcher.move_scores(game, np.array([PASS_MOVE]), 2)


@pytest.mark.parametrize("keep_table", [True, False])
def test_move_scores_do_not_depend_on_the_searches_before(keep_table):
    """The scores depend only on the position: after a timed search has filled the table, a
    searcher (keeping its table between timed searches or not) scores as a fresh one."""
    for game in unfinished_positions(["Base"], seeds=range(2), plies=(12, 20)):
        used = HiveAlphaBeta(keep_table=keep_table)
        used.search(game, time_s=0.2)
        moves = game.legal_move_ids()
        scores, _ = used.move_scores(game, moves, 3, 48)
        expected, _ = HiveAlphaBeta(keep_table=keep_table).move_scores(game, moves, 3, 48)
        assert np.array_equal(scores, expected), game.gamestring
