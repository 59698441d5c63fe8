"""Two-ply rule features of a Hive position: what the rules say each legal move does (one kernel).

Why: Hive is won by surrounding the opponent's Queen, and whether a move adds or removes a
Queen neighbour, wins at once, or lets the opponent win or close in on the mover's Queen is a
non-local function of the board (the piece leaves one cell and lands on another, a slide or a
climb many cells away). A convolutional trunk trained from scratch on two CPU cores has to
discover all of that before it can aim at the Queen (docs/experiments/hive_rule_features.md). So a
network gets, for every legal action, what the rules say it does, and learns how to weigh it. These
are inputs, not a search: a policy still picks a move with one forward pass.

`state_features` computes them on an engine state with the engine's own kernels
(`generate_moves`, `apply_move`, `undo_move`; no second implementation of the rules), playing each
move and each reply. Two users share it: the Hive network's `HiveRuleFeatures`
(`hive_envs.hive.agent.features`, on observations decoded back to states) and the Gymnasium envs'
``rule_features=True`` observation (`hive_envs.hive.feature_observation`, on the state the env
holds; `states_features` for a batch of states). This module is below both (no torch, no
gymnasium).

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
what the alpha-beta player's static evaluation (`hive_envs.hive.search.evaluation`: Queen
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
alpha-beta evaluation, and `alphabeta:1` extends threats on the Queen, which a 1-ply search over the
evaluation (the argmax of feature 11) does not see; the two-ply value does. The clip is what makes
the two-ply value affordable: once a reply refutes a move by more than the margin the other replies
need not be evaluated (the result is the same whichever order the moves are tried in). Cost: ~1.5-2
ms per position on one core (feature set 1: ~0.2 ms), almost all of it in the evaluations (two move
generations each): each move's replies are generated once for both sets' columns, and
``state_features`` can keep the evaluations in a cache (`new_evaluation_cache`, keyed by two 64-bit
hashes of what `evaluate` reads) that the positions of one search share: a node's two-ply positions
are its children's one-ply ones, and moves that commute meet again (in a 32-simulation search of
hive_base about 16% of the evaluations are hits). `best_two_ply_value` gives position feature 5
alone by a plain two-ply alpha-beta (a quarter of the evaluations): the value a search needs of a
leaf it has not yet gone through (`hive_envs.agents.search`, value first).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hive_envs.hive import encoding as E
from hive_envs.hive.engine.grid import NUM_CELLS
from hive_envs.hive.engine.heuristics import queen_margin
from hive_envs.hive.engine.movegen import MAX_MOVES, generate_moves
from hive_envs.hive.engine.moves import PASS_MOVE, move_piece
from hive_envs.hive.engine.pieces import NUM_PIECE_SLOTS, NUM_PIECES
from hive_envs.hive.engine.repetition import splitmix_finaliser
from hive_envs.hive.engine.rules import UNDO_SIZE, apply_move, queen_neighbours, undo_move
from hive_envs.hive.engine.state import (
    I_KINDS,
    I_LAST_MOVED,
    I_PLY,
    I_STATUS,
    I_TO_MOVE,
    I_TOURNAMENT,
    PCELL,
    PUNDER,
    STATUS_DRAW,
    STATUS_IN_PROGRESS,
    STATUS_WHITE_WINS,
)
from hive_envs.hive.search.evaluation import EVAL_BUFFER_SIZE, RULE_WEIGHTS, evaluate
from hive_envs.hive.search.ordering import static_order

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
EVALUATION_CACHE_SLOTS = 1 << 20
"""Default size of `new_evaluation_cache` (24 MiB): a 32-simulation search of 64 games evaluates about
1.3 million distinct positions."""


def feature_bounds() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(low, high) of each action feature, then of each position feature (float32, the module doc's
    tables): Queen-neighbour counts and margins / 6 lie in [-1, 1], move counts / 64 in
    [0, MAX_MOVES / 64], the rest are 0/1 flags."""
    action_low = np.zeros(ACTION_FEATURES, dtype=np.float32)
    action_low[[1, 2, 3, 8]] = -1.0
    action_high = np.ones(ACTION_FEATURES, dtype=np.float32)
    action_high[10] = MAX_MOVES / MOBILITY_SCALE
    position_low = np.zeros(POSITION_FEATURES, dtype=np.float32)
    position_high = np.ones(POSITION_FEATURES, dtype=np.float32)
    position_high[2] = MAX_MOVES / MOBILITY_SCALE
    return action_low, action_high, position_low, position_high


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
        worst, can_win = _reply_score(s, me, worst, can_win)
        undo_move(s, rec)
    return worst, can_win, count


