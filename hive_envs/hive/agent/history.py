"""What a game's history says about a move that the observation cannot: whether it repeats a position.

The env observations carry no history (they are Markov for the rules, which have no repetition
draw by default), so a network cannot see that a move returns to a position the game has already
been in. A deterministic policy that is ahead but has no plan within its horizon then shuffles a
piece back and forth until the 300-ply draw. The alpha-beta players score such
positions as draws inside their search; `AgentPlayer` uses `fresh_moves` to play its best move
that does not repeat a position (when one exists).

`fresh_moves(game, moves)`: for a Hive game, a bool per move, True if the position after it (board
and player to move, `repetition.position_key`) has not occurred in the game so far. It is Hive's
`GameDefinition.fresh_moves`; a game without this notion has none (Hoyito: captures make most
positions unrepeatable), and `GameDefinition.fresh` then gives None.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hive_envs.hive.engine.repetition import game_position_keys, position_key
from hive_envs.hive.engine.rules import UNDO_SIZE, apply_move, undo_move


@njit(cache=True)
def _fresh(state, seen, moves, out):
    """out[i] = the position after moves[i] is not among the sorted keys ``seen``."""
    rec = np.empty(UNDO_SIZE, dtype=np.int32)
    for i in range(moves.shape[0]):
        apply_move(state, moves[i], rec)
        key = position_key(state)
        j = np.searchsorted(seen, key)
        out[i] = not (j < seen.shape[0] and seen[j] == key)
        undo_move(state, rec)


def fresh_moves(game, moves: np.ndarray) -> np.ndarray:
    """See the module docstring; ``game`` is left unchanged."""
    with np.errstate(over="ignore"):  # the keys' uint64 arithmetic wraps by design (engine.repetition)
        seen = np.sort(game_position_keys(game.start_state, np.asarray(game.move_ids, dtype=np.int32)))
        out = np.zeros(len(moves), dtype=np.bool_)
        _fresh(game.state.copy(), seen, np.asarray(moves, dtype=np.int32), out)
    return out
