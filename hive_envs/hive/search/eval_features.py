"""The features of Hive's learned evaluation (`hive_envs.core.learned_eval`): what the network reads of
a position, computed by the search's own leaf pass.

``position_features(s, w, buffer, scratch)`` fills a `FeatureScratch` for the unfinished position
``s``: the sparse features of both perspectives (the side to move's first) and the dense terms.

**Dense terms** (`NUM_DENSE`): the 33 terms of the hand evaluation as the search computes them
(`evaluation.guessed_evaluation_terms`: Queen pressure, reachable liberties, the win-next-move and
threat terms, mobility by kind, pieces in hand, Beetles closing in), each the mover's count minus the
opponent's. With them the network sees everything the hand evaluation sees, and its skip weights can
start as the hand weights (`HIVE_FEATURES.hand_weights`): a first generation plays as the hand
evaluation does and learns from there.

**Sparse features**, one per piece in play and one per kind in hand for each colour, seen from a
perspective p (a colour):

- a piece: its kind (8) x whose it is (p's or the other's) x where it stands (alone on the ground, on
  top of a stack, covered) x whether it has a move (the guessed destinations of the leaf pass: pinned,
  covered or boxed in has none) x its hex distance to p's Queen x its distance to the other Queen
  (0, 1, 2, 3, 4 or more, or that Queen not in play): `PIECE_FEATURES`;
- pieces in hand: for each kind the game plays and each colour, the count still in hand (0, 1, 2, 3):
  `HAND_FEATURES`.

Why these: the game is won by surrounding a Queen, so where each piece stands relative to both
Queens, and whether it can still move (pinned pieces are the currency of Hive), is most of a
position's value; the engine has the distances and the pins at hand (the leaf pass marks the pins
anyway), so they cost a loop over the 28 pieces. They are distances, not hex offsets: every feature is
unchanged by the board's rotations and reflections, so nothing is learned twelve times over, and the
shape of a Queen's ring (how many neighbours, whose, pinned or free) is the sum of its pieces'
features. What distances cannot say (gates, which liberty a piece reaches) the dense terms carry.
"""

from __future__ import annotations

import numpy as np

from hive_envs.core.learned_eval import LearnedFeatures
from hive_envs.hive.engine.grid import cell_distance
from hive_envs.hive.engine.jit import kernel
from hive_envs.hive.engine.pieces import KIND_COUNT, KIND_FIRST_SLOT, NUM_PIECE_SLOTS, NUM_PIECES, PIECE_KIND
from hive_envs.hive.engine.state import I_KINDS, I_TO_MOVE, PCELL, PUNDER, TOP
from hive_envs.hive.search.evaluation import (
    EVAL_BUFFER_SIZE,
    MOVES_COUNTED,
    NUM_TERMS,
    PER_PIECE,
    SEARCH_WEIGHTS,
    T_DESTINATIONS,
    TERM_NAMES,
    guessed_evaluation_terms,
)

NUM_KINDS = 8
DISTANCES = 6  # 0, 1, 2, 3, 4 or more, no Queen in play
FAR, NO_QUEEN = 4, 5
GROUND, ON_STACK, COVERED = 0, 1, 2
PIECE_FEATURES = NUM_KINDS * 2 * 3 * 2 * DISTANCES * DISTANCES
HAND_COUNTS = 4  # 0..3 of a kind in hand
HAND_FEATURES = NUM_KINDS * 2 * HAND_COUNTS
NUM_FEATURES = PIECE_FEATURES + HAND_FEATURES
MAX_ACTIVE = NUM_PIECES + NUM_KINDS * 2
NUM_DENSE = NUM_TERMS

DENSE_SCALE = np.ones(NUM_DENSE, dtype=np.float32)
DENSE_SCALE[T_DESTINATIONS] = 1.0 / MOVES_COUNTED  # the one term that runs to tens
"""The dense terms' scale in the trainer (each about unit size)."""


@kernel
def _distance(cell, queen):
    if queen < 0:
        return NO_QUEEN
    return min(cell_distance(cell, queen), FAR)


@kernel
def piece_feature(kind, own, stack, mobile, distance_own, distance_other):
    """The index of a piece's feature (module docstring); ``own`` and ``mobile`` 0 or 1."""
    return (
        (((kind * 2 + own) * 3 + stack) * 2 + mobile) * DISTANCES + distance_own
    ) * DISTANCES + distance_other


@kernel
def hand_feature(kind, own, count):
    return PIECE_FEATURES + (kind * 2 + own) * HAND_COUNTS + min(count, HAND_COUNTS - 1)


@kernel
def position_features(s, w, buffer, scratch):
    """Fill ``scratch`` (`FeatureScratch` of `MAX_ACTIVE` and `NUM_DENSE`) with the features of the
    unfinished position ``s`` (module docstring); ``w`` and ``buffer`` (int32[`EVAL_BUFFER_SIZE`]) are
    scratch, ``s`` is restored."""
    terms = buffer[EVAL_BUFFER_SIZE - NUM_TERMS :]
    guessed_evaluation_terms(s, w, buffer, terms)
    for t in range(NUM_TERMS):
        scratch.dense[t] = terms[t]
    me = s[I_TO_MOVE]
    queens = (s[PCELL], s[PCELL + NUM_PIECE_SLOTS])
    indices, counts = scratch.indices, scratch.counts
    counts[0] = 0
    counts[1] = 0
    for piece in range(NUM_PIECES):
        cell = s[PCELL + piece]
        if cell < 0:
            continue
        if s[TOP + cell] != piece:
            stack = COVERED
        elif s[PUNDER + piece] >= 0:
            stack = ON_STACK
        else:
            stack = GROUND
        mobile = 1 if buffer[PER_PIECE + piece] > 0 else 0
        kind = PIECE_KIND[piece]
        colour = piece // NUM_PIECE_SLOTS
        white = _distance(cell, queens[0])
        black = _distance(cell, queens[1])
        for p in range(2):
            viewer = me if p == 0 else 1 - me
            own = 1 if colour == viewer else 0
            near, far = (white, black) if viewer == 0 else (black, white)
            indices[p, counts[p]] = piece_feature(kind, own, stack, mobile, near, far)
            counts[p] += 1
    kinds = s[I_KINDS]
    for kind in range(NUM_KINDS):
        if not (kinds >> kind) & 1:
            continue
        for colour in range(2):
            first = colour * NUM_PIECE_SLOTS + KIND_FIRST_SLOT[kind]
            in_hand = 0
            for piece in range(first, first + KIND_COUNT[kind]):
                in_hand += s[PCELL + piece] < 0
            for p in range(2):
                viewer = me if p == 0 else 1 - me
                indices[p, counts[p]] = hand_feature(kind, 1 if colour == viewer else 0, in_hand)
                counts[p] += 1


HIVE_FEATURES = LearnedFeatures(
    name="hive/pieces-v1",
    num_features=NUM_FEATURES,
    max_active=MAX_ACTIVE,
    num_dense=NUM_DENSE,
    dense_names=TERM_NAMES,
    dense_scale=DENSE_SCALE,
    hand_weights=SEARCH_WEIGHTS.astype(np.float32),
)
"""What Hive's learned evaluation reads, for the trainer and the checkpoints (`LearnedFeatures`)."""
