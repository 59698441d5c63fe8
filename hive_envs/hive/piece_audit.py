"""The pieces observation read independently of its kernel: the reference the conformance checker uses.

`reference_observation` rebuilds the documented rows (`hive_envs.hive_v0`) from the public API of
`HiveGame` alone (``stacks()``, ``reserve``, ``last_moved``, the legal move ids, the counters), by plain
loops over plane coordinates: the hive's frame centre from its bounding box, pins by removing a cell
and flood-filling the rest. `audit` compares an observation with it and checks every legal action's
(tile row, destination) in the encoding's `action_table` against the engine move the action maps to.
`hive_envs.testing` calls it through `HivePiecesEncoding.audit_observation`.
"""

from __future__ import annotations

import numpy as np

from hive_envs.hive.engine.grid import DIRECTIONS, ORIGIN, qr_to_cell
from hive_envs.hive.engine.moves import PASS_MOVE, move_cell, move_piece
from hive_envs.hive.engine.pieces import BUG_LETTERS, PIECE_NAMES
from hive_envs.hive.piece_layout import (
    G_IN_HAND_OWN,
    G_LAST_PLY_PASS,
    G_LEGAL_ACTIONS,
    G_MUST_PASS,
    G_PLIES_LEFT,
    G_PLY,
    G_QUEEN_BARRED_OWN,
    G_QUEEN_DUE_OWN,
    G_QUEEN_NEIGHBOURS_OWN,
    G_TO_MOVE,
    G_TOURNAMENT_OPENING,
    G_TURNS_OWN,
    GLOBAL_FIELDS,
    P_ABOVE,
    P_COLOUR,
    P_HEIGHT,
    P_KIND,
    P_LAST_MOVED,
    P_MOVABLE,
    P_NEIGHBOURS,
    P_PINNED,
    P_PLACED,
    P_Q,
    P_R,
    P_UNDER,
    PIECE_FIELDS,
    SATURATED,
)


def _splits(cells: set[tuple[int, int]], cell: tuple[int, int]) -> bool:
    """Whether removing ``cell`` leaves the other occupied ``cells`` disconnected (flood fill)."""
    rest = cells - {cell}
    if not rest:
        return False
    start = next(iter(rest))
    seen, todo = {start}, [start]
    while todo:
        q, r = todo.pop()
        for dq, dr in DIRECTIONS:
            other = (q + dq, r + dr)
            if other in rest and other not in seen:
                seen.add(other)
                todo.append(other)
    return len(seen) != len(rest)


def _centre(stacks: dict) -> tuple[int, int]:
    """The middle (rounded down) of the hive's q- and r-extent; (0, 0) for the empty board."""
    if not stacks:
        return 0, 0
    qs = [q for q, _ in stacks]
    rs = [r for _, r in stacks]
    return min(qs) + (max(qs) - min(qs)) // 2, min(rs) + (max(rs) - min(rs)) // 2


