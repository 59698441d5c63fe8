"""The learned evaluation's training targets: a search's score turned into a win probability, mixed with
the game's result.

    scale = fit_scale(score, result)                       # logit per 100 score units, fitted to the results
    target = targets(score, result, scale, score_weight)   # in [0, 1], the side to move's chance

A search's score is in its evaluation's units (the hand evaluation's, or 100 per logit of a learned
one). `fit_scale` finds the one number that turns it into the probability of the recorded results,
``sigmoid(scale * score / 100)``, by least cross-entropy (Texel tuning's K): the results decide the
scale, the search decides the order. A proven result (beyond `MATE_BOUND`) is a certain win or loss.

The target is ``score_weight * sigmoid(scale * score / 100) + (1 - score_weight) * result`` (result 1
won, 0.5 drawn, 0 lost): the score is the deeper search's judgement of the very position, with little
noise but the bias of the evaluation that searched it; the result is the truth of the game, unbiased
but decided by everything played after the position. The score alone would only teach the network the
searcher's own evaluation one search deeper; the result alone is too noisy for a few thousand games
(Texel's fit of the hand weights to results alone played worse: docs/alphabeta.md).
"""

from __future__ import annotations

import numpy as np

from hive_envs.core.alphabeta import MATE_BOUND

SCALE_BOUNDS = (1e-3, 20.0)


def _probability(score: np.ndarray, scale: float) -> np.ndarray:
    logits = np.clip(scale * score.astype(np.float64) / 100.0, -50.0, 50.0)
    return 1.0 / (1.0 + np.exp(-logits))


def cross_entropy(p: np.ndarray, target: np.ndarray) -> float:
    """Mean binary cross-entropy of probabilities ``p`` against soft ``target``."""
    p = np.clip(np.asarray(p, dtype=np.float64), 1e-7, 1 - 1e-7)
    target = np.asarray(target, dtype=np.float64)
    return float(-(target * np.log(p) + (1 - target) * np.log(1 - p)).mean())


def result_probability(result: np.ndarray) -> np.ndarray:
    """+1 / 0 / -1 (the side to move's result) as 1 / 0.5 / 0."""
    return (result.astype(np.float64) + 1.0) / 2.0


def fit_scale(score: np.ndarray, result: np.ndarray) -> float:
    """The scale of `sigmoid(scale * score / 100)` that predicts ``result`` best (least cross-entropy,
    proven scores left out); 1.0 when there is nothing to fit."""
    keep = np.abs(score) < MATE_BOUND
    score, outcome = score[keep], result_probability(result[keep])
    if score.size == 0 or not score.any():
        return 1.0
    low, high = np.log(SCALE_BOUNDS[0]), np.log(SCALE_BOUNDS[1])
    for _ in range(60):  # golden-section search on log(scale): the loss is unimodal in the scale
        a = high - 0.618 * (high - low)
        b = low + 0.618 * (high - low)
        if cross_entropy(_probability(score, np.exp(a)), outcome) < cross_entropy(
            _probability(score, np.exp(b)), outcome
        ):
            high = b
        else:
            low = a
    return float(np.exp((low + high) / 2))


def score_probability(score: np.ndarray, scale: float) -> np.ndarray:
    """The side to move's winning chance by the search: `sigmoid(scale * score / 100)`, 1 or 0 for a
    proven win or loss."""
    p = _probability(score, scale)
    p[score >= MATE_BOUND] = 1.0
    p[score <= -MATE_BOUND] = 0.0
    return p


def targets(score: np.ndarray, result: np.ndarray, scale: float, score_weight: float) -> np.ndarray:
    """The training targets (module docstring), float32."""
    mixed = score_weight * score_probability(score, scale) + (1 - score_weight) * result_probability(result)
    return mixed.astype(np.float32)
