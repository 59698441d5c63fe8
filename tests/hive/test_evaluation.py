"""The alpha-beta's static evaluation (`hive_envs.hive.engine.evaluation`) against its frozen values."""

from pathlib import Path

import numpy as np
import pytest

from hive_envs.hive.engine.evaluation import (
    EVAL_BUFFER_SIZE,
    NUM_TERMS,
    RULE_WEIGHTS,
    SEARCH_WEIGHTS,
    TERM_NAMES,
    evaluate,
    evaluation_terms,
    weight_vector,
)
from hive_envs.hive.engine.state import I_LAST_MOVED, I_TO_MOVE
from hive_envs.hive.engine.workspace import new_workspace

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "evaluation_reference.npz"


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