def reference_observation(encoding, game, seat: int) -> np.ndarray:
    """``seat``'s piece observation of ``game`` (a `HiveGame`), computed the slow, obvious way.

    ``encoding``: the `hive_envs.hive.piece_encoding.HivePiecesEncoding` of the game type (its sizes and
    slots are read; `audit` also reads its ``row_names``, ``action_table`` and ``move_to_action``)."""
    n = encoding.tiles_per_colour
    slots = [PIECE_NAMES[s][1:] for s in encoding.engine_slot]
    own = "wb"[seat]

    def row(name: str) -> int:
        return (0 if name[0] == own else n) + slots.index(name[1:])

    out = np.zeros(encoding.observation_shape, dtype=np.int16)
    out[: 2 * n, [P_UNDER, P_ABOVE, *range(P_NEIGHBOURS, P_NEIGHBOURS + 6)]] = -1
    for letter in "wb":
        for slot in slots:
            out[row(letter + slot), P_KIND] = BUG_LETTERS.index(slot[0])
            out[row(letter + slot), P_COLOUR] = int(letter != own)
    stacks = game.stacks()
    q0, r0 = _centre(stacks)
    cells = set(stacks)
    for (q, r), names in stacks.items():
        for level, name in enumerate(names):
            i = row(name)
            out[i, [P_PLACED, P_Q, P_R, P_HEIGHT]] = (1, q - q0, r - r0, level + 1)
            out[i, P_UNDER] = row(names[level - 1]) if level > 0 else -1
            out[i, P_ABOVE] = row(names[level + 1]) if level + 1 < len(names) else -1
            out[i, P_PINNED] = int(len(names) == 1 and _splits(cells, (q, r)))
            out[i, P_LAST_MOVED] = int(name == game.last_moved)
            for d, (dq, dr) in enumerate(DIRECTIONS):
                nearby = stacks.get((q + dq, r + dr))
                out[i, P_NEIGHBOURS + d] = row(nearby[-1]) if nearby else -1
    moves = game.legal_move_ids()
    for move in moves.tolist():
        if move != PASS_MOVE:
            out[row(PIECE_NAMES[move_piece(move)]), P_MOVABLE] = 1
    g = 2 * n
    ply = game.ply
    out[g, G_TO_MOVE] = int(game.to_move == seat)
    out[g, G_LAST_PLY_PASS] = int(game.passes_in_a_row > 0)
    for side, colour in enumerate((seat, 1 - seat)):
        turns = len(range(colour, ply, 2))  # the plies of this colour so far: White's are the even ones
        out[g, G_QUEEN_DUE_OWN + side] = int("wb"[colour] + "Q" in game.reserve(colour) and turns == 3)
        out[g, G_TURNS_OWN + side] = min(turns, SATURATED)
    out[g, G_PLY] = min(ply, SATURATED)
    cap = game.max_turns
    out[g, G_PLIES_LEFT] = SATURATED if cap is None else max(0, min(SATURATED, cap - ply))
    out[g, G_LEGAL_ACTIONS] = len(moves)
    out[g, G_MUST_PASS] = int(moves.tolist() == [PASS_MOVE])
    out[g, G_TOURNAMENT_OPENING] = int(game.tournament_opening)
    where = {name: qr for qr, names in stacks.items() for name in names}
    for side, colour in enumerate((seat, 1 - seat)):
        queen = where.get("wb"[colour] + "Q")
        around = 0 if queen is None else sum((queen[0] + dq, queen[1] + dr) in cells for dq, dr in DIRECTIONS)
        out[g, G_QUEEN_NEIGHBOURS_OWN + side] = around
        out[g, G_IN_HAND_OWN + side] = len(game.reserve(colour))
        out[g, G_QUEEN_BARRED_OWN + side] = int(game.tournament_opening and out[g, G_TURNS_OWN + side] == 0)
    return out


def _plane_cells(stacks: dict) -> dict[int, tuple[int, int]]:
    """Engine cell -> plane coordinates, for every occupied cell and every neighbour of one."""
    if not stacks:
        return {ORIGIN: (0, 0)}
    cells = {}
    for q, r in stacks:
        for dq, dr in ((0, 0), *DIRECTIONS):
            cells[qr_to_cell(q + dq, r + dr)] = (q + dq, r + dr)
    return cells


def audit(encoding, game, seat: int, observation: np.ndarray) -> str | None:
    """What in ``observation`` (``seat``'s, of ``game``) disagrees with `reference_observation`, and
    for the player to move, which legal action's `action_table` row is not the (tile row, destination)
    of the engine move it maps to; None when nothing does."""
    want = reference_observation(encoding, game, seat)
    observation = np.asarray(observation)
    if observation.shape != want.shape:
        return f"the observation has shape {observation.shape}, not {want.shape}"
    wrong = np.argwhere(observation != want)
    if wrong.size:
        i, j = (int(x) for x in wrong[0])
        names = encoding.row_names()
        field = PIECE_FIELDS[j] if i < len(names) - 1 else GLOBAL_FIELDS[j]
        return f"row {names[i]}, field {field}: {int(observation[i, j])}, the game says {int(want[i, j])}"
    if seat != game.to_move or game.is_terminal:
        return None
    stacks = game.stacks()
    q0, r0 = _centre(stacks)
    planes = _plane_cells(stacks)
    own = "wb"[seat]
    slots = [PIECE_NAMES[s][1:] for s in encoding.engine_slot]
    for move in game.legal_move_ids().tolist():
        action = encoding.move_to_action(game, move)
        entry = tuple(int(x) for x in encoding.action_table[action])
        if move == PASS_MOVE:
            expected = (-1, 0, 0)
        else:
            name = PIECE_NAMES[move_piece(move)]
            q, r = planes[move_cell(move)]
            expected = (
                (0 if name[0] == own else encoding.tiles_per_colour) + slots.index(name[1:]),
                q - q0,
                r - r0,
            )
        if entry != expected:
            return f"action {action} ({game.move_name(move)}) is (row, q, r) {entry} in action_table, the move is {expected}"
    return None
