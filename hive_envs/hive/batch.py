"""`HiveBatch`: many Hive games stepped by one compiled call per step (the batched contract).

The per-game work is exactly what the AEC env (`hive_envs.hive.env.raw_env`) does for one ply,
with the same kernels: `action_to_move_id` (encoder), `apply_move` (engine), `generate_moves`
(engine), `encode_mask` and `encode_observation` (encoder; `encode_pieces_in_frame` for the pieces
observation), plus `position_key` for the optional
repetition draw as `HiveGame` keeps it. This module only loops over games and does the
bookkeeping: rewards, automatic reset, final observations, episode lengths. Buffers, input
checks, seeding and the reset/step plumbing are `hive_envs.core.batch.BatchGame`'s.

Contract (shared with `HoyitoBatch`; the training code is written against it)::

    batch = HiveBatch(num_games, expansions="", tournament_opening=True, max_turns=300,
                      repetition_draw=False, parallel=False,
                      reward_shaping=None, shaping_coef=1.0, shaping_gamma=1.0, observation="planes")
    batch.reset(seed=None); batch.step(actions)   # actions: (N,) integers, one per game
    batch.observation (N, P, C, C) uint8 (observation="pieces": (N, 2N + 1, 17) int16),
    batch.action_mask (N, A) int8, batch.to_move (N,) int8,
    batch.rewards (N, 2) float32, batch.terminated (N,) bool, batch.final_observation,
    batch.episode_length (N,) int32           # all overwritten in place by reset/step
    batch.options (HiveOptions), batch.game(row), batch.move_to_action(row, move_id)

``reward_shaping="queen_margin"`` adds the potential-based term of `hive_envs.core.shaping` to
``rewards`` (each seat's, when its next decision arrives or its game ends) and keeps the unshaped
ones in ``batch.raw_rewards``; off by default (``raw_rewards`` is then ``rewards``).

The observation, mask and action indices are those of `hive_envs.hive_v0` (documented there):
row ``g`` of ``observation`` is the AEC env's ``observe(agent_to_move)["observation"]`` under the same
``observation`` option ("planes" or "pieces"; the step's kernels are compiled once per layout, the
writer chosen by the buffer's type: `_observe`). Pass is an
action (the only legal one when nothing else is), as in the AEC env, so a mask is never all zeros.

Two optional keyword arguments of `step`, used by the Gymnasium vector env (as in `HoyitoBatch`):
``active`` (N,) bool steps only those games (the others keep every buffer, with rewards 0 and
terminated False), and ``final_view`` (N,) int8 chooses whose view ``final_observation`` is
written from (default: the seat that made the last move).

Threads: move generation needs a scratch workspace (`hive_envs.hive.engine.workspace`, ~140 KB).
The games are split into one contiguous chunk per thread, each with its own workspace, so memory
does not grow with ``num_games``. ``parallel=True`` runs the chunks on numba's threads (``prange``);
it is off by default, as in `HoyitoBatch`: on the shared 2-core development machine (load 10+) the
threaded loop was slower than the serial one (N = 64: 4x slower, N = 1024: about equal), because
GNU OpenMP's idle threads spin; with ``OMP_WAIT_POLICY=passive`` (or
``NUMBA_THREADING_LAYER=workqueue``) it was ~1.2x faster there. On an idle machine, try it.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange
from numba.extending import overload

from hive_envs.core.batch import BatchGame, check_num_games, check_parallel, check_rows
from hive_envs.core.game import check_integer
from hive_envs.core.shaping import parse_shaping
from hive_envs.hive import encoding as E
from hive_envs.hive.engine.game import HiveGame
from hive_envs.hive.engine.heuristics import (
    MAX_QUEEN_MARGIN,
    POTENTIAL_NAME,
    WIN_SCORE,
    greedy_score,
    queen_margin,
)
from hive_envs.hive.engine.jit import inline_kernel, kernel
from hive_envs.hive.engine.movegen import MAX_MOVES, generate_moves
from hive_envs.hive.engine.moves import NUM_MOVE_IDS
from hive_envs.hive.engine.options import HiveOptions
from hive_envs.hive.engine.repetition import position_key
from hive_envs.hive.engine.rules import UNDO_SIZE, apply_move
from hive_envs.hive.engine.state import (
    I_PLY,
    I_STATUS,
    I_TO_MOVE,
    STATUS_BLACK_WINS,
    STATUS_DRAW,
    STATUS_WHITE_WINS,
)
from hive_envs.hive.engine.workspace import new_workspace
from hive_envs.hive.observations import make_hive_encoding
from hive_envs.hive.piece_encoding import SCRATCH_SIZE, encode_pieces_in_frame


# --------------------------------------------------------------------------- per-game kernels
# The compiled loop's arguments, grouped (each kernel takes at most a dozen), as tuples numba unpacks:
#   games   (states, frames, keys, template, repetition): every game's engine state, its per-ply
#           encoder frame, its position keys (repetition draw), the start state, the draw's switch;
#   inputs  (actions, active, final_view): what `step` was given;
#   tables  (grid, n_tiles, slot_of, engine_slot, kinds): the encoding's sizes and tables;
#   out     the contract's buffers in `BatchGame._buffers` order (observation, action_mask, to_move,
#           rewards, terminated, final_observation, episode_length).
#   scratch int32[SCRATCH_SIZE] of the piece observation's kernel (unused by the planes).
def _observe(s, seat, moves, n_moves, frame, tables, scratch, out):
    """Write ``seat``'s observation of ``s`` into ``out``, in the layout of ``out`` (compiled code only:
    numba picks the writer by the buffer's type, `_observe_in_layout`)."""
    raise NotImplementedError("_observe runs in compiled code only")


