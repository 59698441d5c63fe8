"""The game protocol: the one interface every tool talks to (players, search, arena, UHP, play CLI, envs).

A two-player, turn-based game with integer moves. `hive_envs.hive.HiveGame` and
`hive_envs.hoyito.HoyitoGame` implement it; a third game implements it (plus an encoder for its
envs) and every player, the search, the arena and the terminal front end work on it unchanged.

Seats are 0 (moves first: White / South) and 1. Move ids are the engine's own integers (Hive:
`pack_move(piece, cell)` or `PASS_MOVE`; Hoyito: the absolute hole). Semantics:

- ``legal_move_ids()``: the legal moves now as a new integer array, one per distinct move; empty once
  the game is over; never empty while it runs (a forced pass is a move where the rules have one).
- ``play_id(move_id)``: play a legal move; ValueError (game unchanged) for anything else. A move id
  is an integer (Python ``int``, numpy integer); a bool, float, string or None is refused, never
  rounded (`check_integer`).
- ``undo()``: take back the last ``play_id``; ValueError when nothing was played.
- ``copy()``: an independent game in the same position, with the same history (``undo`` works on it).
- ``to_move`` (0/1), ``is_terminal``, ``ply`` (moves played), ``result``: +1.0 if seat 0 won, -1.0 if
  seat 1 won, 0.0 for a draw, None while the game runs (always from seat 0's side).
- ``move_name(move_id)`` / ``move_id(name)``: a legal move as users write it (UHP string, hole number)
  and back; ValueError for a malformed or illegal one.
- ``record()``: a text record of the game that the game's own parser replays (Hive: the UHP GameString).
- ``greedy_move_scores()``: ``(legal_move_ids(), scores)``: the game's 1-ply heuristic score of each
  legal move for the player to move (higher is better; the greedy player picks a maximum).
- ``potential(seat)``: the game's progress measure for ``seat`` in [-1, 1] (Hive: the Queen margin / 6;
  Hoyito: the captured-counter margin / all counters); zero-sum: ``potential(0) == -potential(1)``.
- ``game_name`` ("hive", "hoyito") and ``options`` (the game's frozen options value object).

A player or a search may ``play_id``/``undo`` freely on a game it was given if it leaves it as found.
"""

from __future__ import annotations

import operator
import warnings
from typing import Any, ClassVar, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Game(Protocol):
    """A two-player game behind integer moves (see the module docstring for the semantics)."""

    game_name: str

    @property
    def options(self) -> Any: ...

    @property
    def to_move(self) -> int: ...

    @property
    def is_terminal(self) -> bool: ...

    @property
    def result(self) -> float | None: ...

    @property
    def ply(self) -> int: ...

    def legal_move_ids(self) -> np.ndarray: ...

    def play_id(self, move_id: int) -> Any: ...

    def undo(self) -> None: ...

    def copy(self) -> Game: ...

    def move_name(self, move_id: int) -> str: ...

    def move_id(self, name: str) -> int: ...

    def record(self) -> str: ...

    def greedy_move_scores(self) -> tuple[np.ndarray, np.ndarray]: ...

    def potential(self, seat: int) -> float: ...


class OneGameEncoder:
    """Base of an encoder made for one game under one ``options`` (`HoyitoEncoding`): whether a game is
    one it encodes, and how the refusal of another names it (`hive_envs.agents.views`). A subclass
    sets ``encodes`` (the ``game_name`` of its games) and ``options``; its ``label`` names itself."""

    encodes: ClassVar[str]
    options: Any

    def describes(self, game) -> bool:
        """Whether ``game`` is a game of ``encodes`` under this encoder's options."""
        return getattr(game, "game_name", None) == self.encodes and game.options == self.options

    @staticmethod
    def label_of(game) -> str:
        """``game`` by its options, else its game name, else its type."""
        return str(getattr(game, "options", getattr(game, "game_name", type(game).__name__)))


def result_for(result: float | None, seat: int) -> float | None:
    """A result from seat 0's side (`Game.result`) seen from ``seat``."""
    return None if result is None else (result if seat == 0 else -result) + 0.0  # never -0.0


def check_seat(seat) -> int:
    """``seat`` as an int 0 or 1; ValueError otherwise."""
    if isinstance(seat, (bool, np.bool_)) or seat not in (0, 1):
        raise ValueError(f"seat must be 0 or 1, not {seat!r}")
    return int(seat)


_BOOL_TYPES = (bool, np.bool_)


def as_integer(value) -> int | None:
    """``value`` as an int if it is an integer (int, numpy integer, 0-d integer array), else None.

    Bools are not integers here (``True`` is no action 1), and floats are never rounded. The fast
    path, a plain int, costs one type check: this runs on every env step.
    """
    kind = type(value)
    if kind is int:
        return value
    if kind in _BOOL_TYPES:  # neither can be subclassed, so a type lookup is exact
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def check_integer(value, what: str) -> int:
    """``value`` as an int (see `as_integer`); ValueError naming ``what`` and the value otherwise."""
    index = as_integer(value)
    if index is None:
        raise ValueError(f"{what} must be an integer, got {value!r} ({type(value).__name__})")
    return index


def deprecated_alias(old: str, new: str, owner: str, *, is_property: bool = False):
    """A class attribute ``old`` that warns (DeprecationWarning) and forwards to ``new``.

    Each concept has one name (the glossary in docs/architecture.md); a public name that an earlier
    version documented stays reachable this way for a while: ``turn_number = deprecated_alias(
    "turn_number", "ply", "HiveGame", is_property=True)``.
    """
    message = f"{owner}.{old} is deprecated; use {owner}.{new}"

    def forward(self, *args, **kwargs):
        warnings.warn(message, DeprecationWarning, stacklevel=2)
        return getattr(self, new)(*args, **kwargs)

    if is_property:

        def read(self):
            warnings.warn(message, DeprecationWarning, stacklevel=2)
            return getattr(self, new)

        return property(read, doc=f"Deprecated: `{new}`.")
    forward.__name__ = forward.__qualname__ = old
    forward.__doc__ = f"Deprecated: `{new}`."
    return forward
