"""`HiveGame`: the Python face of the Hive engine (UHP strings and integer moves).

    game = HiveGame("Base+MLP")            # tournament_opening=True, max_turns=300
    game.play("wS1"); game.play("bG1 -wS1")
    game.legal_move_names()                # UHP strings, one per distinct move
    ids = game.legal_move_ids()            # int32 move ids (pack_move(piece, cell), PASS_MOVE)
    game.play_id(int(ids[0])); game.undo()
    game.gamestring, game.outcome, game.perft(3)

`HiveGame` implements the game protocol of `hive_envs.core.game` (``legal_move_ids``, ``play_id``,
``undo``, ``copy``, ``to_move``, ``is_terminal``, ``result``, ``ply``, ``move_name``/``move_id``,
``record``, ``greedy_move_scores``, ``potential``) and, as every game does, ``play(name)`` (a move in
the game's notation, here any valid UHP form) and ``legal_move_names()``. ``gamestring`` and
``outcome`` are the UHP forms of ``record()`` and ``result``. Names of earlier versions
(``valid_move_ids``, ``valid_moves``, ``move_id_to_uhp``, ``uhp_to_move_id``, ``turn_number``) still
work and warn (DeprecationWarning); the glossary of docs/architecture.md lists them.

Integer moves are the fast path: ``legal_move_ids()`` runs the compiled generator once per ply
(cached until the next play/undo) and ``play_id`` checks legality with one lookup in the marks the
generator left. Errors (malformed or illegal moves, moves on a finished game, bad GameStrings)
raise ValueError naming the move and why; the game is unchanged after any error.

Everything the rules need lives in ``game.state``, the flat int32 array documented in
`hive_envs.hive.engine.state`; the kernels in `hive_envs.hive.engine` take that array directly.
The optional repetition draw (``repetition_draw=True``: the third occurrence of the same position
with the same player to move is a draw) is kept here, on top of the kernels, with
translation-invariant position keys.
"""

from __future__ import annotations

import numpy as np

from hive_envs.core.game import check_integer, check_seat, deprecated_alias
from hive_envs.hive.engine.grid import DIRECTIONS, GRID_SIZE, cell_to_qr, hex_distance, qr_to_cell
from hive_envs.hive.engine.heuristics import MAX_QUEEN_MARGIN, greedy_scores, queen_margin
from hive_envs.hive.engine.movegen import MAX_MOVES, generate_moves
from hive_envs.hive.engine.moves import NUM_MOVE_IDS, PASS_MOVE, move_cell, move_piece
from hive_envs.hive.engine.notation import (
    format_move,
    game_state_string,
    parse_move,
    split_gamestring,
    turn_string,
)
from hive_envs.hive.engine.options import HiveOptions
from hive_envs.hive.engine.perft_kernel import perft_kernel
from hive_envs.hive.engine.pieces import (
    KIND_FIRST_SLOT,
    NUM_PIECE_SLOTS,
    PIECE_KIND,
    PIECE_NAMES,
    QUEEN,
)
from hive_envs.hive.engine.repetition import position_key
from hive_envs.hive.engine.rules import (
    UNDO_SIZE,
    apply_if_listed,
    apply_move,
    queen_neighbours,
    undo_move,
)
from hive_envs.hive.engine.state import (
    HEIGHT,
    I_LAST_MOVED,
    I_PASSES,
    I_PLY,
    I_STATUS,
    I_TO_MOVE,
    PCELL,
    PUNDER,
    STATE_SIZE,
    STATUS_DRAW,
    STATUS_NAMES,
    TOP,
)
from hive_envs.hive.engine.workspace import MARK, W_STAMP, new_workspace

COLOUR_NAMES = ("White", "Black")
_RESULTS = (None, 1.0, -1.0, 0.0)  # per status: in progress, White wins, Black wins, draw