@overload(_observe, jit_options={"_nrt": False})  # type: ignore[typeddict-unknown-key]  # as jit.kernel
def _observe_in_layout(s, seat, moves, n_moves, frame, tables, scratch, out):
    """The writer of ``out``'s layout, chosen when a caller compiles: the planes (a 3-D buffer) or the
    piece rows (2-D), so one source of the step serves both observations. Not ``inline="always"``:
    numba 0.68 inlining it into `_publish` returned a wrong seat to move (tests/hive/batch caught it)."""
    if out.ndim == 3:

        def planes(s, seat, moves, n_moves, frame, tables, scratch, out):
            grid, n_tiles, slot_of, _, kinds = tables
            E.encode_observation_in_frame(s, seat, frame, grid, n_tiles, slot_of, kinds, out)

        return planes

    def pieces(s, seat, moves, n_moves, frame, tables, scratch, out):
        grid, n_tiles, slot_of, _, _ = tables
        encode_pieces_in_frame(s, seat, moves, n_moves, frame, grid, n_tiles, slot_of, scratch, out)

    return pieces


@inline_kernel
def _publish(s, w, moves, frame, tables, scratch, obs, mask):
    """Mask and observation of the player to move (what the AEC env caches once per ply)."""
    grid, n_tiles, slot_of, _, _ = tables
    count = generate_moves(s, w, moves)
    E.encode_mask(s, moves, count, frame, grid, n_tiles, slot_of, mask)
    _observe(s, s[I_TO_MOVE], moves, count, frame, tables, scratch, obs)
    return s[I_TO_MOVE]


@kernel
def _repetition_draw(s, keys):
    """Record the new position's key; make the game a draw on its third occurrence (as HiveGame)."""
    ply = s[I_PLY]
    key = position_key(s)
    keys[ply] = key
    if s[I_STATUS] != 0:
        return
    seen = 0
    for i in range(ply + 1):
        if keys[i] == key:
            seen += 1
    if seen >= 3:
        s[I_STATUS] = STATUS_DRAW


