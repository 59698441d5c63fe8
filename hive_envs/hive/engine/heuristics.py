"""The Hive engine's built-in judgement of positions and moves (the one definition of each).

- `queen_margin(s, seat)`: occupied cells around the opponent's Queen minus those around ``seat``'s
  own Queen (a Queen not in play counts 0), in [-6, 6]. Hive is won by surrounding the Queen, so
  this is the natural progress measure: the greedy player maximises it, the trainer's reward
  shaping uses it (divided by 6) as a potential, the arena reports it for drawn games.
- `greedy_score(s, move, rec)`: the 1-ply score of a legal move for the player to move:
  ``WIN_SCORE`` if it wins at once, ``-WIN_SCORE`` if it loses at once, 0 if it draws, else the
  mover's `queen_margin` after it. The move is applied to ``s`` and undone (``s`` ends unchanged).
  The optional repetition draw is not looked ahead (it lives in `HiveGame`, not in the state).

Numba kernels over the flat state, so `HiveGame`, `HiveBatch` (per game, inside its compiled step)
and the Hive network's rule features share them.
"""

import numpy as np
from numba import njit

from hive_envs.hive.engine.rules import UNDO_SIZE, apply_move, queen_neighbours, undo_move
from hive_envs.hive.engine.state import (
    I_STATUS,
    I_TO_MOVE,
    STATUS_BLACK_WINS,
    STATUS_DRAW,
    STATUS_IN_PROGRESS,
    STATUS_WHITE_WINS,
)

WIN_SCORE = 100
"""Score of a move that wins at once; a move that loses at once scores -WIN_SCORE, a draw 0.
The Queen margin lies in [-6, 6], so these dominate it."""
MAX_QUEEN_MARGIN = 6
POTENTIAL_NAME = "queen_margin"
"""The name of Hive's potential (`HiveGame.potential`: `queen_margin` / 6) in the envs' `reward_shaping`."""


@njit(cache=True)
def queen_margin(s, seat):
    """Occupied cells around the opponent's Queen minus those around ``seat``'s Queen."""
    return queen_neighbours(s, 1 - seat) - queen_neighbours(s, seat)


@njit(cache=True)
def greedy_score(s, move, rec):
    """1-ply score of ``move`` for the player to move in ``s`` (``rec``: an undo record buffer)."""
    me = s[I_TO_MOVE]
    apply_move(s, move, rec)
    status = s[I_STATUS]
    if status == STATUS_IN_PROGRESS:
        score = queen_margin(s, me)
    elif status == STATUS_DRAW:
        score = 0
    elif status == (STATUS_WHITE_WINS if me == 0 else STATUS_BLACK_WINS):
        score = WIN_SCORE
    else:
        score = -WIN_SCORE
    undo_move(s, rec)
    return score


@njit(cache=True)
def greedy_scores(s, moves, out):
    """``out[k]`` = `greedy_score` of ``moves[k]``; ``s`` ends unchanged."""
    rec = np.empty(UNDO_SIZE, dtype=np.int32)
    for k in range(moves.shape[0]):
        out[k] = greedy_score(s, moves[k], rec)
