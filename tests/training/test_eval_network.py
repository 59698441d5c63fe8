"""The learned evaluation in torch (`hive_envs.training.eval_network`) and its export: the compiled pass
the search runs gives the torch network's values, and a fresh network starts as the hand evaluation."""

from __future__ import annotations

import numpy as np
import torch

from hive_envs.core.learned_eval import (
    SCORE_PER_LOGIT,
    learned_network,
    logit_score,
    network_logit,
)
from hive_envs.hive.engine.workspace import new_workspace
from hive_envs.hive.search.eval_features import (
    HIVE_FEATURES,
    MAX_ACTIVE,
    NUM_DENSE,
    NUM_FEATURES,
)
from hive_envs.hive.search.evaluation import EVAL_BUFFER_SIZE, SEARCH_WEIGHTS, quick_evaluate
from hive_envs.hive.search.learned import learned_evaluate, learned_evaluation
from hive_envs.training.eval_network import EvalNetwork
from tests.hive.search.reference_positions import features_of, reference_states

POSITIONS = 1000


def positions() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """1,000 positions of every game type (the evaluation's reference states): the states and their
    features as the trainer stores them (indices padded with F, dense terms)."""
    states = reference_states(POSITIONS)
    indices = np.full((POSITIONS, 2, MAX_ACTIVE), NUM_FEATURES, dtype=np.int64)
    dense = np.zeros((POSITIONS, NUM_DENSE), dtype=np.float32)
    for k, state in enumerate(states):
        scratch = features_of(state)
        for p in range(2):
            indices[k, p, : scratch.counts[p]] = scratch.indices[p, : scratch.counts[p]]
        dense[k] = scratch.dense
    return states, indices, dense


def trained_looking_network(seed: int) -> EvalNetwork:
    """A network with every layer in use (a fresh one's output is its skip weights alone)."""
    torch.manual_seed(seed)
    network = EvalNetwork(HIVE_FEATURES, width=32, hidden=32)
    network.start_from_hand(0.4)
    with torch.no_grad():
        network.table.weight[:-1].normal_(0, 0.15)
        network.hidden.weight.normal_(0, 0.3)
        network.output.weight.normal_(0, 1.0)
        network.output.bias.fill_(0.2)
    return network.eval()


def test_the_compiled_network_gives_the_torch_values_on_1000_positions():
    states, indices, dense = positions()
    network = trained_looking_network(0)
    with torch.no_grad():
        expected = network(torch.as_tensor(indices), torch.as_tensor(dense)).numpy()
    compiled = learned_network(network.export(), NUM_FEATURES, NUM_DENSE)
    evaluation = learned_evaluation(compiled)
    workspace, buffer = new_workspace(), np.zeros(EVAL_BUFFER_SIZE, dtype=np.int32)
    logits, scores = np.zeros(POSITIONS, dtype=np.float32), np.zeros(POSITIONS, dtype=np.int64)
    for k, state in enumerate(states):
        scores[k] = learned_evaluate(state.copy(), workspace, buffer, compiled, evaluation.scratch)
        logits[k] = network_logit(compiled, evaluation.scratch)
    assert expected.std() > 0.5  # the values spread: the comparison can fail
    np.testing.assert_allclose(logits, expected, rtol=0, atol=2e-5)  # float32, the sums in another order
    exact = np.array([logit_score(np.float32(v)) for v in expected])
    assert np.abs(scores - exact).max() <= 1  # a score is the logit x 100 rounded: a tie may round apart
    assert (scores == exact).mean() > 0.99


def test_a_fresh_network_started_from_the_hand_weights_scores_as_the_hand_evaluation():
    states, indices, dense = positions()
    network = EvalNetwork(HIVE_FEATURES)
    network.start_from_hand(1.0)  # one logit per 100 hand units
    with torch.no_grad():
        logits = network(torch.as_tensor(indices[:200]), torch.as_tensor(dense[:200])).numpy()
    workspace, buffer = new_workspace(), np.zeros(EVAL_BUFFER_SIZE, dtype=np.int32)
    hand = np.array([quick_evaluate(s.copy(), workspace, buffer, SEARCH_WEIGHTS) for s in states[:200]])
    np.testing.assert_allclose(logits * SCORE_PER_LOGIT, hand, atol=1e-3)
