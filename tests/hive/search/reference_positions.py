"""The evaluation's reference positions (`tests/data/make_evaluation_reference.py`) as the tests of the
evaluation and of its learned form read them, and the learned evaluation's features of a position."""

from __future__ import annotations

import numpy as np

from hive_envs.core.learned_eval import NO_NETWORK, new_scratch
from hive_envs.hive.engine.workspace import new_workspace
from hive_envs.hive.search.eval_features import MAX_ACTIVE, NUM_DENSE, position_features
from hive_envs.hive.search.evaluation import EVAL_BUFFER_SIZE
from tests.data.make_evaluation_reference import PATH as REFERENCE


def reference_states(count: int) -> np.ndarray:
    """``count`` of the reference states (int32), spread evenly over the file."""
    states = np.load(REFERENCE)["states"].astype(np.int32)
    return states[np.linspace(0, len(states) - 1, count).astype(int)]


def features_of(state: np.ndarray):
    """The learned evaluation's features of ``state`` (a scratch of `new_scratch`; ``state`` untouched)."""
    scratch = new_scratch(NO_NETWORK, MAX_ACTIVE, NUM_DENSE)
    position_features(state.copy(), new_workspace(), np.zeros(EVAL_BUFFER_SIZE, dtype=np.int32), scratch)
    return scratch