@njit(cache=True, inline="always")
def _reply_score(s, me, worst, can_win):
    """`_reply_features`' running (worst, can_win) updated with the reply just played in ``s``."""
    if s[I_STATUS] == STATUS_IN_PROGRESS:
        score = float(queen_margin(s, me))
    else:
        outcome = _outcome_for(s, me)
        score = 6.0 * outcome
        if outcome < 0:
            can_win = 1.0
    return min(worst, score), can_win


@njit(cache=True)
def _scaled(value):
    return min(EVAL_CLIP, max(-EVAL_CLIP, value / EVAL_SCALE))


@njit(cache=True)
def _finished_value(s, me):
    return OUTCOME_VALUE * _outcome_for(s, me)


def new_evaluation_cache(slots: int = EVALUATION_CACHE_SLOTS) -> np.ndarray:
    """An empty evaluation cache for `state_features`: int64 (slots + 1, 3), ``slots`` a power of two
    (row i: two 64-bit keys of a position and its `evaluate` score; the last row counts lookups and
    hits). ``slots=0`` gives a cache that keeps nothing."""
    if slots < 0 or slots & (slots - 1):
        raise ValueError(f"evaluation cache slots must be 0 or a power of two, got {slots!r}")
    return np.zeros((slots + 1, 3), dtype=np.int64)


@njit(cache=True)
def _position_keys(s):
    """Two independent 64-bit hashes of everything `evaluate` reads in ``s``: each piece in play with
    its cell and the piece under it (which fixes the stacks), the ply, the player to move, the last
    moved piece and the game type."""
    scalars = (((s[I_PLY] * 2 + s[I_TO_MOVE]) * 64 + s[I_LAST_MOVED] + 1) * 512 + s[I_KINDS]) * 2
    scalars += s[I_TOURNAMENT]
    first = splitmix_finaliser(np.uint64(scalars) * np.uint64(0x9E3779B97F4A7C15))
    second = splitmix_finaliser(np.uint64(scalars) * np.uint64(0xD6E8FEB86659FD93))
    for p in range(NUM_PIECES):
        cell = s[PCELL + p]
        if cell >= 0:
            code = np.uint64(((p * NUM_CELLS + cell) * (NUM_PIECES + 1) + s[PUNDER + p] + 1) + 1)
            first ^= splitmix_finaliser(code * np.uint64(0x9E3779B97F4A7C15))
            second ^= splitmix_finaliser(code * np.uint64(0xD6E8FEB86659FD93))
    return np.int64(first), np.int64(second)


@njit(cache=True)
def _evaluation(s, w, buffer, cache):
    """``float(evaluate(s, w, buffer, RULE_WEIGHTS))``, through ``cache`` (`new_evaluation_cache`): a search asks
    for the same position again (a node's two-ply positions are its children's one-ply ones; moves
    that commute meet again), and a hit costs a hash instead of two move generations."""
    slots = cache.shape[0] - 1
    if slots <= 0:
        return float(evaluate(s, w, buffer, RULE_WEIGHTS))
    first, second = _position_keys(s)
    row = first & (slots - 1)
    cache[slots, 0] += 1
    if cache[row, 0] == first and cache[row, 1] == second:
        cache[slots, 1] += 1
        return float(cache[row, 2])
    value = evaluate(s, w, buffer, RULE_WEIGHTS)
    cache[row, 0] = first
    cache[row, 1] = second
    cache[row, 2] = value
    return float(value)


