"""Compiled Hive rules kernels over a flat int32 state array (no Python objects on the hot path).

Layering (bottom up): `jit` (decorators), `grid` (torus, directions, neighbour/gate tables) ->
`pieces` (ids, kinds) -> `state` (array layout, put/lift) -> `rules` (apply/undo, end of game) ->
`workspace` (scratch) -> `pins` (articulation points) -> `movegen` (legal moves) -> `perft_kernel`,
`playout` (random games), `repetition` (position keys). The searches over these rules live beside
them in `hive_envs.hive.search`, which imports this package, never the other way round.

Kernel API (all numba ``@njit(cache=True)``, the non-allocating ones without reference counting,
see `hive_envs.hive.engine.jit`; also runnable with ``NUMBA_DISABLE_JIT=1``)::

    s = new_state(kinds_mask("MLP"), tournament_opening=True, max_turns=300)   # int32[STATE_SIZE]
    w = new_workspace()                                                        # int32[WORKSPACE_SIZE]
    out = np.empty(MAX_MOVES, np.int32)
    n = generate_moves(s, w, out)            # legal move ids in out[:n]; [PASS_MOVE] if forced; 0 if over
    rec = np.empty(UNDO_SIZE, np.int32)
    apply_move(s, out[0], rec); undo_move(s, rec)
    perft_kernel(s, w, depth); random_playout(s, w, seed, max_plies)

A batched stepper keeps one state row and one workspace row per game (``w`` is scratch only, so
one per thread suffices) and calls these kernels inside ``numba.prange``.
"""

from hive_envs.hive.engine.movegen import MAX_MOVES, generate_moves
from hive_envs.hive.engine.perft_kernel import perft_kernel
from hive_envs.hive.engine.pieces import kinds_mask
from hive_envs.hive.engine.playout import random_playout
from hive_envs.hive.engine.rules import NUM_MOVE_IDS, PASS_MOVE, UNDO_SIZE, apply_move, undo_move
from hive_envs.hive.engine.state import STATE_SIZE, new_state
from hive_envs.hive.engine.workspace import WORKSPACE_SIZE, new_workspace

__all__ = [
    "MAX_MOVES",
    "NUM_MOVE_IDS",
    "PASS_MOVE",
    "STATE_SIZE",
    "UNDO_SIZE",
    "WORKSPACE_SIZE",
    "apply_move",
    "generate_moves",
    "kinds_mask",
    "new_state",
    "new_workspace",
    "perft_kernel",
    "random_playout",
    "undo_move",
]
