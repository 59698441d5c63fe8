"""The alpha-beta's static evaluation (`hive_envs.hive.search.evaluation`) against its frozen values."""

import numpy as np
import pytest

from hive_envs.hive.engine.grid import NUM_CELLS
from hive_envs.hive.engine.movegen import MAX_MOVES
from hive_envs.hive.engine.pieces import (
    ANT,
    GRASSHOPPER,
    NUM_PIECE_SLOTS,
    NUM_PIECES,
    PIECE_KIND,
    PILLBUG,
    QUEEN,
    SPIDER,
)
from hive_envs.hive.engine.pins import mark_articulation_cells
from hive_envs.hive.engine.state import I_KINDS, I_LAST_MOVED, I_TO_MOVE, PCELL, PUNDER, TOP
from hive_envs.hive.engine.workspace import ART, new_workspace, reserve_stamp
from hive_envs.hive.search.evaluation import (
    EVAL_BUFFER_SIZE,
    KIND_NAMES,
    MOVES_COUNTED,
    NUM_TERMS,
    RULE_WEIGHTS,
    SEARCH_WEIGHTS,
    TERM_NAMES,
    _guessed_side_reach,
    _side_reach,
    evaluate,
    evaluation_terms,
    guessed_evaluation_terms,
    quick_evaluate,
    weight_vector,
)
from tests.hive.search.reference_positions import REFERENCE


def test_the_evaluation_gives_the_reference_values_and_restores_the_state():
    """`tests/data/evaluation_reference.npz` (`tests/data/make_evaluation_reference.py`): random games of
    every game type and the benchmark's middle-game positions with all their children. Every value
    must stay as it was when the evaluation is made faster; each state must be left as it was given."""
    reference = np.load(REFERENCE)
    workspace, buffer = new_workspace(), np.empty(EVAL_BUFFER_SIZE, dtype=np.int32)
    values = []
    for frozen in reference["states"]:
        state = frozen.astype(np.int32)
        values.append(evaluate(state, workspace, buffer, RULE_WEIGHTS))
        np.testing.assert_array_equal(state, frozen)
    np.testing.assert_array_equal(np.array(values), reference["values"])


def test_the_score_is_the_terms_weighed_and_each_term_is_the_movers_count_minus_the_opponents():
    """On the reference positions: `evaluate` equals the dot product of `evaluation_terms` with the
    weights it is given (so the search's weights and the rule features' weights are two readings of
    one set of counts), and the terms of a position are the negation of those of the same board with
    the other side to move, but for `to_move` and the one-sided win terms (the last-moved piece's
    restriction lifted in both: it binds only the side to move)."""
    reference = np.load(REFERENCE)
    workspace, buffer = new_workspace(), np.empty(EVAL_BUFFER_SIZE, dtype=np.int32)
    rng = np.random.default_rng(0)
    other = rng.integers(-50, 50, NUM_TERMS).astype(np.int32)
    one_sided = [TERM_NAMES.index(name) for name in ("win_next_move", "win_threat", "to_move")]
    symmetric = np.setdiff1d(np.arange(NUM_TERMS), one_sided)
    for frozen in reference["states"][::7]:
        state = frozen.astype(np.int32)
        terms, flipped = np.empty(NUM_TERMS, np.int32), np.empty(NUM_TERMS, np.int32)
        evaluation_terms(state, workspace, buffer, terms)
        for weights in (RULE_WEIGHTS, SEARCH_WEIGHTS, other):
            assert evaluate(state, workspace, buffer, weights) == int(terms.astype(np.int64) @ weights)
        state[I_LAST_MOVED] = -1
        evaluation_terms(state, workspace, buffer, terms)
        state[I_TO_MOVE] = 1 - state[I_TO_MOVE]
        evaluation_terms(state, workspace, buffer, flipped)
        np.testing.assert_array_equal(flipped[symmetric], -terms[symmetric])
        assert terms[TERM_NAMES.index("to_move")] == flipped[TERM_NAMES.index("to_move")] == 1


def test_weight_vectors_name_known_terms_only():
    assert weight_vector({"destinations": 3})[TERM_NAMES.index("destinations")] == 3
    assert weight_vector({}).sum() == 0
    with pytest.raises(ValueError, match="unknown evaluation terms"):
        weight_vector({"queen_neighbour": 1})