@kernel
def _step_one(g, w, moves, rec, scratch, games, inputs, tables, out):
    """Step game ``g`` (the arguments' groups are listed above `_observe`)."""
    states, frames, keys, template, repetition = games
    actions, active, final_view = inputs
    grid, n_tiles, _, engine_slot, _ = tables
    obs, mask, to_move, rewards, terminated, final_obs, episode_length = out
    terminated[g] = False
    rewards[g, 0] = 0.0
    rewards[g, 1] = 0.0
    if not active[g]:
        return
    s = states[g]
    mover = s[I_TO_MOVE]
    move = E.action_to_move_id(s, actions[g], frames[g], grid, n_tiles, engine_slot)
    apply_move(s, move, rec)
    if repetition:
        _repetition_draw(s, keys[g])
    status = s[I_STATUS]
    if status != 0:
        view = mover if final_view[g] < 0 else final_view[g]
        E.hive_frame(s, grid, frames[g])  # `_publish` below writes the new game's frame over it
        _observe(s, view, moves, 0, frames[g], tables, scratch, final_obs[g])  # no legal moves: over
        if status == STATUS_WHITE_WINS:
            rewards[g, 0] = 1.0
            rewards[g, 1] = -1.0
        elif status == STATUS_BLACK_WINS:
            rewards[g, 0] = -1.0
            rewards[g, 1] = 1.0
        terminated[g] = True
        episode_length[g] = s[I_PLY]
        for i in range(template.shape[0]):  # not s[:] = template: that may allocate a copy
            s[i] = template[i]
        if repetition:
            keys[g, 0] = position_key(s)
    to_move[g] = _publish(s, w, moves, frames[g], tables, scratch, obs[g], mask[g])


@njit(cache=True)
def _step_chunk(t, chunks, workspaces, moves, games, inputs, tables, out):
    """Step games ``chunks[t] <= g < chunks[t + 1]`` with thread ``t``'s workspace and move buffer."""
    rec = np.empty(UNDO_SIZE, dtype=np.int32)
    scratch = np.empty(SCRATCH_SIZE, dtype=np.int32)
    w, thread_moves = workspaces[t], moves[t]  # views taken once (each view is reference-counted)
    for g in range(chunks[t], chunks[t + 1]):
        _step_one(g, w, thread_moves, rec, scratch, games, inputs, tables, out)


@njit(cache=True)
def _step_serial(chunks, workspaces, moves, games, inputs, tables, out):
    """Every game with the one workspace of a serial batch (``chunks`` = ``[0, N]``): `_step_chunk`'s
    loop written out, since each compiled level above the move generator re-optimises all of it
    (about a second of cold start per level)."""
    rec = np.empty(UNDO_SIZE, dtype=np.int32)
    scratch = np.empty(SCRATCH_SIZE, dtype=np.int32)
    w, thread_moves = workspaces[0], moves[0]
    for g in range(chunks[0], chunks[1]):
        _step_one(g, w, thread_moves, rec, scratch, games, inputs, tables, out)


@njit(cache=True, parallel=True)
def _step_parallel(chunks, workspaces, moves, games, inputs, tables, out):
    for t in prange(chunks.shape[0] - 1):
        _step_chunk(t, chunks, workspaces, moves, games, inputs, tables, out)


@njit(cache=True)
def _reset_games(games, tables, w, moves, out):
    states, frames, keys, template, repetition = games
    obs, mask, to_move = out[0], out[1], out[2]
    scratch = np.empty(SCRATCH_SIZE, dtype=np.int32)
    for g in range(states.shape[0]):
        for i in range(template.shape[0]):  # not states[g, :] = template: its shape check compiles
            states[g, i] = template[i]  # numba's string formatting of the error (seconds of cold start)
        if repetition:
            keys[g, 0] = position_key(states[g])
        to_move[g] = _publish(states[g], w, moves, frames[g], tables, scratch, obs[g], mask[g])


