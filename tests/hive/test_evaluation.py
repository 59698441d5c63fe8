"""The alpha-beta's static evaluation (`hive_envs.hive.engine.evaluation`) against its frozen values."""

from pathlib import Path

import numpy as np

from hive_envs.hive.engine.evaluation import EVAL_BUFFER_SIZE, evaluate
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
        values.append(evaluate(state, workspace, buffer))
        np.testing.assert_array_equal(state, frozen)
    np.testing.assert_array_equal(np.array(values), reference["values"])
