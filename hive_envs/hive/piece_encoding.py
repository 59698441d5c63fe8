"""The piece-centred Hive observation (``observation="pieces"``): one int16 row per tile, one global row.

The layout is documented field by field in `hive_envs.hive_v0` (the env's documentation page). This
module holds the kernel that writes it (`encode_pieces_in_frame`: one compiled call per observation,
which the batch makes per game inside its step), the encoder of the envs (`HivePiecesEncoding`: the
actions, mask and frame of `hive_envs.hive.encoding` with this observation) and the fixed table of
each action's (tile row, destination).

Rows
----
Row ``i < 2N`` is tile slot ``i`` colour-relative to the observer (its own tiles first, each colour
in the slot order Q S1 S2 B1 B2 G1 G2 G3 A1 A2 A3 [M] [L] [P]): for the agent to move, row ``i`` is
the tile of the actions ``a`` with ``a // C^2 == i``. Fields that name a tile (the one beneath, the
one on top, the top tile of each neighbouring cell) hold its row, -1 for none. Row ``2N`` holds the
global scalars.

Coordinates
-----------
A placed tile's position is its cell in the planes' hive-centred frame, as axial ``(q, r)`` offsets
from the frame's centre cell ``(C/2, C/2)``, with every cell of interest (a tile's cell or a
neighbour of one) in ``[1 - C/2, C/2]`` exactly once. On each axis the frame puts an engine value at
``d - (span - 1) // 2`` from the centre, with ``span <= T = C - 2`` (`hive_envs.hive.encoding`) and
``d`` in ``[0, span - 1]`` for a tile, ``[-1, span]`` for a neighbour: tiles lie in
``[-(T - 1) // 2, T - 1 - (T - 1) // 2] = [2 - C/2, C/2 - 1]``, where the offset is the frame
coordinate minus ``C/2``, and their neighbours in ``[1 - C/2, C/2]``, an interval of C values, where
frame coordinate 0 stands for ``C/2`` (`centred`). So the coordinates are the cells' true plane
coordinates (the hive is never cut by the torus), translated so that the middle of the hive's q- and
r-extent is (0, 0): hex distances and directions computed from them are those of the board, and
translating the hive changes nothing.

The destination of action ``a = slot * C^2 + cell`` is frame cell ``cell``, at the same coordinates.
Each action's (tile row, destination) is therefore one fixed table per game type (`action_table`),
valid in every observation: when the hive moves in the frame, its tiles' coordinates and the ids of
the actions onto a given cell move together.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from hive_envs.hive import encoding as E
from hive_envs.hive.encoding import MAX_LEVEL, HiveEncoding, make_encoding
from hive_envs.hive.engine.grid import NEIGHBOURS
from hive_envs.hive.engine.jit import inline_kernel, kernel
from hive_envs.hive.engine.movegen import MAX_MOVES
from hive_envs.hive.engine.moves import PASS_MOVE, move_piece
from hive_envs.hive.engine.pieces import NUM_PIECE_SLOTS, NUM_PIECES, PIECE_KIND, QUEEN, SLOT_NAMES
from hive_envs.hive.engine.rules import queen_neighbours
from hive_envs.hive.engine.state import (
    HEIGHT,
    I_LAST_MOVED,
    I_MAX_TURNS,
    I_PASSES,
    I_PLY,
    I_TO_MOVE,
    I_TOURNAMENT,
    PCELL,
    PUNDER,
    TOP,
)
from hive_envs.hive.piece_audit import audit
from hive_envs.hive.piece_layout import (
    ACTION_FIELDS,
    FIELDS,
    G_IN_HAND_OPP,
    G_IN_HAND_OWN,
    G_LAST_PLY_PASS,
    G_LEGAL_ACTIONS,
    G_MUST_PASS,
    G_PLIES_LEFT,
    G_PLY,
    G_QUEEN_BARRED_OPP,
    G_QUEEN_BARRED_OWN,
    G_QUEEN_DUE_OPP,
    G_QUEEN_DUE_OWN,
    G_QUEEN_NEIGHBOURS_OPP,
    G_QUEEN_NEIGHBOURS_OWN,
    G_TO_MOVE,
    G_TOURNAMENT_OPENING,
    G_TURNS_OPP,
    G_TURNS_OWN,
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
    SATURATED,
)

# Scratch int32 array of the kernels (`SCRATCH_SIZE`): the pin search's per-tile arrays, the frame.
_DISC, _LOW, _STACK, _ITER, _ART = (i * NUM_PIECES for i in range(5))
_FRAME = 5 * NUM_PIECES
SCRATCH_SIZE = _FRAME + E.FRAME_SIZE


# --------------------------------------------------------------------------- kernels
@inline_kernel
def _bottom_tile(s, cell):
    p = s[TOP + cell]
    while s[PUNDER + p] >= 0:
        p = s[PUNDER + p]
    return p


@kernel
def _mark_pins(s, scratch):
    """``scratch[_ART + b] = 1`` for the bottom tile ``b`` of every articulation cell of the hive (an
    occupied cell whose removal disconnects the others), else 0: an iterative Tarjan DFS over the
    occupied cells, each named by its bottom tile. A ground tile alone on such a cell is pinned."""
    root = -1
    for p in range(NUM_PIECES):
        scratch[_DISC + p] = 0
        scratch[_ART + p] = 0
        if root < 0 and s[PCELL + p] >= 0 and s[PUNDER + p] < 0:
            root = p
    if root < 0:
        return
    clock = 1
    scratch[_DISC + root] = clock
    scratch[_LOW + root] = clock
    clock += 1
    scratch[_STACK] = root
    scratch[_ITER] = 0
    sp = 1
    root_children = 0
    while sp > 0:
        v = scratch[_STACK + sp - 1]
        d = scratch[_ITER + sp - 1]
        if d < 6:
            scratch[_ITER + sp - 1] = d + 1
            cell = NEIGHBOURS[s[PCELL + v] * 6 + d]
            if s[HEIGHT + cell] == 0:
                continue
            u = _bottom_tile(s, cell)
            if scratch[_DISC + u] == 0:
                scratch[_DISC + u] = clock
                scratch[_LOW + u] = clock
                clock += 1
                scratch[_STACK + sp] = u
                scratch[_ITER + sp] = 0
                sp += 1
                if v == root:
                    root_children += 1
            elif sp < 2 or u != scratch[_STACK + sp - 2]:
                scratch[_LOW + v] = min(scratch[_LOW + v], scratch[_DISC + u])
        else:
            sp -= 1
            if sp > 0:
                parent = scratch[_STACK + sp - 1]
                scratch[_LOW + parent] = min(scratch[_LOW + parent], scratch[_LOW + v])
                if parent != root and scratch[_LOW + v] >= scratch[_DISC + parent]:
                    scratch[_ART + parent] = 1
    if root_children >= 2:
        scratch[_ART + root] = 1


@inline_kernel
def _row_of(piece, seat, n_tiles, slot_of):
    """The row of engine piece ``piece`` seen by ``seat``."""
    return (0 if piece // NUM_PIECE_SLOTS == seat else n_tiles) + slot_of[piece % NUM_PIECE_SLOTS]


@kernel
def encode_pieces_in_frame(s, seat, moves, n_moves, frame, grid, n_tiles, slot_of, scratch, out):
    """Write ``seat``'s piece observation of state ``s`` into ``out`` (int16 (2N + 1, FIELDS)).

    ``moves[:n_moves]``: the legal move ids of the player to move (none once the game is over);
    ``frame``: the frame of ``s`` (`hive_envs.hive.encoding.hive_frame`); ``scratch``: int32
    [SCRATCH_SIZE], overwritten.
    """
    n2 = 2 * n_tiles
    out[:, :] = 0
    out[:n2, P_UNDER] = -1
    out[:n2, P_ABOVE] = -1
    out[:n2, P_NEIGHBOURS : P_NEIGHBOURS + 6] = -1
    _mark_pins(s, scratch)
    last_moved = s[I_LAST_MOVED]
    for p in range(NUM_PIECES):
        if slot_of[p % NUM_PIECE_SLOTS] < 0:
            continue
        row = _row_of(p, seat, n_tiles, slot_of)
        out[row, P_KIND] = PIECE_KIND[p]
        out[row, P_COLOUR] = 0 if row < n_tiles else 1
        c = s[PCELL + p]
        if c < 0:
            out[n2, G_IN_HAND_OWN if row < n_tiles else G_IN_HAND_OPP] += 1
            continue
        fq, fr = E.frame_coordinates(c, frame, grid)
        out[row, P_PLACED] = 1
        out[row, P_Q] = fq - grid // 2  # a tile's frame coordinate is never 0 (module docstring)
        out[row, P_R] = fr - grid // 2
        below = s[PUNDER + p]
        height = 1
        while below >= 0:
            height += 1
            below = s[PUNDER + below]
        out[row, P_HEIGHT] = height
        below = s[PUNDER + p]
        if below >= 0:
            under = _row_of(below, seat, n_tiles, slot_of)
            out[row, P_UNDER] = under
            out[under, P_ABOVE] = row
        elif s[HEIGHT + c] == 1 and scratch[_ART + p] == 1:
            out[row, P_PINNED] = 1
        if p == last_moved:
            out[row, P_LAST_MOVED] = 1
        for d in range(6):
            top = s[TOP + NEIGHBOURS[c * 6 + d]]
            if top >= 0:
                out[row, P_NEIGHBOURS + d] = _row_of(top, seat, n_tiles, slot_of)
    for i in range(n_moves):
        if moves[i] != PASS_MOVE:
            out[_row_of(move_piece(moves[i]), seat, n_tiles, slot_of), P_MOVABLE] = 1
    _encode_global_row(s, seat, moves, n_moves, n_tiles, out[n2])


@inline_kernel
def _encode_global_row(s, seat, moves, n_moves, n_tiles, out):
    """The global row of ``seat``'s piece observation, but for the in-hand counts, which the tile loop
    of `encode_pieces_in_frame` adds up (``out``: int16[FIELDS])."""
    ply = s[I_PLY]
    out[G_TO_MOVE] = 1 if s[I_TO_MOVE] == seat else 0
    out[G_LAST_PLY_PASS] = 1 if s[I_PASSES] > 0 else 0
    for side in range(2):
        colour = seat if side == 0 else 1 - seat
        turns = (ply + 1 - colour) // 2  # White moves on even plies, Black on odd ones
        queen_out = s[PCELL + colour * NUM_PIECE_SLOTS + QUEEN] < 0
        out[G_QUEEN_DUE_OWN + side] = 1 if (queen_out and turns == 3) else 0
        out[G_TURNS_OWN + side] = min(turns, SATURATED)
        out[G_QUEEN_NEIGHBOURS_OWN + side] = queen_neighbours(s, colour)
        out[G_QUEEN_BARRED_OWN + side] = 1 if (s[I_TOURNAMENT] == 1 and turns == 0) else 0
    out[G_PLY] = min(ply, SATURATED)
    cap = s[I_MAX_TURNS]
    out[G_PLIES_LEFT] = SATURATED if cap == 0 else max(0, min(SATURATED, cap - ply))
    out[G_LEGAL_ACTIONS] = n_moves
    out[G_MUST_PASS] = 1 if (n_moves == 1 and moves[0] == PASS_MOVE) else 0
    out[G_TOURNAMENT_OPENING] = s[I_TOURNAMENT]


@kernel
def encode_pieces(s, seat, moves, n_moves, grid, n_tiles, slot_of, scratch, out):
    """`encode_pieces_in_frame` in the frame of ``s``, computed here (into ``scratch``)."""
    frame = scratch[_FRAME : _FRAME + E.FRAME_SIZE]
    E.hive_frame(s, grid, frame)
    encode_pieces_in_frame(s, seat, moves, n_moves, frame, grid, n_tiles, slot_of, scratch, out)


# --------------------------------------------------------------------------- the encoder
def centred(x: np.ndarray | int, grid: int) -> np.ndarray | int:
    """Frame coordinates as offsets from the centre, in [1 - C/2, C/2] (frame coordinate 0 is C/2): the
    coordinates of every cell in or next to the hive (module docstring)."""
    return (np.asarray(x) - 1) % grid + 1 - grid // 2


def _action_table(n_tiles: int, grid: int) -> np.ndarray:
    area = grid * grid
    actions = np.arange(2 * n_tiles * area)
    table = np.empty((actions.size + 1, len(ACTION_FIELDS)), dtype=np.int16)
    table[:-1, 0] = actions // area
    table[:-1, 1] = centred(actions % area // grid, grid)
    table[:-1, 2] = centred(actions % grid, grid)
    table[-1] = (-1, 0, 0)  # pass
    table.flags.writeable = False
    return table


@dataclass(frozen=True)
class HivePiecesEncoding(HiveEncoding):
    """The encoding of ``observation="pieces"``: `HiveEncoding`'s actions, mask and frame, and the
    piece-centred observation of this module (int16, `observation_shape` = ``(2N + 1, FIELDS)``).

    ``action_table`` (read-only int16 (A, 3)): per action id, the row of its tile and the ``(q, r)``
    of its destination, in the observation's coordinates; the pass action's row is ``(-1, 0, 0)``.
    """

    action_table: np.ndarray
    observation_dtype: ClassVar[np.dtype] = np.dtype(np.int16)
    observation_kind: ClassVar[str] = "pieces"

    @property
    def observation_shape(self) -> tuple[int, int]:  # type: ignore[override]  # rows, not planes
        """``(2N + 1, FIELDS)``: a row per tile slot, then the global row."""
        return (2 * self.tiles_per_colour + 1, FIELDS)

    def row_names(self) -> list[str]:
        """Name of each row, in order: ``own_Q`` ... ``opp_<last slot>``, then ``global``."""
        slots = [SLOT_NAMES[s] for s in self.engine_slot]
        return [f"{owner}_{slot}" for owner in ("own", "opp") for slot in slots] + ["global"]

    def plane_names(self) -> list[str]:
        raise ValueError(
            "the pieces observation has no planes: its rows are row_names(), its columns "
            "PIECE_FIELDS (tile rows) and GLOBAL_FIELDS (the last row) of hive_envs.hive.piece_layout"
        )

    def observation_high(self) -> np.ndarray:
        return self.observation_bounds()[1]

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        n2 = 2 * self.tiles_per_colour
        half = self.grid // 2
        low = np.zeros(self.observation_shape, dtype=np.int16)
        high = np.zeros_like(low)
        high[:n2, P_KIND] = int(PIECE_KIND.max())
        high[:n2, [P_COLOUR, P_PLACED, P_PINNED, P_MOVABLE, P_LAST_MOVED]] = 1
        low[:n2, [P_Q, P_R]] = 2 - half  # a tile's cell; destinations reach one further (centred)
        high[:n2, [P_Q, P_R]] = half - 1
        high[:n2, P_HEIGHT] = MAX_LEVEL
        tile_columns = [P_UNDER, P_ABOVE, *range(P_NEIGHBOURS, P_NEIGHBOURS + 6)]
        low[:n2, tile_columns] = -1
        high[:n2, tile_columns] = n2 - 1
        flags = [G_TO_MOVE, G_LAST_PLY_PASS, G_QUEEN_DUE_OWN, G_QUEEN_DUE_OPP, G_MUST_PASS]
        high[n2, flags + [G_QUEEN_BARRED_OWN, G_QUEEN_BARRED_OPP, G_TOURNAMENT_OPENING]] = 1
        high[n2, [G_TURNS_OWN, G_TURNS_OPP, G_PLY, G_PLIES_LEFT]] = SATURATED
        high[n2, G_LEGAL_ACTIONS] = MAX_MOVES
        high[n2, [G_QUEEN_NEIGHBOURS_OWN, G_QUEEN_NEIGHBOURS_OPP]] = 6
        high[n2, [G_IN_HAND_OWN, G_IN_HAND_OPP]] = self.tiles_per_colour
        return low, high

    def observe(self, game, seat: int, out: np.ndarray) -> None:
        """Write ``seat``'s piece observation of ``game`` into ``out`` (int16, `observation_shape`)."""
        moves = game.legal_move_ids_view()
        scratch = np.empty(SCRATCH_SIZE, dtype=np.int32)
        encode_pieces(
            game.state, seat, moves, len(moves), self.grid, self.tiles_per_colour, self.slot_of, scratch, out
        )

    def audit_observation(self, game, seat: int, observation: np.ndarray) -> str | None:
        """Where ``observation`` (``seat``'s, of ``game``) disagrees with an independent reading of the
        game (`hive_envs.hive.piece_audit`), or None: the conformance checker's hook."""
        return audit(self, game, seat, observation)


def make_pieces_encoding(expansions: str) -> HivePiecesEncoding:
    """The pieces encoding of game type ``Base[+expansions]``."""
    planes = make_encoding(expansions)
    fields = {f.name: getattr(planes, f.name) for f in dataclasses.fields(planes)}
    return HivePiecesEncoding(**fields, action_table=_action_table(planes.tiles_per_colour, planes.grid))