@njit(cache=True)
def _move_values(s, w, replies, scratch, me, floor, killer, cache):
    """After the mover's move (the opponent to move in ``s``), over the opponent's replies: set 1's
    (worst greedy score, can win, reply count) (every reply) and the evaluation for ``me`` after the
    opponent's best reply, with the reply, stopping that search at the first reply that brings it
    below ``floor``. The replies are tried in the alpha-beta's static order (threats on ``me``'s
    Queen first), the ``killer`` (the reply that refuted the previous move) before all.
    ``scratch``: (rec, evaluation buffer)."""
    rec, buffer = scratch
    count = generate_moves(s, w, replies)
    keys = np.empty(count, dtype=np.int64)
    for j in range(count):
        keys[j] = 100 if replies[j] == killer else static_order(s, replies[j])
    order = np.argsort(-keys, kind="mergesort")
    worst, can_win = 6.0, 0.0
    value, refutation, searching = np.inf, -1, True
    for k in range(count):
        reply = replies[order[k]]
        apply_move(s, reply, rec)
        worst, can_win = _reply_score(s, me, worst, can_win)
        if searching:
            if s[I_STATUS] != STATUS_IN_PROGRESS:
                x = _finished_value(s, me)
            else:
                x = _evaluation(s, w, buffer, cache)
            if x < value:
                value, refutation = x, reply
                searching = value >= floor
        undo_move(s, rec)
    return worst, can_win, count, value, refutation


@njit(cache=True)
def _one_ply_values(s, w, moves, count, rec, buffer, me, cache):
    """The evaluation for ``me`` (on move in ``s``) after each of the ``count`` ``moves``, a finished
    game scoring +-`OUTCOME_VALUE` or 0."""
    one = np.empty(count)
    for i in range(count):
        apply_move(s, moves[i], rec)
        if s[I_STATUS] != STATUS_IN_PROGRESS:
            one[i] = _finished_value(s, me)
        else:
            one[i] = -_evaluation(s, w, buffer, cache)
        undo_move(s, rec)
    return one


@njit(cache=True)
def _evaluation_features(s, w, moves, count, replies, rec, rec2, features, position, cache):
    """Feature set 2's columns 11-13 of each of the ``count`` legal ``moves`` and position[5:7], and
    set 1's reply columns 8-10 on the way (one generation of each move's replies for both)."""
    me = s[I_TO_MOVE]
    buffer = np.empty(EVAL_BUFFER_SIZE, dtype=np.int32)
    one = _one_ply_values(s, w, moves, count, rec, buffer, me, cache)
    for i in range(count):
        features[i, 11] = _scaled(one[i])
    position[6] = _scaled(_evaluation(s, w, buffer, cache))
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
            floor = best - TWO_PLY_MARGIN
            worst, can_win, replies_count, two[i], refutation = _move_values(
                s, w, replies, (rec2, buffer), me, floor, killer, cache
            )
            features[i, 8] = worst / 6.0
            features[i, 9] = can_win
            features[i, 10] = replies_count / MOBILITY_SCALE
            if two[i] < floor:
                killer = refutation
        undo_move(s, rec)
        best = max(best, two[i])
    for i in range(count):
        clipped = max(two[i], best - TWO_PLY_MARGIN)
        features[i, 12] = (clipped - best) / TWO_PLY_MARGIN
        features[i, 13] = _scaled(clipped)
    position[5] = _scaled(best)


_TRIED = -(1 << 62)
"""The mark `_next_reply` leaves on a reply already tried (below every `static_order` rank)."""


@njit(cache=True, inline="always")
def _next_reply(keys, count):
    """Index of the untried reply ranked first in ``keys`` (ties: the lower index), marked tried."""
    top = -1
    for j in range(count):
        if keys[j] != _TRIED and (top < 0 or keys[j] > keys[top]):
            top = j
    keys[top] = _TRIED
    return top


@njit(cache=True)
def _refuted_value(s, w, replies, keys, scratch, me, bound, killer, cache):
    """After the mover's move (the opponent to move in ``s``): (the evaluation for ``me`` after the
    opponent's best reply, that reply), the replies tried in `_move_values`' order and the search
    stopped at the first reply that brings the value to ``bound`` or below (the value is then an upper
    bound, not the minimum). The next reply is picked by a scan of ``keys`` (scratch, `MAX_MOVES`), not
    a sort: most moves are refuted by their first or second reply (12% less time than a sort)."""
    rec, buffer = scratch
    count = generate_moves(s, w, replies)
    for j in range(count):
        keys[j] = 100 if replies[j] == killer else static_order(s, replies[j])
    value, refutation = np.inf, -1
    for _ in range(count):
        reply = replies[_next_reply(keys, count)]
        apply_move(s, reply, rec)
        if s[I_STATUS] != STATUS_IN_PROGRESS:
            x = _finished_value(s, me)
        else:
            x = _evaluation(s, w, buffer, cache)
        undo_move(s, rec)
        if x < value:
            value, refutation = x, reply
            if value <= bound:
                break
    return value, refutation


