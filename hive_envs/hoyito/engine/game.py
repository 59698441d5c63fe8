"""`HoyitoGame`: one game of Hoyito II, a thin Python wrapper over the compiled kernels.

Interface (the rules are `docs/rules/hoyito_ii.md`)::

    game = HoyitoGame(holes_per_row=6, seeds_per_hole=4)
    game.board, game.captured, game.to_move, game.legal_move_ids(), game.play_id(hole), game.undo(),
    game.play("3"), game.legal_move_names(), game.is_terminal, game.winner, game.copy(), game.record(),
    HoyitoGame.from_position(board, captured, to_move, **options), HoyitoGame.from_record(text)

`HoyitoGame` implements the game protocol of `hive_envs.core.game`: move ids are absolute holes
(see `hive_envs.hoyito.engine.kernels` for the layout), ``move_name`` is the hole number as text,
``greedy_move_scores`` the counters each move captures at once, ``potential`` the captured margin.
As in every game, ``play(name)`` plays a move in the game's notation (here the hole number as text)
and ``play_id(move_id)`` a move id (here the hole; both return the counters captured). Names of
earlier versions still work and warn (DeprecationWarning): ``legal_moves()`` (now
``legal_move_ids()``, a list then) and ``play(hole)`` with an integer hole (now ``play_id``).
``undo`` restores the state array saved before each move (a few dozen int32 per move).
"""

from __future__ import annotations

import warnings

import numpy as np

from hive_envs.core.game import as_integer, check_integer, check_seat
from hive_envs.hoyito.engine import kernels as K
from hive_envs.hoyito.engine.options import HoyitoOptions

RECORD_NAME = "HoyitoII"
POTENTIAL_NAME = "captured_margin"
"""The name of Hoyito's potential (`HoyitoGame.potential`) in the envs' `reward_shaping`."""
_OPTION_NAMES = ("holes_per_row", "seeds_per_hole", "max_laps", "no_capture_limit")


