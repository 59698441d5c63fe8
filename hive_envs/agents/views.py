"""Game views: what a network-backed player needs from a game engine, for Hive and Hoyito.

A view ties an engine (`HiveGame`, `HoyitoGame`) to the encoding a checkpoint was trained on:

- ``view.encode(game) -> (observation, moves, actions)``: the observation of the player to move,
  the legal moves in the engine's own form (Hive integer move ids, Hoyito absolute holes) and, in
  the same order, their action indices in the network's action space;
- ``view.searchable(game)``: a `SearchState` over a private copy of ``game`` that search can play
  into and take back (``play`` / ``undo``), with ``to_move``, ``is_terminal`` and ``outcome``
  (+1 if player 0 won, -1 if player 1 won, 0 a draw);
- ``view.move_name(game, move)``: the move as users write it (UHP string, hole number).

`view_for_checkpoint(data)` builds the view a checkpoint's ``game`` / ``game_options`` call for.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

_HIVE_OUTCOME = {"WhiteWins": 1.0, "BlackWins": -1.0, "Draw": 0.0}


class SearchState(Protocol):
    """A position search can walk: moves played with ``play`` are taken back with ``undo``."""

    game: Any

    @property
    def to_move(self) -> int: ...

    @property
    def is_terminal(self) -> bool: ...

    @property
    def outcome(self) -> float:
        """Final result from player 0's side: +1, -1 or 0 (only when terminal)."""
        ...

    def play(self, move: int) -> None: ...

    def undo(self) -> None: ...


class _GameCopyState:
    """A search state over a private copy of a game: seat to move and end of game come from it."""

    def __init__(self, game):
        self.game = game.copy()

    @property
    def to_move(self) -> int:
        return self.game.to_move

    @property
    def is_terminal(self) -> bool:
        return self.game.is_terminal


class HiveSearchState(_GameCopyState):
    @property
    def outcome(self) -> float:
        return _HIVE_OUTCOME[self.game.outcome]

    def play(self, move: int) -> None:
        self.game.play_id(int(move))

    def undo(self) -> None:
        self.game.undo()


class HiveView:
    """Hive positions under the v0 encoding of one expansion set (`hive_envs.hive.encoding`)."""

    game_name = "hive"

    def __init__(self, expansions: str = ""):
        from hive_envs.hive import encoding

        self._E = encoding
        self.encoding = enc = encoding.make_encoding(expansions)
        self.expansions = expansions
        self.observation_shape = enc.obs_shape
        self.num_actions = enc.num_actions
        self._frame = np.zeros(encoding.FRAME_SIZE, dtype=np.int32)

    @property
    def game_type(self) -> str:
        return "Base" + (f"+{self.expansions}" if self.expansions else "")

    def check_game(self, game) -> None:
        """ValueError unless ``game`` is a Hive game of this view's game type."""
        game_type = getattr(game, "game_type", None)
        if game_type != self.game_type:
            raise ValueError(f"the agent plays {self.game_type}; this game is {game_type}")

    def encode(self, game) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        E, enc = self._E, self.encoding
        state = game.state
        moves = game.valid_move_ids()
        observation = np.zeros(enc.obs_shape, dtype=np.uint8)
        E.encode_observation(
            state, game.to_move, enc.grid, enc.tiles_per_colour, enc.slot_of, enc.kinds, observation
        )
        E.hive_frame(state, enc.grid, self._frame)
        actions = np.empty(len(moves), dtype=np.int64)
        E.actions_of_moves(
            state, moves, len(moves), self._frame, enc.grid, enc.tiles_per_colour, enc.slot_of, actions
        )
        return observation, moves, actions

    def searchable(self, game) -> HiveSearchState:
        return HiveSearchState(game)

    def move_name(self, game, move: int) -> str:
        return game.move_id_to_uhp(int(move))


class HoyitoSearchState(_GameCopyState):
    """`HoyitoGame` has no undo: keep a stack of state arrays (a few dozen int32 each)."""

    def __init__(self, game):
        super().__init__(game)
        self._stack: list[np.ndarray] = []

    @property
    def outcome(self) -> float:
        winner = self.game.winner
        return 0.0 if winner == -1 else (1.0 if winner == 0 else -1.0)

    def play(self, move: int) -> None:
        self._stack.append(self.game.state.copy())
        self.game.play(int(move))

    def undo(self) -> None:
        self.game.state[:] = self._stack.pop()


class HoyitoView:
    """Hoyito II positions; action ``k`` = the mover's k-th hole from their left."""

    game_name = "hoyito"

    def __init__(self, **options):
        from hive_envs.hoyito import HoyitoGame
        from hive_envs.hoyito.encoding import OBS_DTYPE, observation_size

        self.options = HoyitoGame(**options).options  # validates and resolves the defaults
        n = self.options.holes_per_row
        self.observation_shape = (observation_size(n),)
        self.num_actions = n
        self._dtype = OBS_DTYPE

    def check_game(self, game) -> None:
        if getattr(game, "options", None) != self.options:
            raise ValueError(
                f"the agent plays Hoyito with {self.options}; this game has "
                f"{getattr(game, 'options', type(game).__name__)}"
            )

    def encode(self, game) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        from hive_envs.hoyito.engine import kernels

        o = self.options
        observation = np.zeros(self.observation_shape, dtype=self._dtype)
        kernels.encode(
            game.state, game.to_move, o.holes_per_row, o.no_capture_limit, o.total_counters, observation
        )
        moves = np.asarray(game.legal_moves(), dtype=np.int64)
        return observation, moves, moves - game.to_move * o.holes_per_row

    def searchable(self, game) -> HoyitoSearchState:
        return HoyitoSearchState(game)

    def move_name(self, game, move: int) -> str:
        return str(int(move))


def view_for_checkpoint(data: dict):
    """The view of a loaded checkpoint's game; ValueError for a game no view knows, or spaces that
    do not match what the view computes (a checkpoint from another encoding)."""
    game, options = data["game"], dict(data["game_options"])
    if game == "hive":
        view = HiveView(str(options.get("expansions", "")))
    elif game == "hoyito":
        view = HoyitoView(**options)
    else:
        raise ValueError(f"checkpoint is for game {game!r}; play-time agents exist for 'hive' and 'hoyito'")
    if tuple(data["observation_shape"]) != tuple(view.observation_shape) or int(data["num_actions"]) != int(
        view.num_actions
    ):
        raise ValueError(
            f"checkpoint spaces (observation {tuple(data['observation_shape'])}, {data['num_actions']} actions) "
            f"do not match the {game} encoding (observation {view.observation_shape}, {view.num_actions} actions)"
        )
    return view
