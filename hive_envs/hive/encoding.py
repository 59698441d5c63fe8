"""Hive encoders (v0): engine state -> observation planes and action mask; actions <-> move ids.

Pure functions (numba kernels over the engine's flat int32 state, see
`hive_envs.hive.engine.state`), writing into preallocated buffers, so that an env step makes one
compiled call per buffer and a batched stepper can call them per game inside ``prange``.
The layout is documented plane by plane in `hive_envs.hive_v0` (the env's documentation page).

Hive-centred torus frame
------------------------
The engine keeps cells on a 32 x 32 axial torus. The encoder re-frames the hive on a smaller
``C x C`` axial torus, ``C = T + 2`` where ``T = 2 x (11 + number of expansion letters)`` is the
number of tiles in the game: Base ``C = 24``, one expansion 26, two 28, all three 30.

Frame (translation invariant, deterministic): on each axis (q and r) the occupied values of a
connected hive form one contiguous arc of the engine's 32-circle (neighbouring cells differ by at
most 1 in q and in r), of length ``span <= T < 32``; its first value after the (unique) empty arc is
``lo``. A cell at engine coordinate ``v`` gets ``d = ((v - lo + 1) mod 32) - 1`` (so ``d`` runs from
-1 to ``span``), and frame coordinate ``(d - (span - 1) // 2 + C // 2) mod C``. Translating the
whole hive shifts ``lo`` by the same amount and leaves every ``d`` unchanged, so the observation
and the actions are translation invariant. The empty board (first ply) is framed as if the
engine's origin were occupied: the first placement lands on the centre cell.

No aliasing: every cell an action or an observation names is a cell of the hive or a neighbour of
one (placements touch the hive; a moved piece ends on or next to the rest of the hive; a Pillbug
throw lands next to the Pillbug). With ``k <= T`` ground cells, those cells have at most
``k + 2 <= C`` distinct q values and at most ``k + 2`` distinct r values, i.e. ``d`` in
``[-1, span]``, and reducing q and r modulo C is injective on that range. So two distinct cells
of interest never share a frame cell, whatever the size or shape of the hive: nothing is lost and
no rule depends on the frame. Frame cell index = ``q_frame * C + r_frame`` (the engine's order).

Tile slots
----------
A tile is named colour-relative: the observer's (or mover's) own tiles first, then the
opponent's, each in the engine's slot order Q S1 S2 B1 B2 G1 G2 G3 A1 A2 A3 M L P, with the
expansion slots absent from the game type dropped. ``N`` = tiles per colour (11 + expansions).
Action ``a = slot * C * C + frame_cell`` moves or places tile ``slot`` onto ``frame_cell``
(an opponent slot is a Pillbug / Mosquito throw); ``a = 2 * N * C * C`` is pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from numba import njit

from hive_envs.core.game import deprecated_alias
from hive_envs.hive.engine.grid import GRID_SIZE
from hive_envs.hive.engine.jit import inline_kernel, kernel
from hive_envs.hive.engine.moves import PASS_MOVE, move_cell, move_piece, pack_move
from hive_envs.hive.engine.options import game_type_of
from hive_envs.hive.engine.pieces import (
    BUG_LETTERS,
    KIND_COUNT,
    NUM_PIECE_SLOTS,
    NUM_PIECES,
    PIECE_KIND,
    QUEEN,
    SLOT_KIND,
    SLOT_NAMES,
    kinds_mask,
)
from hive_envs.hive.engine.state import (
    I_LAST_MOVED,
    I_MAX_TURNS,
    I_PASSES,
    I_PLY,
    I_TO_MOVE,
    PCELL,
    PUNDER,
    TOP,
    put_piece,
)

MAX_LEVEL = 7
"""Highest stack: a ground tile under 4 Beetles and 2 Mosquitoes (the only tiles that climb and stay)."""

# Constant planes after the tile, top and last-moved planes and the reserve counts.
_N_TAIL = 7


@dataclass(frozen=True)
class HiveEncoding:
    """Sizes and tables of the encoding for one game type (expansion letters), and the encoder of a
    `HiveGame` of that type: ``observe``, ``write_mask``, ``legal_actions``, ``action_to_move`` and
    ``move_to_action`` (the encoder interface the envs and the agents use, `hive_envs.core.game_env`).

    The per-ply frame (where the hive sits on the ``C x C`` torus, `frame_of`) is a function of the
    game's state: each method derives it from the state it is given and keeps nothing, so one encoding
    serves any number of games, in any interleaving. Only a batch keeps frames, one per game it owns
    (`hive_envs.hive.batch`), to reuse the mask's frame for the observation and the next action.
    """

    expansions: str
    grid: int  # C
    tiles_per_colour: int  # N
    slot_of: np.ndarray  # engine slot 0..13 -> encoding slot 0..N-1, or -1 when absent
    engine_slot: np.ndarray  # encoding slot 0..N-1 -> engine slot
    kinds: np.ndarray  # bug kinds present, in QSBGAMLP order
    num_planes: int
    num_actions: int
    observation_dtype: ClassVar[np.dtype] = np.dtype(np.uint8)
    observation_kind: ClassVar[str] = "planes"  # the env option ``observation`` that shows this layout

    @property
    def pass_action(self) -> int:
        return self.num_actions - 1

    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """``(planes, C, C)``: the shape of one observation."""
        return (self.num_planes, self.grid, self.grid)

    obs_shape = deprecated_alias("obs_shape", "observation_shape", "HiveEncoding", is_property=True)

    def plane_names(self) -> list[str]:
        """Name of each observation plane, in order (the documented layout)."""
        slots = [f"{owner}_{SLOT_NAMES[s]}" for owner in ("own", "opp") for s in self.engine_slot]
        names = [f"tile_{n}" for n in slots] + ["top_own", "top_opp", "last_moved"]
        letters = [BUG_LETTERS[k] for k in self.kinds]
        names += [f"reserve_own_{x}" for x in letters] + [f"reserve_opp_{x}" for x in letters]
        names += [
            "to_move",
            "last_ply_pass",
            "queen_due_own",
            "queen_due_opp",
            "ply_lo",
            "ply_hi",
            "plies_left",
        ]
        return names

    def observation_high(self) -> np.ndarray:
        """Per-plane upper bounds, broadcast to the observation shape (uint8)."""
        high = np.ones(self.num_planes, dtype=np.uint8)
        n2 = 2 * self.tiles_per_colour
        high[:n2] = MAX_LEVEL
        k = len(self.kinds)
        high[n2 + 3 : n2 + 3 + 2 * k] = np.tile(KIND_COUNT[self.kinds], 2)
        high[-3:] = 255
        return np.broadcast_to(high[:, None, None], self.observation_shape).copy()

    # -- the encoder of a HiveGame ----------------------------------------------------------------
    @property
    def label(self) -> str:
        """The game type this encoding is for, e.g. "Base+MLP"."""
        return game_type_of(self.expansions)

    def describes(self, game) -> bool:
        """Whether ``game`` is a Hive game of this encoding's game type."""
        return getattr(game, "game_name", None) == "hive" and game.options.expansions == self.expansions

    @staticmethod
    def label_of(game) -> str:
        return game.game_type if getattr(game, "game_name", None) == "hive" else str(game.game_name)

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros(self.observation_shape, dtype=np.uint8), self.observation_high()

    def observe(self, game, seat: int, out: np.ndarray) -> None:
        """Write ``seat``'s observation of ``game`` into ``out`` (uint8, `observation_shape`)."""
        encode_observation(game.state, seat, self.grid, self.tiles_per_colour, self.slot_of, self.kinds, out)

    def frame_of(self, game) -> np.ndarray:
        """The frame of ``game``'s current position: a new int32[FRAME_SIZE] (``lo_q, off_q, lo_r, off_r``)."""
        frame = np.empty(FRAME_SIZE, dtype=np.int32)
        hive_frame(game.state, self.grid, frame)
        return frame

    def write_mask(self, game, out: np.ndarray) -> int:
        """Write the mover's action mask into ``out`` (int8); return the number of legal actions."""
        ids = game.legal_move_ids_view()
        return mask_of_moves(game.state, ids, len(ids), self.grid, self.tiles_per_colour, self.slot_of, out)

    def legal_actions(self, game) -> tuple[np.ndarray, np.ndarray]:
        """``(legal move ids, their action indices)`` of the player to move, in the same order."""
        ids = game.legal_move_ids()
        actions = np.empty(len(ids), dtype=np.int64)
        actions_of_moves(game.state, ids, len(ids), self.grid, self.tiles_per_colour, self.slot_of, actions)
        return ids, actions

    def action_to_move(self, game, action: int) -> int:
        """The engine move id of action index ``action`` for the player to move (legality not checked)."""
        return int(decode_action(game.state, action, self.grid, self.tiles_per_colour, self.engine_slot))

    def move_to_action(self, game, move_id: int) -> int:
        """The action index of engine move ``move_id`` for the player to move; -1 if not encodable."""
        return int(encode_move(game.state, move_id, self.grid, self.tiles_per_colour, self.slot_of))


