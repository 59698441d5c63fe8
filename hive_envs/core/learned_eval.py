"""A learned evaluation in the form the compiled searches read: a small network over a position's
sparse features and dense terms, evaluated in numba code at every leaf (no torch per node).

A game's search gives each position two lists of active *sparse features* (indices into a table of
``F`` rows), one from the point of view of the side to move and one from the opponent's, and ``D``
*dense terms* (numbers seen from the side to move). The network, in the style of chess engines' NNUE::

    a_p    = crelu(feature_bias + sum of feature_weights[f] over p's active features f)   # p = us, them: H each
    x      = [a_us, a_them, dense]                                                          # 2H + D
    hidden = crelu(hidden_bias + x @ hidden_weights)                                        # L
    logit  = output_bias + hidden @ output_weights + dense @ skip_weights

``crelu`` clips to [0, 1]. The two perspectives share the feature table, so what a piece means to
its owner is learned once for both sides. ``logit`` is the log-odds that the side to move wins; the
search scores it as ``round(SCORE_PER_LOGIT * logit)`` clipped to ±`MAX_LEARNED_SCORE`, far inside
the proven-result scores (`hive_envs.core.alphabeta.MATE_BOUND`). The dense rows of
``hidden_weights`` and ``skip_weights`` come scaled already (the trainer's input scale folded in).

`network_logit` is the compiled forward pass; `LearnedNetwork` holds the arrays (float32,
C-contiguous), `NO_NETWORK` is the empty one (the hand evaluation: a search given it never calls the
network), `learned_network` checks arrays read from a file and `new_scratch` makes the buffers one
evaluation fills. The trainer (`hive_envs.training.eval_network`) computes the same function in
torch and exports these arrays; the file format is `hive_envs.agents.eval_checkpoint`.

Recomputed at every leaf, not updated move by move: the features of a piece depend on the pins and
the Queens' positions, which a single move changes all over the board, and the accumulation is a
small part of a leaf's cost (docs/alphabeta.md, "The learned evaluation").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numba import njit

SCORE_PER_LOGIT = 100
"""Search score units per unit of the network's logit."""
MAX_LEARNED_SCORE = 5_000
"""A learned evaluation is clipped to ± this (50 logits: certainty for any sigmoid)."""


@dataclass(frozen=True, eq=False)
class LearnedFeatures:
    """What a game's learned evaluation reads (its search module defines one): the trainer sizes the
    network by it and checkpoints record ``name``, so that a network is never read by the features of
    another game or version."""

    name: str
    """The feature set and its version, e.g. ``"hive/pieces-v1"``."""
    num_features: int
    """F: sparse features (rows of ``feature_weights``)."""
    max_active: int
    """The most sparse features one perspective of a position has."""
    num_dense: int
    """D: dense terms."""
    dense_names: tuple[str, ...]
    dense_scale: np.ndarray
    """float32[D]: each dense term's scale in the trainer (to about unit size), folded into the
    exported weights."""
    hand_weights: np.ndarray
    """float32[D]: the hand evaluation as weights on the dense terms (its score units), the skip
    weights' start."""


class LearnedNetwork(NamedTuple):
    """The compiled network's arrays (module docstring), all float32 and C-contiguous."""

    feature_weights: np.ndarray
    """[F, H]: one row per sparse feature."""
    feature_bias: np.ndarray
    """[H]"""
    hidden_weights: np.ndarray
    """[2H + D, L]: input-major (the inner loop runs over L)."""
    hidden_bias: np.ndarray
    """[L]"""
    output_weights: np.ndarray
    """[L]"""
    output_bias: np.ndarray
    """[1]"""
    skip_weights: np.ndarray
    """[D]: the dense terms straight to the logit."""

    @property
    def present(self) -> bool:
        """False for `NO_NETWORK` (the hand evaluation)."""
        return self.output_weights.shape[0] > 0


ARRAY_NAMES = LearnedNetwork._fields


def _empty(*shape: int) -> np.ndarray:
    return np.zeros(shape, dtype=np.float32)


NO_NETWORK = LearnedNetwork(_empty(0, 0), _empty(0), _empty(0, 0), _empty(0), _empty(0), _empty(1), _empty(0))
"""No learned network: the search keeps its hand evaluation."""


def learned_network(arrays: dict[str, np.ndarray], num_features: int, num_dense: int) -> LearnedNetwork:
    """The network of ``arrays`` (name -> array, `ARRAY_NAMES`), copied as float32, for a game of
    ``num_features`` sparse features and ``num_dense`` dense terms; ValueError naming what is missing,
    of the wrong shape or not finite."""
    missing = [name for name in ARRAY_NAMES if name not in arrays]
    if missing:
        raise ValueError(f"learned evaluation: missing arrays {missing}")
    values = {name: np.ascontiguousarray(arrays[name], dtype=np.float32) for name in ARRAY_NAMES}
    width = values["feature_bias"].shape[0] if values["feature_bias"].ndim == 1 else -1
    hidden = values["hidden_bias"].shape[0] if values["hidden_bias"].ndim == 1 else -1
    for name, shape in array_shapes(num_features, num_dense, width, hidden).items():
        if values[name].shape != shape or min(shape) < 1:
            raise ValueError(
                f"learned evaluation: {name} has shape {values[name].shape}, this game's features need "
                f"{shape} ({num_features} sparse features, {num_dense} dense terms)"
            )
        if not np.isfinite(values[name]).all():
            raise ValueError(f"learned evaluation: {name} holds NaN or infinite values")
    return LearnedNetwork(**values)