@njit(cache=True)
def _greedy_choice(states, rows, ties, frames, grid, n_tiles, slot_of, w, moves, out):
    """1-ply greedy action of each game in ``rows`` (`hive_envs.hive.engine.heuristics.greedy_score`).

    ``ties[i]`` in [0, 1) picks uniformly among the best-scoring moves of row ``i``.
    """
    rec = np.empty(UNDO_SIZE, dtype=np.int32)
    for i in range(rows.shape[0]):
        s = states[rows[i]]
        count = generate_moves(s, w, moves)
        best = -(WIN_SCORE + 1)
        n_best = 0
        for k in range(count):  # pass 1: best score; pass 2: the chosen tie
            score = greedy_score(s, moves[k], rec)
            if score > best:
                best = score
                n_best = 1
            elif score == best:
                n_best += 1
        pick = int(ties[i] * n_best)
        for k in range(count):
            if greedy_score(s, moves[k], rec) == best:
                if pick == 0:
                    out[i] = E.move_id_to_action(s, moves[k], frames[rows[i]], grid, n_tiles, slot_of)
                    break
                pick -= 1


@kernel
def _potentials(states, out):
    """out[g, seat] = ``seat``'s Queen margin / 6 in game g (`HiveGame.potential`)."""
    for g in range(states.shape[0]):
        for seat in range(2):
            out[g, seat] = queen_margin(states[g], seat) / MAX_QUEEN_MARGIN