def make_encoding(expansions: str) -> HiveEncoding:
    """The encoding of game type ``Base[+expansions]`` (letters in M, L, P order)."""
    mask = kinds_mask(expansions)
    present = [s for s in range(NUM_PIECE_SLOTS) if (mask >> int(SLOT_KIND[s])) & 1]
    slot_of = np.full(NUM_PIECE_SLOTS, -1, dtype=np.int32)
    slot_of[present] = np.arange(len(present), dtype=np.int32)
    n = len(present)
    grid = 2 * n + 2
    kinds = np.array([k for k in range(8) if (mask >> k) & 1], dtype=np.int32)
    return HiveEncoding(
        expansions=expansions,
        grid=grid,
        tiles_per_colour=n,
        slot_of=slot_of,
        engine_slot=np.array(present, dtype=np.int32),
        kinds=kinds,
        num_planes=2 * n + 3 + 2 * len(kinds) + _N_TAIL,
        num_actions=2 * n * grid * grid + 1,
    )


# --------------------------------------------------------------------------- frame
FRAME_SIZE = 4
_Q_SHIFT = 5
assert GRID_SIZE == 1 << _Q_SHIFT
"""Length of a frame array (int32): ``lo_q, off_q, lo_r, off_r``, where ``lo`` is the first occupied
engine value of the axis after its empty arc and ``off = C // 2 - (span - 1) // 2``, so that engine
value ``v`` sits at frame coordinate ``(((v - lo + 1) mod 32) - 1 + off) mod C``."""