def array_shapes(num_features: int, num_dense: int, width: int, hidden: int) -> dict[str, tuple[int, ...]]:
    """The shape of each array (`ARRAY_NAMES` order) of a network of ``width`` (H) units per perspective
    and ``hidden`` (L) hidden units."""
    return {
        "feature_weights": (num_features, width),
        "feature_bias": (width,),
        "hidden_weights": (2 * width + num_dense, hidden),
        "hidden_bias": (hidden,),
        "output_weights": (hidden,),
        "output_bias": (1,),
        "skip_weights": (num_dense,),
    }


def random_network(
    seed: int,
    sizes: tuple[int, int, int, int],
    spread: tuple[float, ...],
    skip: np.ndarray | None = None,
    output_scale: float = 1.0,
) -> LearnedNetwork:
    """A network of random weights, for tests and for timing a leaf evaluation; ``sizes`` are
    (F, D, H, L) as `array_shapes` takes them. The arrays are drawn from NumPy's default generator
    seeded with ``seed``, in `ARRAY_NAMES` order, each normal
    about 0 (the feature bias about 0.3, so that some units are active) with its standard deviation in
    ``spread`` (one per array drawn), the output layer's then scaled by ``output_scale``; ``skip``
    stands in for random skip weights (then not drawn)."""
    rng, shapes = np.random.default_rng(seed), array_shapes(*sizes)
    arrays: dict[str, np.ndarray] = {}
    for i, name in enumerate(ARRAY_NAMES):
        if name == "skip_weights" and skip is not None:
            arrays[name] = skip
            continue
        arrays[name] = rng.normal(0.3 if name == "feature_bias" else 0, spread[i], shapes[name])
        if name.startswith("output_"):
            arrays[name] = arrays[name] * output_scale
    return learned_network(arrays, sizes[0], sizes[1])


class FeatureScratch(NamedTuple):
    """What one evaluation fills: a game's features, then the network's layers (`new_scratch`)."""

    indices: np.ndarray
    """int32[2, max active]: the active sparse features, side to move first."""
    counts: np.ndarray
    """int32[2]: how many of each row of ``indices`` are set."""
    dense: np.ndarray
    """float32[D]: the dense terms."""
    values: np.ndarray
    """float32[2H + D + L]: the hidden layer's input, then its output."""


def new_scratch(network: LearnedNetwork, max_active: int, num_dense: int) -> FeatureScratch:
    width, hidden = network.feature_bias.shape[0], network.hidden_bias.shape[0]
    return FeatureScratch(
        np.zeros((2, max_active), dtype=np.int32),
        np.zeros(2, dtype=np.int32),
        np.zeros(num_dense, dtype=np.float32),
        np.zeros(2 * width + num_dense + hidden, dtype=np.float32),
    )


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # _nrt: no reference counts (hive.engine.jit)
def network_logit(network, scratch):
    """The network's logit for the features in ``scratch`` (`FeatureScratch`, filled by the game's
    feature kernel); the layers' values are left in ``scratch.values``."""
    fw, fb = network.feature_weights, network.feature_bias
    width = fb.shape[0]
    dense = scratch.dense
    num_dense = dense.shape[0]
    x = scratch.values
    for p in range(2):
        base = p * width
        for h in range(width):
            x[base + h] = fb[h]
        for k in range(scratch.counts[p]):
            row = scratch.indices[p, k]
            for h in range(width):
                x[base + h] += fw[row, h]
        for h in range(width):
            x[base + h] = min(max(x[base + h], np.float32(0.0)), np.float32(1.0))
    for d in range(num_dense):
        x[2 * width + d] = dense[d]
    hw, hb = network.hidden_weights, network.hidden_bias
    inputs = 2 * width + num_dense
    hidden = hb.shape[0]
    for j in range(hidden):
        x[inputs + j] = hb[j]
    for i in range(inputs):
        v = x[i]
        if v != 0:
            for j in range(hidden):
                x[inputs + j] += v * hw[i, j]
    logit = network.output_bias[0]
    ow = network.output_weights
    for j in range(hidden):
        logit += min(max(x[inputs + j], np.float32(0.0)), np.float32(1.0)) * ow[j]
    sw = network.skip_weights
    for d in range(num_dense):
        logit += dense[d] * sw[d]
    return logit


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]
def logit_score(logit):
    """The search score of a logit: ``round(SCORE_PER_LOGIT * logit)`` within ±`MAX_LEARNED_SCORE`."""
    score = np.floor(np.float64(logit) * SCORE_PER_LOGIT + 0.5)
    return np.int32(min(max(score, -MAX_LEARNED_SCORE), MAX_LEARNED_SCORE))