class HiveGame:
    """A game of Hive under UHP conventions. See the module docstring."""

    game_name = "hive"

    def __init__(
        self,
        game_type: str = "Base",
        tournament_opening: bool = True,
        max_turns: int | None = 300,
        repetition_draw: bool = False,
    ):
        self._setup(
            HiveOptions.from_game_type(
                game_type,
                tournament_opening=tournament_opening,
                max_turns=max_turns,
                repetition_draw=repetition_draw,
            )
        )

    def _setup(self, options: HiveOptions, state: np.ndarray | None = None) -> None:
        self._options = options
        self._s = options.new_state() if state is None else state
        self._w = new_workspace()
        self._views()
        self._moves = np.empty(MAX_MOVES, dtype=np.int32)
        self._count = -1  # moves cached in self._moves for the current position, -1 if none
        self._history = np.empty((64, UNDO_SIZE), dtype=np.int32)
        self._move_ids: list[int] = []
        self._move_strs: list[str | None] = []
        self._start = None if state is None else state.copy()  # a position other than the empty board
        self._keys: list[int] = [self._position_key()] if options.repetition_draw else []

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_gamestring(
        cls,
        text: str,
        tournament_opening: bool = True,
        max_turns: int | None = 300,
        repetition_draw: bool = False,
    ) -> HiveGame:
        """Replay a UHP GameString (or start from a bare GameTypeString); ValueError if invalid."""
        game_type, state, turn, moves = split_gamestring(text)
        game = cls(game_type, tournament_opening, max_turns, repetition_draw)
        for i, move in enumerate(moves):
            try:
                game.play(move)
            except ValueError as err:
                raise ValueError(f"GameString move {i + 1} ({move!r}): {err}") from None
        if state is not None:
            actual_state, actual_turn = game_state_string(game._s), turn_string(game._s)
            if state != actual_state:
                raise ValueError(
                    f"GameStateString {state!r} does not match the moves, which give {actual_state!r}"
                )
            if turn != actual_turn:
                raise ValueError(f"TurnString {turn!r} does not match the moves, which give {actual_turn!r}")
        return game

    @classmethod
    def from_options(cls, options: HiveOptions) -> HiveGame:
        """A new game under already validated options."""
        game = cls.__new__(cls)
        game._setup(options)
        return game

    @classmethod
    def from_state(cls, state: np.ndarray, repetition_draw: bool = False) -> HiveGame:
        """A game in the position of an engine state array (e.g. a row of `HiveBatch.states`).

        The game type, tournament rule and ply cap are read from the state. The game knows no moves
        before this position: ``undo`` stops here, and the GameString lists only the moves played
        from here on (it does not replay from the empty board unless the state is the start).
        """
        state = np.array(state, dtype=np.int32)
        if state.shape != (STATE_SIZE,):
            raise ValueError(f"state must be an engine state of {STATE_SIZE} int32, got shape {state.shape}")
        options = HiveOptions.of_state(state, repetition_draw)
        game = cls.__new__(cls)
        game._setup(options, state)
        return game

    def copy(self) -> HiveGame:
        other = object.__new__(HiveGame)
        other.__dict__.update(self.__dict__)
        other._s = self._s.copy()
        other._w = new_workspace()
        other._views()
        other._moves = np.empty(MAX_MOVES, dtype=np.int32)
        other._count = -1
        other._history = self._history.copy()
        other._move_ids = list(self._move_ids)
        other._move_strs = list(self._move_strs)
        other._keys = list(self._keys)
        return other

    def _views(self) -> None:
        """The views into ``_w`` and ``_s`` (rebuilt, not copied, so that they alias again)."""
        self._marks = self._w[MARK:]
        self._state_view = self._s.view()
        self._state_view.flags.writeable = False

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        del state["_marks"], state["_state_view"]
        state["_count"] = -1
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._views()

    # ------------------------------------------------------------------ moves
    def legal_move_ids(self) -> np.ndarray:
        """Legal integer moves (a copy), one per distinct move; ``[PASS_MOVE]`` if forced; empty when over."""
        return self.legal_move_ids_view().copy()

    valid_move_ids = deprecated_alias("valid_move_ids", "legal_move_ids", "HiveGame")

    def legal_move_ids_view(self) -> np.ndarray:
        """`legal_move_ids` without the copy: a view of the game's own move list, valid until the game
        changes; read it at once and never write to it (the envs' per-ply mask encoder does)."""
        if self._count < 0:
            self._count = generate_moves(self._s, self._w, self._moves)
        return self._moves[: self._count]

    def legal_move_names(self) -> list[str]:
        """Legal moves as UHP strings, one per distinct move (in `legal_move_ids` order)."""
        return [format_move(self._s, int(m)) for m in self.legal_move_ids_view()]

    valid_moves = deprecated_alias("valid_moves", "legal_move_names", "HiveGame")

    def is_legal_id(self, move_id: int) -> bool:
        """Whether the integer move ``move_id`` is legal now (ValueError if it is not an integer)."""
        if type(move_id) is not int:
            move_id = check_integer(move_id, "move id")
        if self._count < 0:
            self._count = generate_moves(self._s, self._w, self._moves)
        return 0 <= move_id < NUM_MOVE_IDS and self._count > 0 and self._w[MARK + move_id] == self._w[W_STAMP]

    def play_id(self, move_id: int) -> None:
        """Play an integer move; ValueError (state unchanged) if it is not an integer or not legal here."""
        if type(move_id) is not int:
            move_id = check_integer(move_id, "move id")
        if not 0 <= move_id < NUM_MOVE_IDS:  # before the kernel: its argument is an int64
            raise ValueError(f"{self._describe(move_id)} is not legal: {self._why_illegal(move_id)}")
        if self._count < 0:
            self._count = generate_moves(self._s, self._w, self._moves)
        ply = len(self._move_ids)
        if ply == len(self._history):
            self._history = np.concatenate([self._history, np.empty_like(self._history)])
        if not apply_if_listed(self._s, self._marks, self._w[W_STAMP], move_id, self._history, ply):
            if self._s[I_STATUS] != 0:
                raise ValueError(f"move {move_id} cannot be played: the game is over ({self.outcome})")
            raise ValueError(f"{self._describe(move_id)} is not legal: {self._why_illegal(move_id)}")
        self._after_apply(move_id, None)

    def play(self, move: str) -> None:
        """Play a move given in any valid UHP form; ValueError (state unchanged) if malformed or illegal."""
        if self._s[I_STATUS] != 0:
            raise ValueError(f"{move!r} cannot be played: the game is over ({self.outcome})")
        move_id = parse_move(self._s, move)
        if not self.is_legal_id(move_id):
            raise ValueError(f"{move!r} is not legal: {self._why_illegal(move_id)}")
        text = format_move(self._s, move_id)
        ply = len(self._move_ids)
        if ply == len(self._history):
            self._history = np.concatenate([self._history, np.empty_like(self._history)])
        apply_move(self._s, move_id, self._history[ply])
        self._after_apply(move_id, text)

    def _after_apply(self, move_id: int, text: str | None) -> None:
        self._move_strs.append(text)
        self._move_ids.append(move_id)
        self._count = -1
        if self._options.repetition_draw:
            key = self._position_key()
            self._keys.append(key)
            if self._s[I_STATUS] == 0 and self._keys.count(key) >= 3:
                self._s[I_STATUS] = STATUS_DRAW

    def undo(self) -> None:
        """Take back the last move; ValueError if none was played."""
        if not self._move_ids:
            raise ValueError("undo: no move has been played")
        ply = len(self._move_ids) - 1
        undo_move(self._s, self._history[ply])
        self._move_ids.pop()
        self._move_strs.pop()
        if self._options.repetition_draw:
            self._keys.pop()
        self._count = -1

    def move_name(self, move_id: int) -> str:
        """UHP string of a legal integer move in the current position; ValueError if not legal."""
        if type(move_id) is not int:
            move_id = check_integer(move_id, "move id")
        if not self.is_legal_id(move_id):
            raise ValueError(f"{self._describe(move_id)} is not legal: {self._why_illegal(move_id)}")
        return format_move(self._s, move_id)

    def move_id(self, name: str) -> int:
        """Integer move of a UHP string (any valid form); ValueError if malformed or not legal."""
        move_id = parse_move(self._s, name)
        if not self.is_legal_id(move_id):
            raise ValueError(f"{name!r} is not legal: {self._why_illegal(move_id)}")
        return move_id

    move_id_to_uhp = deprecated_alias("move_id_to_uhp", "move_name", "HiveGame")
    uhp_to_move_id = deprecated_alias("uhp_to_move_id", "move_id", "HiveGame")

    # ------------------------------------------------------------------ built-in heuristics
    def greedy_move_scores(self) -> tuple[np.ndarray, np.ndarray]:
        """``(legal_move_ids(), scores)``: each legal move's 1-ply greedy score for the player to move.

        Scores (`hive_envs.hive.engine.heuristics.greedy_score`): +100 a move that wins at once, -100
        one that loses, 0 one that draws, else the mover's Queen margin after it. Computed by one
        compiled call on a copy of the state (the game is unchanged); ValueError once the game is over.
        """
        if self.is_terminal:
            raise ValueError(f"greedy scores: the game is over ({self.gamestring})")
        ids = self.legal_move_ids()
        scores = np.empty(len(ids), dtype=np.int64)
        greedy_scores(self._s.copy(), ids, scores)
        return ids, scores

    def queen_margin(self, seat: int) -> int:
        """Occupied cells around the opponent's Queen minus around ``seat``'s own, in [-6, 6]."""
        return int(queen_margin(self._s, check_seat(seat)))

    def potential(self, seat: int) -> float:
        """``seat``'s Queen margin / 6, in [-1, 1]: the progress measure of Hive."""
        return self.queen_margin(seat) / MAX_QUEEN_MARGIN

    def perft(self, depth: int) -> int:
        """Number of legal move sequences of ``depth`` plies from here (the game is unchanged).

        Counted by the kernels, so the optional repetition draw (kept by `HiveGame`) is not applied
        inside the tree.
        """
        if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 0:
            raise ValueError(f"perft depth must be an int >= 0, not {depth!r}")
        count = int(perft_kernel(self._s, self._w, int(depth)))
        self._count = -1
        return count

    # ------------------------------------------------------------------ inspection
    @property
    def state(self) -> np.ndarray:
        """Read-only view of the flat int32 state array (layout in `hive_envs.hive.engine.state`)."""
        return self._state_view

    @property
    def start_state(self) -> np.ndarray:
        """The state the game started from, a copy: the empty board, or the position `from_state` was
        given (with `move_ids`, it replays the game; the alpha-beta search reads its repetitions so)."""
        return self._options.new_state() if self._start is None else self._start.copy()

    @property
    def options(self) -> HiveOptions:
        return self._options

    @property
    def game_type(self) -> str:
        return self._options.game_type

    @property
    def expansions(self) -> str:
        return self._options.expansions

    @property
    def tournament_opening(self) -> bool:
        return self._options.tournament_opening

    @property
    def max_turns(self) -> int | None:
        return self._options.max_turns

    @property
    def repetition_draw(self) -> bool:
        return self._options.repetition_draw

    @property
    def to_move(self) -> int:
        return int(self._s[I_TO_MOVE])

    @property
    def ply(self) -> int:
        """Plies played so far (passes included)."""
        return int(self._s[I_PLY])

    turn_number = deprecated_alias("turn_number", "ply", "HiveGame", is_property=True)

    @property
    def passes_in_a_row(self) -> int:
        return int(self._s[I_PASSES])

    @property
    def last_moved(self) -> str | None:
        """Piece placed or moved on the previous ply (None at the start and after a pass)."""
        piece = int(self._s[I_LAST_MOVED])
        return None if piece < 0 else PIECE_NAMES[piece]

    @property
    def move_ids(self) -> list[int]:
        return list(self._move_ids)

    @property
    def outcome(self) -> str | None:
        """ "WhiteWins", "BlackWins", "Draw", or None while the game runs."""
        status = int(self._s[I_STATUS])
        return None if status == 0 else STATUS_NAMES[status]

    @property
    def result(self) -> float | None:
        """+1.0 White won, -1.0 Black won, 0.0 a draw, None while the game runs."""
        return _RESULTS[int(self._s[I_STATUS])]

    @property
    def is_terminal(self) -> bool:
        return bool(self._s[I_STATUS] != 0)

    def queen_placed(self, colour: int) -> bool:
        return bool(self._s[PCELL + check_seat(colour) * NUM_PIECE_SLOTS] >= 0)

    def queen_neighbours(self, colour: int) -> int:
        """Occupied cells around ``colour``'s Queen (0 if not placed); 6 means surrounded."""
        return int(queen_neighbours(self._s, check_seat(colour)))

    def reserve(self, colour: int) -> list[str]:
        """Names of ``colour``'s pieces of this game type not yet placed, in piece-id order."""
        lo = check_seat(colour) * NUM_PIECE_SLOTS
        return [
            PIECE_NAMES[p]
            for p in range(lo, lo + NUM_PIECE_SLOTS)
            if self._s[PCELL + p] < 0 and self._kind_in_game(int(PIECE_KIND[p]))
        ]

    def stacks(self) -> dict[tuple[int, int], list[str]]:
        """Occupied cells as ``{(q, r): [bottom, ..., top]}`` in axial coordinates.

        Coordinates are unwrapped over the hive (neighbouring stacks differ by one direction
        vector) starting from the stack nearest the origin at its `cell_to_qr` position, so
        ``qr_to_cell(q, r)`` is the cell of that stack in move ids and the state array.
        """
        s = self._s
        cells = sorted({int(s[PCELL + p]) for p in range(2 * NUM_PIECE_SLOTS) if s[PCELL + p] >= 0})
        if not cells:
            return {}
        anchor = min(cells, key=lambda c: (hex_distance(*cell_to_qr(c)), c))
        coords = {anchor: cell_to_qr(anchor)}
        queue = [anchor]
        while queue:
            cell = queue.pop()
            q, r = coords[cell]
            cq, cr = divmod(cell, GRID_SIZE)
            for dq, dr in DIRECTIONS:
                nb = qr_to_cell(cq + dq, cr + dr)
                if s[HEIGHT + nb] > 0 and nb not in coords:
                    coords[nb] = (q + dq, r + dr)
                    queue.append(nb)
        result = {}
        for cell, qr in coords.items():
            pieces = []
            p = int(s[TOP + cell])
            while p >= 0:
                pieces.append(PIECE_NAMES[p])
                p = int(s[PUNDER + p])
            result[qr] = pieces[::-1]
        return result

    @property
    def gamestring(self) -> str:
        """UHP GameString of the game so far."""
        if any(text is None for text in self._move_strs):
            replay = self._options.new_state() if self._start is None else self._start.copy()
            rec = np.empty(UNDO_SIZE, dtype=np.int32)
            for i, move_id in enumerate(self._move_ids):
                if self._move_strs[i] is None:
                    self._move_strs[i] = format_move(replay, move_id)
                apply_move(replay, move_id, rec)
        head = [self.game_type, game_state_string(self._s), turn_string(self._s)]
        return ";".join(head + [text for text in self._move_strs if text is not None])  # none left

    def record(self) -> str:
        """The game's text record: its UHP GameString (`from_gamestring` replays it)."""
        return self.gamestring

    def __repr__(self) -> str:
        return f"HiveGame.from_gamestring({self.gamestring!r})"

    # ------------------------------------------------------------------ helpers
    def _position_key(self) -> int:
        with np.errstate(over="ignore"):  # uint64 wrap-around is intended (see engine.repetition)
            return int(position_key(self._s))

    def _kind_in_game(self, kind: int) -> bool:
        return bool((self._options.kinds_mask >> kind) & 1)

    def _describe(self, move_id: int) -> str:
        if move_id == PASS_MOVE:
            return "pass"
        if not 0 <= move_id < PASS_MOVE:
            return f"move id {move_id}"
        return f"{PIECE_NAMES[move_piece(move_id)]} to cell {cell_to_qr(move_cell(move_id))}"

    def _why_illegal(self, move_id: int) -> str:
        """A human reason why ``move_id`` is not among the legal moves (best effort, never raises)."""
        s = self._s
        if s[I_STATUS] != 0:
            return f"the game is over ({self.outcome})"
        if not 0 <= move_id < NUM_MOVE_IDS:
            return f"move ids run from 0 to {PASS_MOVE} (pass)"
        if move_id == PASS_MOVE:
            return "passing is only allowed when no other move is"
        colour = int(s[I_TO_MOVE])
        piece, cell = move_piece(move_id), move_cell(move_id)
        name, kind = PIECE_NAMES[piece], int(PIECE_KIND[piece])
        own_turns = int(s[I_PLY]) // 2
        queen_in = s[PCELL + colour * NUM_PIECE_SLOTS] >= 0
        if not self._kind_in_game(kind):
            return f"{name} is not in game type {self.game_type}"
        if s[PCELL + piece] < 0:
            if piece // NUM_PIECE_SLOTS != colour:
                return f"it is {COLOUR_NAMES[colour]}'s turn; {name} cannot be placed"
            first = colour * NUM_PIECE_SLOTS + int(KIND_FIRST_SLOT[kind])
            lower = [PIECE_NAMES[p] for p in range(first, piece) if s[PCELL + p] < 0]
            if lower:
                return f"{lower[0]} must be placed before {name}"
            if kind == QUEEN and self._options.tournament_opening and own_turns == 0:
                return "the Queen may not be placed on a player's first turn (tournament opening)"
            if kind != QUEEN and own_turns == 3 and not queen_in:
                return f"{COLOUR_NAMES[colour]} must place the Queen on their fourth turn"
            if s[HEIGHT + cell] > 0:
                return "a piece cannot be placed on top of another"
            return "a placed piece must touch its own colour and not the opponent's (or follow the opening)"
        if piece // NUM_PIECE_SLOTS != colour and not self._kind_in_game(7):
            return f"it is {COLOUR_NAMES[colour]}'s turn; {name} is the opponent's"
        if piece == s[I_LAST_MOVED]:
            return f"{name} moved on the previous turn and cannot move or be moved now"
        if not queen_in:
            return f"{COLOUR_NAMES[colour]} cannot move pieces before placing the Queen"
        if int(s[PCELL + piece]) == cell:
            return "a piece may not end its move where it started"
        if s[TOP + s[PCELL + piece]] != piece:
            return f"{name} is covered and cannot move"
        return f"{name} cannot reach that cell by its own movement or a Pillbug throw"