@kernel
def _axis_lo_span(bits):
    """First value after the empty arc and length of the occupied arc of a 32-circle bit set."""
    lo = 0
    span = 0
    for v in range(GRID_SIZE):
        if (bits >> v) & 1:
            span += 1
            if not (bits >> ((v - 1) % GRID_SIZE)) & 1:
                lo = v
    return lo, span


@kernel
def _frame_of(s, grid):
    """The frame of the hive in state ``s`` as four integers (the entries of a frame array)."""
    bits_q = 0
    bits_r = 0
    for p in range(NUM_PIECES):
        c = s[PCELL + p]
        if c >= 0:
            bits_q |= 1 << (c // GRID_SIZE)
            bits_r |= 1 << (c % GRID_SIZE)
    if bits_q == 0:  # empty board: frame the engine's origin (cell 0)
        bits_q = 1
        bits_r = 1
    lo_q, span_q = _axis_lo_span(bits_q)
    lo_r, span_r = _axis_lo_span(bits_r)
    return lo_q, grid // 2 - (span_q - 1) // 2, lo_r, grid // 2 - (span_r - 1) // 2


@inline_kernel
def hive_frame(s, grid, frame):
    """Write the frame of the hive in state ``s`` for a ``grid x grid`` board into ``frame`` (int32[FRAME_SIZE])."""
    frame[0], frame[1], frame[2], frame[3] = _frame_of(s, grid)


@inline_kernel
def _to_frame(v, lo, off, grid):
    """``((v - lo + 1) mod 32 - 1 + off) mod grid`` without a division: the first term is in
    [-1, 30] and ``off`` in [grid / 2 - 15, grid / 2], so the sum is in [-grid, 2 * grid)."""
    x = ((v - lo + 1) & (GRID_SIZE - 1)) - 1 + off
    if x >= grid:
        return x - grid
    if x < 0:
        return x + grid
    return x


@inline_kernel
def _from_frame(x, lo, off, grid):
    return (lo + (x - off + 1) % grid - 1) % GRID_SIZE


@inline_kernel
def _cell_in_frame(cell, lo_q, off_q, lo_r, off_r, grid):
    return _to_frame(cell >> 5, lo_q, off_q, grid) * grid + _to_frame(
        cell & (GRID_SIZE - 1), lo_r, off_r, grid
    )


@inline_kernel
def frame_coordinates(cell, frame, grid):
    """Frame coordinates ``(q, r)`` of engine cell ``cell`` (`cell_to_frame` is ``q * grid + r``)."""
    return (
        _to_frame(cell >> _Q_SHIFT, frame[0], frame[1], grid),
        _to_frame(cell & (GRID_SIZE - 1), frame[2], frame[3], grid),
    )


@kernel
def cell_to_frame(cell, frame, grid):
    """Frame cell index of engine cell ``cell``."""
    return _cell_in_frame(cell, frame[0], frame[1], frame[2], frame[3], grid)


@inline_kernel
def frame_to_cell(fcell, frame, grid):
    """Engine cell of frame cell ``fcell`` (the inverse of `cell_to_frame` on the cells of interest)."""
    q = _from_frame(fcell // grid, frame[0], frame[1], grid)
    r = _from_frame(fcell % grid, frame[2], frame[3], grid)
    return q * GRID_SIZE + r


# --------------------------------------------------------------------------- actions
@inline_kernel
def _action_of(to_move, move, lo_q, off_q, lo_r, off_r, grid, n_tiles, slot_of):
    """`move_id_to_action` with the frame's four integers."""
    if move == PASS_MOVE:
        return 2 * n_tiles * grid * grid
    piece = move_piece(move)
    if piece < 0 or piece >= NUM_PIECES or slot_of[piece % NUM_PIECE_SLOTS] < 0:
        return -1
    rel = 0 if piece // NUM_PIECE_SLOTS == to_move else 1
    slot = rel * n_tiles + slot_of[piece % NUM_PIECE_SLOTS]
    return slot * grid * grid + _cell_in_frame(move_cell(move), lo_q, off_q, lo_r, off_r, grid)


@inline_kernel
def move_id_to_action(s, move, frame, grid, n_tiles, slot_of):
    """Action index of engine move id ``move`` for the player to move in ``s``; -1 if not encodable."""
    return _action_of(s[I_TO_MOVE], move, frame[0], frame[1], frame[2], frame[3], grid, n_tiles, slot_of)


@inline_kernel
def action_to_move_id(s, action, frame, grid, n_tiles, engine_slot):
    """Engine move id of action index ``action`` for the player to move in ``s``."""
    area = grid * grid
    if action == 2 * n_tiles * area:
        return PASS_MOVE
    rel_slot = action // area
    colour = s[I_TO_MOVE] if rel_slot < n_tiles else 1 - s[I_TO_MOVE]
    piece = colour * NUM_PIECE_SLOTS + engine_slot[rel_slot % n_tiles]
    return pack_move(piece, frame_to_cell(action % area, frame, grid))


@kernel
def decode_action(s, action, grid, n_tiles, engine_slot):
    """`action_to_move_id` in the frame of ``s``, computed here (a tuple of four integers)."""
    return action_to_move_id(s, action, _frame_of(s, grid), grid, n_tiles, engine_slot)


@kernel
def encode_move(s, move, grid, n_tiles, slot_of):
    """`move_id_to_action` in the frame of ``s``, computed here (a tuple of four integers)."""
    return move_id_to_action(s, move, _frame_of(s, grid), grid, n_tiles, slot_of)


@kernel
def actions_of_moves(s, moves, n_moves, grid, n_tiles, slot_of, out):
    """``out[i]`` = action index of engine move ``moves[i]``, in the frame of ``s`` (computed here)."""
    lo_q, off_q, lo_r, off_r = _frame_of(s, grid)
    for i in range(n_moves):
        out[i] = _action_of(s[I_TO_MOVE], moves[i], lo_q, off_q, lo_r, off_r, grid, n_tiles, slot_of)


@kernel
def encode_mask(s, moves, n_moves, frame, grid, n_tiles, slot_of, mask_out):
    """Action mask (int8 0/1) of the legal engine move ids ``moves[:n_moves]``; returns the count set.

    ``frame`` (int32[FRAME_SIZE]) is written from ``s`` first, so the caller can reuse it.
    """
    frame[0], frame[1], frame[2], frame[3] = _frame_of(s, grid)
    return _fill_mask(s, moves, n_moves, frame, grid, n_tiles, slot_of, mask_out)


@kernel
def mask_of_moves(s, moves, n_moves, grid, n_tiles, slot_of, mask_out):
    """`encode_mask` in the frame of ``s``, computed here and not kept."""
    return _fill_mask(s, moves, n_moves, _frame_of(s, grid), grid, n_tiles, slot_of, mask_out)


@inline_kernel
def _fill_mask(s, moves, n_moves, frame, grid, n_tiles, slot_of, mask_out):
    lo_q, off_q, lo_r, off_r = frame[0], frame[1], frame[2], frame[3]
    mask_out[:] = 0
    count = 0
    to_move = s[I_TO_MOVE]
    for i in range(n_moves):
        a = _action_of(to_move, moves[i], lo_q, off_q, lo_r, off_r, grid, n_tiles, slot_of)
        count += 1 - mask_out[a]
        mask_out[a] = 1
    return count


# --------------------------------------------------------------------------- observation
@kernel
def encode_observation(s, seat, grid, n_tiles, slot_of, kinds, obs_out):
    """Observation planes of state ``s`` seen by ``seat`` (0 White, 1 Black) into ``obs_out`` (uint8 (P, C, C))."""
    lo_q, off_q, lo_r, off_r = _frame_of(s, grid)
    _encode_observation(s, seat, lo_q, off_q, lo_r, off_r, grid, n_tiles, slot_of, kinds, obs_out)


@kernel
def encode_observation_in_frame(s, seat, frame, grid, n_tiles, slot_of, kinds, obs_out):
    """`encode_observation` with the frame of ``s`` already computed (by `encode_mask` or `hive_frame`)."""
    _encode_observation(
        s, seat, frame[0], frame[1], frame[2], frame[3], grid, n_tiles, slot_of, kinds, obs_out
    )


@inline_kernel
def _encode_observation(s, seat, lo_q, off_q, lo_r, off_r, grid, n_tiles, slot_of, kinds, obs_out):
    n2 = 2 * n_tiles
    top_own = n2
    top_opp = n2 + 1
    last_plane = n2 + 2
    obs_out[: n2 + 3] = 0  # the planes after these are written whole below
    last_moved = s[I_LAST_MOVED]
    for p in range(NUM_PIECES):
        slot = slot_of[p % NUM_PIECE_SLOTS]
        c = s[PCELL + p]
        if slot < 0 or c < 0:
            continue
        rel = 0 if p // NUM_PIECE_SLOTS == seat else 1
        fq = _to_frame(c >> _Q_SHIFT, lo_q, off_q, grid)
        fr = _to_frame(c & (GRID_SIZE - 1), lo_r, off_r, grid)
        level = 1
        below = s[PUNDER + p]
        while below >= 0:
            level += 1
            below = s[PUNDER + below]
        obs_out[rel * n_tiles + slot, fq, fr] = level
        if s[TOP + c] == p:
            obs_out[top_own if rel == 0 else top_opp, fq, fr] = 1
        if last_moved == p:
            obs_out[last_plane, fq, fr] = 1
    # Reserve counts per bug kind, own then opponent's.
    base = n2 + 3
    nk = kinds.shape[0]
    for side in range(2):
        colour = seat if side == 0 else 1 - seat
        for k in range(nk):
            count = 0
            for p in range(colour * NUM_PIECE_SLOTS, (colour + 1) * NUM_PIECE_SLOTS):
                if PIECE_KIND[p] == kinds[k] and s[PCELL + p] < 0:
                    count += 1
            obs_out[base + side * nk + k] = count
    t = base + 2 * nk
    ply = s[I_PLY]
    obs_out[t] = 1 if s[I_TO_MOVE] == seat else 0
    obs_out[t + 1] = 1 if s[I_PASSES] > 0 else 0
    for side in range(2):
        colour = seat if side == 0 else 1 - seat
        turns_taken = (ply + 1 - colour) // 2  # White moves on even plies, Black on odd ones
        queen_out = s[PCELL + colour * NUM_PIECE_SLOTS + QUEEN] < 0
        obs_out[t + 2 + side] = 1 if (queen_out and turns_taken == 3) else 0
    obs_out[t + 4] = ply & 255
    obs_out[t + 5] = (ply >> 8) & 255
    cap = s[I_MAX_TURNS]
    left = 255 if cap == 0 else max(0, min(255, cap - ply))
    obs_out[t + 6] = left


# --------------------------------------------------------------------------- observation -> state
@njit(cache=True)
def _frame_arc_start(bits, grid):
    """First occupied frame value after the empty arc of a ``grid``-circle bit set (0 if empty)."""
    for v in range(grid):
        if (bits >> v) & 1 and not (bits >> ((v - 1) % grid)) & 1:
            return v
    return 0


@njit(cache=True)
def decode_observation(obs, grid, n_tiles, engine_slot, n_kinds, s_out):
    """Rebuild an engine state from an observation (the inverse of `encode_observation`).

    ``obs`` (uint8 (P, C, C)) is any observation of this encoding; ``s_out`` (int32[STATE_SIZE])
    must hold a fresh `new_state` of the game type (empty board, rule options and the ``max_turns``
    cap set); ``n_kinds`` is the number of bug kinds of the game type. The hive is
    placed with its occupied q- and r-arcs starting at engine value 0; any translation is the same
    position (the encoding is translation invariant), so re-encoding ``s_out`` for the same seat
    gives ``obs`` back and its legal moves are the observation's. The cap is read from the
    ``plies_left`` plane unless it is saturated (255), when the template's is kept.
    The optional repetition draw's history is not in an observation and is not rebuilt.
    """
    n2 = 2 * n_tiles
    area = grid * grid
    t = n2 + 3 + 2 * n_kinds
    ply = int(obs[t + 4, 0, 0]) + 256 * int(obs[t + 5, 0, 0])
    mover = ply % 2
    observer = mover if obs[t, 0, 0] == 1 else 1 - mover
    cells = np.full(n2, -1, dtype=np.int64)
    levels = np.zeros(n2, dtype=np.int64)
    bits_q = np.int64(0)
    bits_r = np.int64(0)
    for plane in range(n2):
        for f in range(area):
            level = obs[plane, f // grid, f % grid]
            if level > 0:
                cells[plane] = f
                levels[plane] = level
                bits_q |= np.int64(1) << (f // grid)
                bits_r |= np.int64(1) << (f % grid)
                break
    lo_q = _frame_arc_start(bits_q, grid)
    lo_r = _frame_arc_start(bits_r, grid)
    for level in range(1, MAX_LEVEL + 1):
        for plane in range(n2):
            if levels[plane] != level:
                continue
            colour = observer if plane < n_tiles else 1 - observer
            piece = colour * NUM_PIECE_SLOTS + engine_slot[plane % n_tiles]
            f = cells[plane]
            q = (f // grid - lo_q) % grid
            r = (f % grid - lo_r) % grid
            put_piece(s_out, piece, q * GRID_SIZE + r)
    for f in range(area):
        if obs[n2 + 2, f // grid, f % grid] == 1:
            q = (f // grid - lo_q) % grid
            r = (f % grid - lo_r) % grid
            s_out[I_LAST_MOVED] = s_out[TOP + q * GRID_SIZE + r]
            break
    s_out[I_PLY] = ply
    s_out[I_TO_MOVE] = mover
    s_out[I_PASSES] = 1 if obs[t + 1, 0, 0] == 1 else 0
    left = int(obs[t + 6, 0, 0])
    if left != 255:
        s_out[I_MAX_TURNS] = ply + left


# --------------------------------------------------------------------------- Python-side helpers
def unwrap_cells(cells: list[tuple[int, int]]) -> dict[tuple[int, int], tuple[int, int]]:
    """Map torus cells ``(q, r)`` of one connected hive to plane coordinates, cut along the empty arcs.

    The result is a translation of the hive in the infinite plane (for drawing); any integers are
    accepted, read modulo the engine's torus.
    """
    if not cells:
        return {}
    qs = {q % GRID_SIZE for q, _ in cells}
    rs = {r % GRID_SIZE for _, r in cells}

    def lo(values):
        return next(v for v in values if (v - 1) % GRID_SIZE not in values)

    lq, lr = lo(qs), lo(rs)
    return {(q, r): ((q - lq) % GRID_SIZE, (r - lr) % GRID_SIZE) for q, r in cells}