class HoyitoGame:
    """A Hoyito II game; every rule option is a keyword argument (see `HoyitoOptions`)."""

    __slots__ = ("_history", "_limit", "_m", "_max_laps", "_n", "_plies", "_start", "options", "state")
    game_name = "hoyito"

    def __init__(self, holes_per_row=6, seeds_per_hole=4, max_laps=1000, no_capture_limit=None):
        self._setup(HoyitoOptions(holes_per_row, seeds_per_hole, max_laps, no_capture_limit))
        K.init_state(self.state, self._n, self.options.seeds_per_hole)

    def _setup(self, options: HoyitoOptions) -> None:
        self.options = options
        self._n = options.holes_per_row
        self._m = 2 * self._n
        self._max_laps = options.max_laps
        limit = options.no_capture_limit
        assert limit is not None  # HoyitoOptions resolves None to the default
        self._limit = limit
        self.state = np.zeros(K.state_size(self._n), dtype=np.int32)
        # row k: the state before the k-th move played here, then that move's hole (for undo and record)
        self._history = np.empty((16, self.state.size + 1), dtype=np.int32)
        self._plies = 0  # moves played here (rows of _history in use)
        self._start: np.ndarray | None = None  # a start other than the options' start position

    @classmethod
    def from_options(cls, options: HoyitoOptions) -> HoyitoGame:
        """A new game under already validated options."""
        game = cls.__new__(cls)
        game._setup(options)
        K.init_state(game.state, game._n, options.seeds_per_hole)
        return game

    @classmethod
    def from_position(cls, board, captured, to_move, plies_without_capture=0, **options) -> HoyitoGame:
        """A game at any position that conserves the counters of the options' start position.

        `plies_without_capture` sets the stall guard's clock. If the player to move has no
        counters, the automatic pass is applied (and the game is over if neither has any).
        """
        unknown = sorted(set(options) - set(_OPTION_NAMES))
        if unknown:
            raise ValueError(
                f"Hoyito has no option {', '.join(map(repr, unknown))}; its options are {_OPTION_NAMES}"
            )
        game = cls.__new__(cls)
        game._setup(HoyitoOptions(**options))
        n, m, total = game._n, game._m, game.options.total_counters
        board = np.asarray(board)
        if (
            board.shape != (m,)
            or not np.issubdtype(board.dtype, np.integer)
            or (board < 0).any()
            or (board > total).any()  # before summing: no int64 wrap-around
        ):
            raise ValueError(f"board must be {m} integers in [0, {total}], got {board.tolist()!r}")
        given = [as_integer(c) for c in captured] if isinstance(captured, (list, tuple, np.ndarray)) else []
        pair = [c for c in given if c is not None and 0 <= c <= total]
        if len(given) != 2 or len(pair) != 2:
            raise ValueError(f"captured must be two integers in [0, {total}], got {captured!r}")
        counted = int(board.sum()) + pair[0] + pair[1]
        if counted != total:
            raise ValueError(f"board + captured hold {counted} counters; these options need {total}")
        if as_integer(to_move) not in (0, 1):
            raise ValueError(f"to_move must be 0 or 1, got {to_move!r}")
        to_move = as_integer(to_move)
        stall = as_integer(plies_without_capture)
        if stall is None or not 0 <= stall < game._limit:
            raise ValueError(
                f"plies_without_capture must be an integer in [0, {game._limit}), got {plies_without_capture!r}"
            )
        s = game.state
        s[:m] = board
        s[m + K.CAPTURED], s[m + K.CAPTURED + 1] = pair
        s[m + K.TURN], s[m + K.STALL] = to_move, stall
        if K.row_sum(s, n, to_move) == 0:
            s[m + K.TURN] = 1 - to_move
            if K.row_sum(s, n, 1 - to_move) == 0:
                s[m + K.OVER] = 1
        game._start = s.copy()
        return game

    @classmethod
    def from_state(cls, state: np.ndarray, options: HoyitoOptions) -> HoyitoGame:
        """A game in the position of a kernel state array (e.g. a row of `HoyitoBatch.states`), a copy.

        The game knows no moves before this position: ``undo`` stops here.
        """
        game = cls.__new__(cls)
        game._setup(options)
        state = np.asarray(state)
        if state.shape != game.state.shape:
            raise ValueError(f"state must have {game.state.size} entries for {options}, got {state.shape}")
        game.state[:] = state
        game._start = game.state.copy()
        return game

    # ------------------------------------------------------------------ inspection
    @property
    def holes_per_row(self) -> int:
        return self._n

    @property
    def board(self) -> list[int]:
        return self.state[: self._m].tolist()

    @property
    def captured(self) -> tuple[int, int]:
        return int(self.state[self._m + K.CAPTURED]), int(self.state[self._m + K.CAPTURED + 1])

    @property
    def to_move(self) -> int:
        return int(self.state[self._m + K.TURN])

    @property
    def plies_without_capture(self) -> int:
        return int(self.state[self._m + K.STALL])

    @property
    def is_terminal(self) -> bool:
        return bool(self.state[self._m + K.OVER])

    @property
    def ply(self) -> int:
        """Plies (moves) played so far; automatic passes are not counted."""
        return int(self.state[self._m + K.PLY])

    @property
    def winner(self) -> int | None:
        """0 or 1 for the player with more counters once the game is over, -1 a draw, None before."""
        if not self.is_terminal:
            return None
        return int(K.winner(self.state, self._n))

    @property
    def result(self) -> float | None:
        """+1.0 South won, -1.0 North won, 0.0 a draw, None while the game runs."""
        winner = self.winner
        return None if winner is None else (0.0, 1.0, -1.0)[winner + 1]

    # ------------------------------------------------------------------ moves
    def _legal_holes(self) -> list[int]:
        """The mover's non-empty holes (absolute indices), ascending; empty once the game is over."""
        s, n = self.state, self._n
        if s[self._m + K.OVER]:
            return []
        base = int(s[self._m + K.TURN]) * n
        row = s[base : base + n].tolist()
        return [base + k for k in range(n) if row[k]]

    def legal_move_ids(self) -> np.ndarray:
        """The mover's non-empty holes (absolute indices, ascending) as an int64 array; empty once over."""
        return np.array(self._legal_holes(), dtype=np.int64)

    def legal_moves(self) -> list[int]:
        """Deprecated: `legal_move_ids` (this returns them as a list)."""
        warnings.warn(
            "HoyitoGame.legal_moves is deprecated; use HoyitoGame.legal_move_ids",
            DeprecationWarning,
            stacklevel=2,
        )
        return self._legal_holes()

    def legal_move_names(self) -> list[str]:
        """The legal moves as users type them: hole numbers as text."""
        return [str(hole) for hole in self._legal_holes()]

    def play(self, name: str) -> int:
        """Play the move a typed hole number names (`move_id`); return the counters captured.
        ValueError (state unchanged) for text that names no legal hole.

        An integer hole is still taken, with a DeprecationWarning: `play_id` plays move ids.
        """
        if not isinstance(name, str) and as_integer(name) is not None:
            warnings.warn(
                "HoyitoGame.play(hole) with an integer hole is deprecated; use HoyitoGame.play_id(hole)",
                DeprecationWarning,
                stacklevel=2,
            )
            return self.play_id(name)
        return self.play_id(self.move_id(name))

    def play_id(self, hole) -> int:
        """Play absolute `hole`; return the counters captured. Illegal -> ValueError, state unchanged."""
        if hole.__class__ is not int:
            hole = check_integer(hole, "hole")
        if not -(2**62) < hole < 2**62:  # beyond the compiled kernel's int64
            self._refuse(hole)
        ply = self._plies
        if ply == len(self._history):
            self._history = np.concatenate([self._history, np.empty_like(self._history)])
        taken = K.play_checked(self.state, hole, self._n, self._max_laps, self._limit, self._history, ply)
        if taken < 0:
            self._refuse(hole)
        self._plies = ply + 1
        return taken

    def undo(self) -> None:
        """Take back the last move; ValueError if none was played."""
        if not self._plies:
            raise ValueError("undo: no move has been played")
        self._plies -= 1
        self.state[:] = self._history[self._plies, :-1]

    def move_name(self, move_id: int) -> str:
        """The hole number of a legal move, as text; ValueError if it is not legal now."""
        hole = check_integer(move_id, "hole")
        if hole not in self._legal_holes():
            self._refuse(hole)
        return str(hole)

    def move_id(self, name: str) -> int:
        """The legal move a typed hole number (ASCII digits, optionally signed) names; ValueError for text
        that is not one (``int()`` would also take "1_0" or non-ASCII digits) or names no legal hole."""
        text = name.strip() if isinstance(name, str) else ""
        digits = text[1:] if text[:1] in ("-", "+") else text
        if not (digits.isascii() and digits.isdigit()):
            legal = " ".join(str(h) for h in self._legal_holes())
            raise ValueError(f"{name!r} is not a hole number; legal holes: {legal}")
        hole = int(text)
        self.move_name(hole)
        return hole

    def _refuse(self, hole):
        if self.is_terminal:
            raise ValueError(f"illegal move {hole}: the game is over")
        raise ValueError(f"illegal move {hole}: legal holes are {self._legal_holes()}")

    # ------------------------------------------------------------------ built-in heuristics
    def capture_values(self) -> np.ndarray:
        """Counters each of the mover's holes (from their left) would capture now; -1 if illegal."""
        out = np.empty(self._n, dtype=np.int32)
        K.capture_values(self.state, self._n, self._max_laps, self._limit, np.empty_like(self.state), out)
        return out

    def greedy_move_scores(self) -> tuple[np.ndarray, np.ndarray]:
        """``(legal_move_ids(), scores)``: the counters each legal move captures at once (the greedy
        player's score; a capture that ends the game includes the last-four sweep)."""
        if self.is_terminal:
            raise ValueError("greedy scores: the game is over")
        ids = self.legal_move_ids()
        return ids, self.capture_values()[ids - self.to_move * self._n].astype(np.int64)

    def potential(self, seat: int) -> float:
        """``seat``'s captured counters minus the opponent's, over all counters: in [-1, 1]."""
        return int(K.captured_margin(self.state, self._n, check_seat(seat))) / self.options.total_counters

    # ------------------------------------------------------------------ copies and records
    def copy(self) -> HoyitoGame:
        game = self.__class__.__new__(self.__class__)
        game.options, game._n, game._m = self.options, self._n, self._m
        game._max_laps, game._limit = self._max_laps, self._limit
        game.state = self.state.copy()
        game._history = self._history.copy()
        game._plies = self._plies
        game._start = self._start
        return game

    def record(self) -> str:
        """The game as text `from_record` replays: ``HoyitoII;<option>=<value>;...;[start=...;]moves=2,11``.

        ``start`` (a game made by `from_position` / `from_state`) is the board, the captured totals,
        the player to move and the stall clock: ``start=4,4,...,4/0,0/0/0``.
        """
        o = self.options
        fields = [RECORD_NAME] + [f"{name}={getattr(o, name)}" for name in _OPTION_NAMES]
        if self._start is not None:
            s, m = self._start, self._m
            board = ",".join(str(int(c)) for c in s[:m])
            captured = f"{int(s[m + K.CAPTURED])},{int(s[m + K.CAPTURED + 1])}"
            fields.append(f"start={board}/{captured}/{int(s[m + K.TURN])}/{int(s[m + K.STALL])}")
        fields.append("moves=" + ",".join(str(h) for h in self._history[: self._plies, -1].tolist()))
        return ";".join(fields)

    @classmethod
    def from_record(cls, text: str) -> HoyitoGame:
        """Replay a `record`; ValueError naming what is wrong with it."""
        if not isinstance(text, str) or not text.startswith(RECORD_NAME + ";"):
            raise ValueError(f"a Hoyito record starts with {RECORD_NAME!r};, got {text!r}")
        fields = dict(part.partition("=")[::2] for part in text.split(";")[1:])
        try:
            options = {name: int(fields[name]) for name in _OPTION_NAMES}
            moves = [int(h) for h in fields["moves"].split(",") if h]
        except (KeyError, ValueError) as error:
            raise ValueError(f"Hoyito record {text!r} lacks or garbles {error}") from None
        if "start" in fields:
            try:
                board, captured, to_move, stall = fields["start"].split("/")
                game = cls.from_position(
                    [int(c) for c in board.split(",")],
                    [int(c) for c in captured.split(",")],
                    int(to_move),
                    int(stall),
                    **options,
                )
            except (TypeError, ValueError) as error:
                raise ValueError(f"Hoyito record {text!r}: bad start position: {error}") from None
        else:
            game = cls(**options)
        for i, hole in enumerate(moves):
            try:
                game.play_id(hole)
            except ValueError as error:
                raise ValueError(f"Hoyito record move {i + 1} ({hole}): {error}") from None
        return game

    def __repr__(self) -> str:
        return (
            f"HoyitoGame.from_position({self.board}, {self.captured}, {self.to_move}, "
            f"plies_without_capture={self.plies_without_capture}, holes_per_row={self._n}, "
            f"seeds_per_hole={self.options.seeds_per_hole})"
        )
