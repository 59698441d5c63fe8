"""Two-ply rule features for the Hive network, computed from the observation alone.

Why: Hive is won by surrounding the opponent's Queen, and whether a move adds or removes a
Queen neighbour, wins at once, or lets the opponent win or close in on the mover's Queen is a
non-local function of the board (the piece leaves one cell and lands on another, a slide or a
climb many cells away). A convolutional trunk trained from scratch on two CPU cores has to
discover all of that before it can aim at the Queen: the plain `hexconv` network reached 19%
wins vs random after 40 minutes (docs/training.md). So the Hive network gets, for every legal
action, what the rules say it does, and learns how to weigh it (as the Hoyito network does).
These are inputs, not a search: the policy still picks a move with one forward pass.

The observation is Markov, so it decodes to an engine state (`encoding.decode_observation`),
and the engine's own kernels (`generate_moves`, `apply_move`, `undo_move`; no second
implementation of the rules) play each move and each reply.

Per legal action (``ACTION_FEATURES`` values, "mover" = the player to move):
  0  1.0 (a real action; padding rows are all zero)
  1  greedy score after the move: opponent's minus mover's occupied Queen neighbours, / 6
  2  change of the opponent's Queen neighbours, / 6
  3  change of the mover's Queen neighbours, / 6
  4  the move wins at once          5  it loses at once          6  it draws at once
  7  the move is a placement
  8  the worst greedy score (from the mover's side) the opponent's best reply leaves, / 6
     (-1 if the opponent can then win, +1 if every reply loses for the opponent)
  9  the opponent can win at once after the move
  10 the opponent's number of legal moves after the move, / 64
Per position (``POSITION_FEATURES``): the mover's and the opponent's occupied Queen neighbours
/ 6, the mover's number of legal moves / 64, and whether each Queen is in play.

Feature set 2 (``feature_set=2``, ``EVAL_ACTION_FEATURES`` / ``EVAL_POSITION_FEATURES``) appends
what the alpha-beta player's static evaluation (`hive_envs.hive.engine.evaluation`: Queen
pressure, reachable liberties, mobility, pieces in hand, Beetles; units: an opponent's piece next
to a Queen = 48) says, in units of ``EVAL_SCALE`` clipped to +-``EVAL_CLIP``:
  11 the evaluation after the move, from the mover's side (a finished game: +-EVAL_CLIP or 0)
  12 the move's two-ply value relative to the best move's, in [-1, 0]: the two-ply value is the
     evaluation after the opponent's best reply (a minimum over every reply, finished games
     scoring +-``OUTCOME_VALUE``), clipped from below at the best move's minus ``TWO_PLY_MARGIN``,
     and this feature is (clipped value - best) / ``TWO_PLY_MARGIN``
  13 the clipped two-ply value itself, scaled
and per position: 5 the best move's two-ply value, 6 the evaluation of the position itself.
Why: a learned weighting of the Queen features alone stays far below a 1-ply search over the
alpha-beta evaluation, and a 1-ply search over it (the argmax of feature 11) scores ~0.4 against
`alphabeta:1` (which extends threats on the Queen), while the argmax of the two-ply value scores
~0.8 (docs/training.md). The clip is what makes the two-ply value affordable: once a reply
refutes a move by more than the margin the other replies need not be evaluated (the result is
the same whichever order the moves are tried in). Cost: ~1.5-2 ms per position on one core
(feature set 1: ~0.2 ms).
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

from hive_envs.hive import encoding as E
from hive_envs.hive.engine.alphabeta import static_order
from hive_envs.hive.engine.evaluation import EVAL_BUFFER_SIZE, evaluate
from hive_envs.hive.engine.heuristics import queen_margin
from hive_envs.hive.engine.movegen import MAX_MOVES, generate_moves
from hive_envs.hive.engine.moves import PASS_MOVE, move_piece
from hive_envs.hive.engine.options import HiveOptions
from hive_envs.hive.engine.pieces import NUM_PIECE_SLOTS
from hive_envs.hive.engine.rules import UNDO_SIZE, apply_move, queen_neighbours, undo_move
from hive_envs.hive.engine.state import (
    I_STATUS,
    I_TO_MOVE,
    PCELL,
    STATUS_DRAW,
    STATUS_IN_PROGRESS,
    STATUS_WHITE_WINS,
)
from hive_envs.hive.engine.workspace import new_workspace

ACTION_FEATURES = 11
POSITION_FEATURES = 5
MOBILITY_SCALE = 64.0

EVAL_ACTION_FEATURES = 14
EVAL_POSITION_FEATURES = 7
FEATURE_SETS = {1: (ACTION_FEATURES, POSITION_FEATURES), 2: (EVAL_ACTION_FEATURES, EVAL_POSITION_FEATURES)}
"""Feature set -> (features per action, features per position)."""
EVAL_SCALE = 100.0
EVAL_CLIP = 4.0
TWO_PLY_MARGIN = 40.0
OUTCOME_VALUE = 10_000.0


@njit(cache=True)
def _outcome_for(s, colour):
    """+1 if ``colour`` has won, -1 if lost, 0 for a draw (the game must be over)."""
    status = s[I_STATUS]
    if status == STATUS_DRAW:
        return 0
    winner = 0 if status == STATUS_WHITE_WINS else 1
    return 1 if winner == colour else -1


@njit(cache=True)
def _reply_features(s, w, moves, rec, me):
    """(worst greedy score for ``me`` over the opponent's replies, opponent can win, reply count)."""
    count = generate_moves(s, w, moves)
    worst = 6.0
    can_win = 0.0
    for j in range(count):
        apply_move(s, moves[j], rec)
        if s[I_STATUS] == STATUS_IN_PROGRESS:
            score = float(queen_margin(s, me))
        else:
            outcome = _outcome_for(s, me)
            score = 6.0 * outcome
            if outcome < 0:
                can_win = 1.0
        worst = min(worst, score)
        undo_move(s, rec)
    return worst, can_win, count


@njit(cache=True)
def _scaled(value):
    return min(EVAL_CLIP, max(-EVAL_CLIP, value / EVAL_SCALE))


@njit(cache=True)
def _finished_value(s, me):
    return OUTCOME_VALUE * _outcome_for(s, me)


@njit(cache=True)
def _best_reply_value(s, w, replies, buffer, rec, me, floor, killer):
    """(the evaluation for ``me`` after the opponent's best reply, the reply) in position ``s``
    (the opponent to move), stopping at the first reply that brings it below ``floor``. The
    replies are tried in the alpha-beta's static order (threats on ``me``'s Queen first), the
    ``killer`` (the reply that refuted the previous move) before all."""
    count = generate_moves(s, w, replies)
    keys = np.empty(count, dtype=np.int64)
    for j in range(count):
        keys[j] = 100 if replies[j] == killer else static_order(s, replies[j])
    order = np.argsort(-keys, kind="mergesort")
    value, refutation = np.inf, -1
    for k in range(count):
        reply = replies[order[k]]
        apply_move(s, reply, rec)
        if s[I_STATUS] != STATUS_IN_PROGRESS:
            x = _finished_value(s, me)
        else:
            x = float(evaluate(s, w, buffer))
        undo_move(s, rec)
        if x < value:
            value, refutation = x, reply
            if value < floor:
                break
    return value, refutation


@njit(cache=True)
def _evaluation_features(s, w, moves, count, replies, rec, rec2, features, position):
    """Feature set 2's columns 11-13 of each of the ``count`` legal ``moves`` and position[5:7]."""
    me = s[I_TO_MOVE]
    buffer = np.empty(EVAL_BUFFER_SIZE, dtype=np.int32)
    one = np.empty(count)
    for i in range(count):
        apply_move(s, moves[i], rec)
        if s[I_STATUS] != STATUS_IN_PROGRESS:
            one[i] = _finished_value(s, me)
        else:
            one[i] = -float(evaluate(s, w, buffer))
        undo_move(s, rec)
        features[i, 11] = _scaled(one[i])
    position[6] = _scaled(float(evaluate(s, w, buffer)))
    # Best moves by one ply first, so the running best is high early and refutations come soon.
    order = np.argsort(-one, kind="mergesort")
    two = np.empty(count)
    best, killer = -np.inf, -1
    for k in range(count):
        i = order[k]
        apply_move(s, moves[i], rec)
        if s[I_STATUS] != STATUS_IN_PROGRESS:
            two[i] = _finished_value(s, me)
        else:
            two[i], refutation = _best_reply_value(
                s, w, replies, buffer, rec2, me, best - TWO_PLY_MARGIN, killer
            )
            if two[i] < best - TWO_PLY_MARGIN:
                killer = refutation
        undo_move(s, rec)
        best = max(best, two[i])
    for i in range(count):
        clipped = max(two[i], best - TWO_PLY_MARGIN)
        features[i, 12] = (clipped - best) / TWO_PLY_MARGIN
        features[i, 13] = _scaled(clipped)
    position[5] = _scaled(best)


@njit(cache=True)
def _position_features(
    obs,
    template,
    grid,
    n_tiles,
    engine_slot,
    slot_of,
    n_kinds,
    w,
    moves,
    replies,
    actions,
    features,
    position,
):
    """Features of one observation; returns its number of legal actions (see the module doc)."""
    s = template.copy()
    E.decode_observation(obs, grid, n_tiles, engine_slot, n_kinds, s)
    frame = np.empty(E.FRAME_SIZE, dtype=np.int32)
    E.hive_frame(s, grid, frame)
    rec = np.empty(UNDO_SIZE, dtype=np.int32)
    rec2 = np.empty(UNDO_SIZE, dtype=np.int32)
    count = generate_moves(s, w, moves)
    me = s[I_TO_MOVE]
    own_before = queen_neighbours(s, me)
    opp_before = queen_neighbours(s, 1 - me)
    position[0] = own_before / 6.0
    position[1] = opp_before / 6.0
    position[2] = count / MOBILITY_SCALE
    position[3] = 1.0 if s[PCELL + me * NUM_PIECE_SLOTS] >= 0 else 0.0
    position[4] = 1.0 if s[PCELL + (1 - me) * NUM_PIECE_SLOTS] >= 0 else 0.0
    if count > actions.shape[0]:
        return count
    for i in range(count):
        move = moves[i]
        actions[i] = E.move_id_to_action(s, move, frame, grid, n_tiles, slot_of)
        f = features[i]
        f[:] = 0.0
        f[0] = 1.0
        if move != PASS_MOVE and s[PCELL + move_piece(move)] < 0:
            f[7] = 1.0
        apply_move(s, move, rec)
        own_after = queen_neighbours(s, me)
        opp_after = queen_neighbours(s, 1 - me)
        f[1] = (opp_after - own_after) / 6.0
        f[2] = (opp_after - opp_before) / 6.0
        f[3] = (own_after - own_before) / 6.0
        if s[I_STATUS] != STATUS_IN_PROGRESS:
            outcome = _outcome_for(s, me)
            if outcome > 0:
                f[4] = 1.0
            elif outcome < 0:
                f[5] = 1.0
            else:
                f[6] = 1.0
        else:
            worst, can_win, replies_count = _reply_features(s, w, replies, rec2, me)
            f[8] = worst / 6.0
            f[9] = can_win
            f[10] = replies_count / MOBILITY_SCALE
        undo_move(s, rec)
    if features.shape[1] > ACTION_FEATURES:
        _evaluation_features(s, w, moves, count, replies, rec, rec2, features, position)
    return count


@njit(cache=True, parallel=True)
def _batch_features(
    obs,
    template,
    grid,
    n_tiles,
    engine_slot,
    slot_of,
    n_kinds,
    workspaces,
    actions,
    features,
    position,
    counts,
):
    """Rows in parallel: worker c takes rows c, c + T, ... with its own workspace (T workspaces)."""
    lanes = workspaces.shape[0]
    for c in prange(lanes):
        moves = np.empty(MAX_MOVES, dtype=np.int32)
        replies = np.empty(MAX_MOVES, dtype=np.int32)
        for b in range(c, obs.shape[0], lanes):
            counts[b] = _position_features(
                obs[b], template, grid, n_tiles, engine_slot, slot_of, n_kinds, workspaces[c], moves,
                replies, actions[b], features[b], position[b],
            )  # fmt: skip


class HiveRuleFeatures:
    """Callable: observations (B, P, C, C) uint8 of one game type -> per-action rule features.

    Returns ``(actions, features, position)``: ``actions`` int64 (B, K) the legal action indices
    of each row (K = the largest legal count in the batch; shorter rows are padded with
    ``num_actions``, one past the last action), ``features`` float32 (B, K, F) (padding rows all
    zero), ``position`` float32 (B, G), where (F, G) = ``FEATURE_SETS[feature_set]``: (11, 5) for
    feature set 1, (14, 7) for feature set 2 (the module doc).
    """

    def __init__(
        self, expansions: str, tournament_opening: bool, max_turns: int | None, feature_set: int = 1
    ):
        if feature_set not in FEATURE_SETS:
            raise ValueError(f"feature_set must be one of {sorted(FEATURE_SETS)}, got {feature_set!r}")
        self.action_features, self.position_features = FEATURE_SETS[feature_set]
        self.encoding = E.make_encoding(expansions)
        self.template = HiveOptions(expansions, bool(tournament_opening), max_turns or None).new_state()
        # one move-generator workspace per thread numba may use for the rows (`_batch_features`)
        self.workspaces = np.stack([new_workspace() for _ in range(numba.config.NUMBA_NUM_THREADS)])
        self.capacity = 256

    def __call__(self, observations: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        obs = np.ascontiguousarray(observations, dtype=np.uint8)
        enc = self.encoding
        if obs.ndim != 4 or obs.shape[1:] != enc.obs_shape:
            raise ValueError(f"expected Hive observations (B, {enc.obs_shape}), got shape {obs.shape}")
        rows = obs.shape[0]
        counts = np.zeros(rows, dtype=np.int64)
        position = np.zeros((rows, self.position_features), dtype=np.float32)
        while True:
            actions = np.full((rows, self.capacity), enc.num_actions, dtype=np.int64)
            features = np.zeros((rows, self.capacity, self.action_features), dtype=np.float32)
            _batch_features(
                obs, self.template, enc.grid, enc.tiles_per_colour, enc.engine_slot, enc.slot_of,
                len(enc.kinds), self.workspaces, actions, features, position, counts,
            )  # fmt: skip
            if rows == 0 or counts.max() <= self.capacity:
                break
            self.capacity = int(counts.max())  # a rare wide position: redo with room for it
        width = max(int(counts.max()) if rows else 0, 1)
        return actions[:, :width], features[:, :width], position