# --------------------------------------------------------------------------- the batch
class HiveBatch(BatchGame):
    """`num_games` independent Hive games with preallocated, in-place buffers. See the module doc."""

    game_name = "hive"

    def __init__(
        self,
        num_games: int,
        expansions: str = "",
        tournament_opening: bool = True,
        max_turns: int | None = 300,
        repetition_draw: bool = False,
        parallel: bool = False,
        reward_shaping: str | None = None,
        shaping_coef: float = 1.0,
        shaping_gamma: float = 1.0,
        observation: str = "planes",
    ):
        N = check_num_games(num_games)
        self.options = options = HiveOptions(expansions, tournament_opening, max_turns, repetition_draw)
        parallel = check_parallel(parallel)
        shaping = parse_shaping(POTENTIAL_NAME, reward_shaping, shaping_coef, shaping_gamma)
        self.encoding = enc = make_hive_encoding(options.expansions, observation)
        self._tables = (enc.grid, enc.tiles_per_colour, enc.slot_of, enc.engine_slot, enc.kinds)
        self.num_actions = enc.num_actions
        self.observation_shape = enc.observation_shape
        self.observation_dtype = enc.observation_dtype
        self.parallel = parallel
        chunks = min(N, numba.get_num_threads()) if self.parallel else 1
        self._chunks = (np.arange(chunks + 1, dtype=np.int64) * N) // chunks
        self._workspaces = np.stack([new_workspace() for _ in range(chunks)])
        self._moves = np.empty((chunks, MAX_MOVES), dtype=np.int32)
        self._template = options.new_state()
        self.states = np.empty((N, self._template.size), dtype=np.int32)
        self._frames = np.zeros((N, 4), dtype=np.int32)
        # Position keys per ply (repetition draw only); grown when a game gets longer than it.
        key_len = 1 if not self.options.repetition_draw else min(self.options.max_turns or 512, 512) + 1
        self._keys = np.zeros((N, key_len), dtype=np.uint64)
        self._allocate(N)
        self._init_shaping(shaping)
        self.reset()

    @property
    def nbytes(self) -> int:
        """Bytes held by this batch's arrays (buffers, states, workspaces)."""
        arrays: tuple[np.ndarray, ...] = (
            self.states,
            self._frames,
            self._keys,
            self._workspaces,
            self._moves,
            *self._buffers(),
        )
        return sum(a.nbytes for a in arrays)

    def potentials(self) -> np.ndarray:
        """(N, 2) float32: each seat's `HiveGame.potential` in the current positions (its Queen margin
        / 6, in [-1, 1]). The progress measure the opt-in reward shaping (`reward_shaping`) and the
        trainer's (`shaping_coef`) use."""
        out = np.empty((self.num_games, 2), dtype=np.float32)
        _potentials(self.states, out)
        return out

    def game(self, row: int) -> HiveGame:
        """A `HiveGame` in game ``row``'s current position (a copy: playing on it leaves the batch
        alone), for players that choose moves on a game (`hive_envs.players`). It knows no earlier
        moves (see `HiveGame.from_state`); the repetition draw's history is not carried over."""
        return HiveGame.from_state(self.states[self._row(row)], self.options.repetition_draw)

    def move_to_action(self, row: int, move_id: int) -> int:
        """The action index of the legal engine move ``move_id`` in game ``row``; ValueError otherwise."""
        g = self._row(row)
        move = check_integer(move_id, "move id")
        if not 0 <= move < NUM_MOVE_IDS:
            raise ValueError(
                f"game {g}: move {move_id!r} is not legal now (move ids run from 0 to {NUM_MOVE_IDS - 1})"
            )
        enc = self.encoding
        action = int(
            E.move_id_to_action(
                self.states[g], move, self._frames[g], enc.grid, enc.tiles_per_colour, enc.slot_of
            )
        )
        return self._legal_action(g, action, move_id)

    def greedy_actions(self, rows, rng: np.random.Generator) -> np.ndarray:
        """For each game in ``rows``: the 1-ply greedy action, ties broken uniformly at random.

        Scores as `HiveGame.greedy_move_scores` (win +100, loss -100, draw 0, else the mover's Queen
        margin after the move); the optional repetition draw is not looked ahead. ValueError for
        ``rows`` that are not game indices (`hive_envs.core.batch.check_rows`).
        """
        rows = check_rows(rows, self.num_games)
        out = np.empty(rows.size, dtype=np.int64)
        enc = self.encoding
        _greedy_choice(
            self.states,
            rows,
            rng.random(rows.size),
            self._frames,
            enc.grid,
            enc.tiles_per_colour,
            enc.slot_of,
            self._workspaces[0],
            self._moves[0],
            out,
        )
        return out

    # ------------------------------------------------------------------ BatchGame hooks
    def _reset_games(self) -> None:
        _reset_games(self._games(), self._tables, self._workspaces[0], self._moves[0], self._buffers())

    def _step_games(self, actions, a, active, view) -> None:
        if self.options.repetition_draw:
            self._grow_keys()
        kernel = _step_parallel if self.parallel else _step_serial
        kernel(
            self._chunks,
            self._workspaces,
            self._moves,
            self._games(),
            (a, active, view),
            self._tables,
            self._buffers(),
        )

    def _prepare_actions(self, a, active) -> np.ndarray:
        """Ranges and legality of the active games' actions (before any game moves)."""
        rows = np.flatnonzero(active)
        acts = a[rows]
        out = (acts < 0) | (acts >= self.num_actions)
        if out.any():
            g = int(rows[np.argmax(out)])
            raise ValueError(f"game {g}: action {int(a[g])} is out of range [0, {self.num_actions})")
        illegal = self.action_mask[rows, acts] == 0
        if illegal.any():
            g = int(rows[np.argmax(illegal)])
            legal = np.flatnonzero(self.action_mask[g])
            raise ValueError(
                f"game {g}: action {int(a[g])} is illegal; it has {legal.size} legal actions "
                f"(first ones {legal[:10].tolist()})"
            )
        return np.ascontiguousarray(a, dtype=np.int64)

    # ------------------------------------------------------------------ helpers
    def _games(self) -> tuple:
        """The kernels' ``games`` group (see above `_publish`); ``_keys`` may have grown since the last."""
        return (self.states, self._frames, self._keys, self._template, self.options.repetition_draw)

    def _grow_keys(self) -> None:
        if int(self.states[:, I_PLY].max()) + 1 >= self._keys.shape[1]:
            grown = np.zeros((self.num_games, 2 * self._keys.shape[1]), dtype=np.uint64)
            grown[:, : self._keys.shape[1]] = self._keys
            self._keys = grown