MOBILITY_FREE_TERMS = [
    "queen_enemy_neighbour",
    "queen_ring_3",
    "queen_ring_4",
    "queen_ring_5",
    "queen_covered",
    *(f"hand_{kind}" for kind in KIND_NAMES),
    "to_move",
]


def test_the_guessed_terms_differ_from_the_listed_ones_only_where_moves_are_read():
    """`guessed_evaluation_terms` (the search's `quick_evaluate`) on the reference positions: every term
    that reads no piece's moves equals `evaluation_terms`', the own pieces next to each Queen are the
    same (only their stuck / free split is guessed), `quick_evaluate` is the guessed terms weighed, and
    the state is left as it was given."""
    reference = np.load(REFERENCE)
    workspace, buffer = new_workspace(), np.empty(EVAL_BUFFER_SIZE, dtype=np.int32)
    same = [TERM_NAMES.index(name) for name in MOBILITY_FREE_TERMS]
    stuck, free = TERM_NAMES.index("queen_stuck_neighbour"), TERM_NAMES.index("queen_free_neighbour")
    differs = 0
    for frozen in reference["states"][::3]:
        state = frozen.astype(np.int32)
        listed, guessed = np.empty(NUM_TERMS, np.int32), np.empty(NUM_TERMS, np.int32)
        evaluation_terms(state, workspace, buffer, listed)
        guessed_evaluation_terms(state, workspace, buffer, guessed)
        np.testing.assert_array_equal(state, frozen)
        np.testing.assert_array_equal(guessed[same], listed[same])
        assert guessed[stuck] + guessed[free] == listed[stuck] + listed[free]
        assert quick_evaluate(state, workspace, buffer, SEARCH_WEIGHTS) == int(
            guessed.astype(np.int64) @ SEARCH_WEIGHTS
        )
        differs += not np.array_equal(guessed, listed)
    assert differs > 0  # a guess, not the same counts under another name


def test_each_guessed_piece_count_agrees_with_its_listed_moves_where_the_guess_is_exact():
    """Per piece, on the reference positions of games without the Pillbug (whose throws add moves the
    guess leaves out), both sides with the last-moved restriction lifted: a piece in hand, covered or
    pinned on the ground has no moves listed and none guessed; an unpinned ground Queen's and
    Grasshopper's guesses are their listed counts (one per open slide, one per line of pieces); an
    Ant is guessed `MOVES_COUNTED` exactly when it has a move; a Spider with a move is guessed 2."""
    reference = np.load(REFERENCE)
    workspace = new_workspace()
    moves, directions = np.empty(MAX_MOVES, np.int32), np.empty(NUM_CELLS, np.int32)
    seen = dict.fromkeys((QUEEN, GRASSHOPPER, ANT, SPIDER, "still"), 0)
    for frozen in reference["states"]:
        if (frozen[I_KINDS] >> PILLBUG) & 1:
            continue
        state = frozen.astype(np.int32)
        state[I_LAST_MOVED] = -1
        for colour in (0, 1):
            state[I_TO_MOVE] = colour
            pins = reserve_stamp(workspace)
            mark_articulation_cells(state, workspace, pins)
            listed, guessed = np.zeros(NUM_PIECES, np.int32), np.zeros(NUM_PIECES, np.int32)
            _side_reach(state, workspace, moves, colour, pins, listed, directions)
            _guessed_side_reach(state, workspace, colour, pins, guessed, directions)
            for piece in range(colour * NUM_PIECE_SLOTS, (colour + 1) * NUM_PIECE_SLOTS):
                cell, kind = state[PCELL + piece], PIECE_KIND[piece]
                ground = cell >= 0 and state[PUNDER + piece] < 0
                if cell < 0 or state[TOP + cell] != piece or (ground and workspace[ART + cell] == pins):
                    assert listed[piece] == guessed[piece] == 0
                    seen["still"] += cell >= 0
                elif ground and kind in (QUEEN, GRASSHOPPER):
                    assert guessed[piece] == listed[piece], (piece, frozen.tolist())
                    seen[kind] += 1
                elif ground and kind == ANT:
                    assert guessed[piece] == (MOVES_COUNTED if listed[piece] > 0 else 0)
                    seen[ANT] += 1
                elif ground and kind == SPIDER and listed[piece] > 0:
                    assert guessed[piece] == 2
                    seen[SPIDER] += 1
    assert min(seen.values()) >= 50, seen
