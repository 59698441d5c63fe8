"""`HoyitoGame`: one game of Hoyito II, a thin Python wrapper over the compiled kernels.

Interface (the contract of `shared/rules/hoyito_ii.md`)::

    game = HoyitoGame(holes_per_row=6, seeds_per_hole=4)
    game.board, game.captured, game.to_move, game.legal_moves(), game.play(hole),
    game.is_terminal, game.winner, game.copy(),
    HoyitoGame.from_position(board, captured, to_move, **options)

Holes are absolute indices (see `hive_envs.hoyito.engine.kernels` for the layout).
"""

from __future__ import annotations

import operator

import numpy as np

from hive_envs.hoyito.engine import kernels as K
from hive_envs.hoyito.engine.options import HoyitoOptions


class HoyitoGame:
    """A Hoyito II game; every rule option is a keyword argument (see `HoyitoOptions`)."""

    __slots__ = ("_limit", "_m", "_max_laps", "_n", "options", "state")

    def __init__(self, holes_per_row=6, seeds_per_hole=4, max_laps=1000, no_capture_limit=None):
        self._setup(HoyitoOptions(holes_per_row, seeds_per_hole, max_laps, no_capture_limit))
        K.init_state(self.state, self._n, self.options.seeds_per_hole)

    def _setup(self, options: HoyitoOptions) -> None:
        self.options = options
        self._n = options.holes_per_row
        self._m = 2 * self._n
        self._max_laps = options.max_laps
        self._limit = options.no_capture_limit
        self.state = np.zeros(K.state_size(self._n), dtype=np.int32)

    @classmethod
    def from_position(cls, board, captured, to_move, plies_without_capture=0, **options) -> HoyitoGame:
        """A game at any position that conserves the counters of the options' start position.

        `plies_without_capture` sets the stall guard's clock. If the player to move has no
        counters, the automatic pass is applied (and the game is over if neither has any).
        """
        game = cls.__new__(cls)
        game._setup(HoyitoOptions(**options))
        n, m = game._n, game._m
        board = np.asarray(board)
        if board.shape != (m,) or not np.issubdtype(board.dtype, np.integer) or (board < 0).any():
            raise ValueError(f"board must be {m} non-negative integers, got {board.tolist()!r}")
        if len(captured) != 2 or any(int(c) != c or c < 0 for c in captured):
            raise ValueError(f"captured must be two non-negative integers, got {captured!r}")
        total = int(board.sum()) + int(captured[0]) + int(captured[1])
        if total != game.options.total_counters:
            raise ValueError(
                f"board + captured hold {total} counters; these options need {game.options.total_counters}"
            )
        if to_move not in (0, 1):
            raise ValueError(f"to_move must be 0 or 1, got {to_move!r}")
        if not 0 <= plies_without_capture < game._limit:
            raise ValueError(
                f"plies_without_capture must be in [0, {game._limit}), got {plies_without_capture!r}"
            )
        s = game.state
        s[:m] = board
        s[m + K.CAPTURED], s[m + K.CAPTURED + 1] = captured
        s[m + K.TURN], s[m + K.STALL] = to_move, plies_without_capture
        if K.row_sum(s, n, to_move) == 0:
            s[m + K.TURN] = 1 - to_move
            if K.row_sum(s, n, 1 - to_move) == 0:
                s[m + K.OVER] = 1
        return game

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
        if not self.is_terminal:
            return None
        return int(K.winner(self.state, self._n))

    def legal_moves(self) -> list[int]:
        s, n = self.state, self._n
        if s[self._m + K.OVER]:
            return []
        base = int(s[self._m + K.TURN]) * n
        row = s[base : base + n].tolist()
        return [base + k for k in range(n) if row[k]]

    def play(self, hole) -> int:
        """Play absolute `hole`; return the counters captured. Illegal -> ValueError, state unchanged."""
        if hole.__class__ is not int:
            try:
                if hole.__class__ is bool:
                    raise TypeError
                hole = operator.index(hole)
            except TypeError:
                raise ValueError(f"hole must be an integer, got {hole!r}") from None
        if not -(2**62) < hole < 2**62:  # beyond the compiled kernel's int64
            raise ValueError(f"illegal move {hole}: legal holes are {self.legal_moves()}")
        taken = K.play_checked(self.state, hole, self._n, self._max_laps, self._limit)
        if taken < 0:
            if self.is_terminal:
                raise ValueError(f"illegal move {hole}: the game is over")
            raise ValueError(f"illegal move {hole}: legal holes are {self.legal_moves()}")
        return taken

    def capture_values(self) -> np.ndarray:
        """Counters each of the mover's holes (from their left) would capture now; -1 if illegal."""
        out = np.empty(self._n, dtype=np.int32)
        K.capture_values(self.state, self._n, self._max_laps, self._limit, np.empty_like(self.state), out)
        return out

    def copy(self) -> HoyitoGame:
        game = self.__class__.__new__(self.__class__)
        game.options, game._n, game._m = self.options, self._n, self._m
        game._max_laps, game._limit = self._max_laps, self._limit
        game.state = self.state.copy()
        return game

    def __repr__(self) -> str:
        return (
            f"HoyitoGame.from_position({self.board}, {self.captured}, {self.to_move}, "
            f"plies_without_capture={self.plies_without_capture}, holes_per_row={self._n}, "
            f"seeds_per_hole={self.options.seeds_per_hole})"
        )
