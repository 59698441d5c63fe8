"""The leaf evaluation `alphabeta_kernel` is given: the hand evaluation's weights, or a learned network.

``LeafEvaluation(weights, network, scratch)`` travels into the search as one argument. With
`NO_NETWORK` (`hand_evaluation`) the leaves are scored by `evaluation.quick_evaluate` or `evaluate`
with ``weights``, as always; with a network (`learned_evaluation`) by `learned_evaluate`: the features
of `eval_features` through the compiled network of `hive_envs.core.learned_eval`, in score units of
`SCORE_PER_LOGIT` per logit. Both kinds run the same compiled search (one numba specialisation): the
leaf asks which one it has.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from hive_envs.core.learned_eval import (
    NO_NETWORK,
    FeatureScratch,
    LearnedNetwork,
    logit_score,
    network_logit,
    new_scratch,
)
from hive_envs.hive.engine.jit import kernel
from hive_envs.hive.search.eval_features import MAX_ACTIVE, NUM_DENSE, position_features
from hive_envs.hive.search.evaluation import SEARCH_WEIGHTS


class LeafEvaluation(NamedTuple):
    """How `alphabeta_kernel` scores its leaves (module docstring)."""

    weights: np.ndarray
    """int32[`NUM_TERMS`]: the hand evaluation's weights (read only when ``network`` is `NO_NETWORK`)."""
    network: LearnedNetwork
    scratch: FeatureScratch
    """The features and layers of one leaf (`new_scratch`), the searcher's own."""


def hand_evaluation(weights: np.ndarray) -> LeafEvaluation:
    """The hand evaluation with ``weights`` (int32[`NUM_TERMS`])."""
    return LeafEvaluation(weights, NO_NETWORK, new_scratch(NO_NETWORK, MAX_ACTIVE, NUM_DENSE))


def learned_evaluation(network: LearnedNetwork) -> LeafEvaluation:
    """``network`` (checked against Hive's features: `hive_envs.core.learned_eval.learned_network`)
    scores the leaves."""
    return LeafEvaluation(SEARCH_WEIGHTS, network, new_scratch(network, MAX_ACTIVE, NUM_DENSE))


@kernel
def learned_evaluate(s, w, buffer, network, scratch):
    """Score of the unfinished position ``s`` for the side to move by ``network``; ``w``, ``buffer``
    (int32[`EVAL_BUFFER_SIZE`]) and ``scratch`` are scratch, ``s`` is restored."""
    position_features(s, w, buffer, scratch)
    return logit_score(network_logit(network, scratch))