@njit(cache=True)
def best_two_ply_value(s, w, moves, replies, cache):
    """Feature set 2's best two-ply value of the unfinished position ``s`` (what ``position[5]`` of
    `state_features` holds before scaling: the largest, over the mover's moves, of the evaluation
    after the opponent's best reply), by a two-ply alpha-beta: a move's replies are searched only
    until one shows it is no better than the best so far. The same number as `state_features`' (the
    same evaluations, through the same ``cache``), for a fraction of the evaluations: a search that
    needs only a new leaf's value (`hive_envs.agents.search`) skips the per-move columns."""
    me = s[I_TO_MOVE]
    buffer = np.empty(EVAL_BUFFER_SIZE, dtype=np.int32)
    rec = np.empty(UNDO_SIZE, dtype=np.int32)
    rec2 = np.empty(UNDO_SIZE, dtype=np.int32)
    keys = np.empty(MAX_MOVES, dtype=np.int64)
    count = generate_moves(s, w, moves)
    one = _one_ply_values(s, w, moves, count, rec, buffer, me, cache)
    order = np.argsort(-one, kind="mergesort")
    best, killer = -np.inf, -1
    for k in range(count):
        apply_move(s, moves[order[k]], rec)
        if s[I_STATUS] != STATUS_IN_PROGRESS:
            value = _finished_value(s, me)
        else:
            value, refutation = _refuted_value(s, w, replies, keys, (rec2, buffer), me, best, killer, cache)
            if value <= best:
                killer = refutation
        undo_move(s, rec)
        best = max(best, value)
    return best


@njit(cache=True)
def scaled_best_two_ply_value(s, w, moves, replies, cache):
    """`best_two_ply_value` in the units of ``position[5]`` (/ `EVAL_SCALE`, clipped to +-`EVAL_CLIP`)."""
    return _scaled(best_two_ply_value(s, w, moves, replies, cache))


@njit(cache=True)
def state_features(s, grid, n_tiles, slot_of, w, moves, replies, actions, features, position, cache):
    """Features of the position in engine state ``s`` (played on and restored: ``s`` ends unchanged).

    Writes ``position`` and, for each legal move i (in `generate_moves` order), ``actions[i]`` (its
    action index) and ``features[i]`` when ``actions`` has room for all of them; returns the number of
    legal moves. ``moves`` and ``replies`` are scratch buffers of `MAX_MOVES`. Feature set 2 when
    ``features`` has `EVAL_ACTION_FEATURES` columns (``position`` then `EVAL_POSITION_FEATURES`), its
    evaluations through ``cache`` (`new_evaluation_cache`; the values are the same without it).
    """
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
    two_ply = features.shape[1] > ACTION_FEATURES
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
        elif not two_ply:  # set 2 fills the reply columns in its own pass over the replies
            worst, can_win, replies_count = _reply_features(s, w, replies, rec2, me)
            f[8] = worst / 6.0
            f[9] = can_win
            f[10] = replies_count / MOBILITY_SCALE
        undo_move(s, rec)
    if two_ply:
        _evaluation_features(s, w, moves, count, replies, rec, rec2, features, position, cache)
    return count


@njit(cache=True)
def states_features(states, grid, n_tiles, slot_of, w, actions, features, position, counts):
    """`state_features` of each state (row) of ``states``; ``counts[b]`` its number of legal moves."""
    moves = np.empty(MAX_MOVES, dtype=np.int32)
    replies = np.empty(MAX_MOVES, dtype=np.int32)
    cache = np.zeros((1, 3), dtype=np.int64)  # keeps nothing: rows of unrelated games
    for b in range(states.shape[0]):
        counts[b] = state_features(
            states[b], grid, n_tiles, slot_of, w, moves, replies, actions[b], features[b], position[b], cache
        )
