"""What a Hive move does next to the two Queens, for the alpha-beta's move order and its quiescence
search (compiled).

The static order (`static_order`, higher first) ranks a move before any search by what it does next to
each Queen in play, from 4: +3 for a move that brings a piece next to the opponent's Queen (from the
hand or from a cell not touching it), -3 for one that takes a piece away from it; for the mover's own
Queen (moved by another piece) +1 for a move away from it, -1 for one that comes next to it. A pass
ranks 0. The search ranks each node's moves with the Queens' rings stamped once per node
(`mark_queen_rings`, `marked_order`: the same ranks); its quiescence search plays only the attacking
moves (`attacking_moves`).
"""

from hive_envs.hive.engine.grid import NEIGHBOURS
from hive_envs.hive.engine.jit import inline_kernel, kernel
from hive_envs.hive.engine.moves import PASS_MOVE, move_cell, move_piece
from hive_envs.hive.engine.pieces import NUM_PIECE_SLOTS
from hive_envs.hive.engine.state import HEIGHT, I_TO_MOVE, PCELL


@kernel
def _touches(a, b):
    for d in range(6):
        if NEIGHBOURS[a * 6 + d] == b:
            return True
    return False


@inline_kernel
def _move_ends(s, move):
    """(piece, origin, destination) of a move that is not a pass: the origin is -1 for a placement."""
    piece = move_piece(move)
    return piece, s[PCELL + piece], move_cell(move)


@inline_kernel
def _rank(is_queen, origin, enemy_in, own_in, dest_enemy, origin_enemy, dest_own, origin_own):
    """`static_order` from what the move does next to each Queen (``*_enemy`` / ``*_own``: the
    destination or origin cell touches the opponent's / the mover's Queen, which is in play if
    ``enemy_in`` / ``own_in``; ``origin`` -1 for a placement)."""
    rank = 4
    if enemy_in:
        if dest_enemy and (origin < 0 or not origin_enemy):
            rank += 3
        elif origin >= 0 and origin_enemy and not dest_enemy:
            rank -= 3
    if own_in and not is_queen:
        if origin >= 0 and origin_own and not dest_own:
            rank += 1
        elif dest_own:
            rank -= 1
    return rank


@kernel
def static_order(s, move):
    """Cheap a-priori rank of a move (higher first): see the module docstring (also the rule features'
    order of replies, `hive_envs.hive.rule_features`)."""
    if move == PASS_MOVE:
        return 0
    piece, origin, dest = _move_ends(s, move)
    me = s[I_TO_MOVE]
    enemy_queen = s[PCELL + (1 - me) * NUM_PIECE_SLOTS]
    own_queen = s[PCELL + me * NUM_PIECE_SLOTS]
    enemy_in, own_in = enemy_queen >= 0, own_queen >= 0
    return _rank(
        piece == me * NUM_PIECE_SLOTS,
        origin,
        enemy_in,
        own_in,
        enemy_in and _touches(dest, enemy_queen),
        enemy_in and origin >= 0 and _touches(origin, enemy_queen),
        own_in and _touches(dest, own_queen),
        own_in and origin >= 0 and _touches(origin, own_queen),
    )


@kernel
def mark_queen_rings(s, near, stamp):
    """``near[0, c] = stamp`` for the cells c touching the opponent's Queen, ``near[1, c]`` for the
    mover's (the stamp is new at every node, so nothing is cleared)."""
    me = s[I_TO_MOVE]
    for side in range(2):
        queen = s[PCELL + (1 - me if side == 0 else me) * NUM_PIECE_SLOTS]
        if queen >= 0:
            for d in range(6):
                near[side, NEIGHBOURS[queen * 6 + d]] = stamp


@kernel
def attacking_moves(s, moves, n, near, stamp):
    """Keep at the front of ``moves`` (``n`` of them) the moves that bring a piece next to the opponent's
    Queen on an empty cell (from a cell not touching it, or from the hand) or onto the Queen itself; returns
    how many: the quiescence search's moves (`negamax`). ``near`` is stamped for this node (`mark_queen_rings`)."""
    me = s[I_TO_MOVE]
    enemy_queen = s[PCELL + (1 - me) * NUM_PIECE_SLOTS]
    if enemy_queen < 0:
        return 0
    kept = 0
    for i in range(n):
        m = moves[i]
        if m == PASS_MOVE:
            continue
        _, origin, dest = _move_ends(s, m)
        if dest == enemy_queen or (
            near[0, dest] == stamp and s[HEIGHT + dest] == 0 and (origin < 0 or near[0, origin] != stamp)
        ):
            moves[kept] = m
            kept += 1
    return kept


@kernel
def marked_order(s, move, near, stamp):
    """`static_order` with the Queens' neighbours looked up in ``near`` (`mark_queen_rings`)."""
    if move == PASS_MOVE:
        return 0
    piece, origin, dest = _move_ends(s, move)
    me = s[I_TO_MOVE]
    return _rank(
        piece == me * NUM_PIECE_SLOTS,
        origin,
        s[PCELL + (1 - me) * NUM_PIECE_SLOTS] >= 0,
        s[PCELL + me * NUM_PIECE_SLOTS] >= 0,
        near[0, dest] == stamp,
        origin >= 0 and near[0, origin] == stamp,
        near[1, dest] == stamp,
        origin >= 0 and near[1, origin] == stamp,
    )
