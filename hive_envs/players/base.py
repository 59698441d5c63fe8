"""What a player is: something that picks a move on a protocol game (`hive_envs.core.game.Game`).

A player has ``name``, ``choose(game, limits=None) -> move_id`` (a legal move of ``game``, which it
leaves as it found it), ``seed(seed)`` (reseed its random choices; the envs call it on reset so that
seeded episodes replay) and ``close()`` (release processes or files). Every tool takes players in this
one form: the arena and ``evaluate.py``, the Gym envs' ``opponent=`` and ``make_vec``, the UHP
engine's ``bestmove`` and the terminal front end.

A player whose move can pass a caller's time limit however it is asked (a network whose features run
a search of their own on every position) says so with ``keeps_move_time = False`` (`keeps_move_time`):
the tools that time moves refuse it for a time limit (the arena's ``--move-time``) instead of letting
its side think longer.

Batched play (``evaluate.py``, the vector envs) asks ``act(batch, rows) -> actions``: one action per
listed row of a batch of games (`hive_envs.core.batch`). `BasePlayer.act` chooses on each row's game
(``batch.game(row)``) and maps the move back (``batch.move_to_action``), so a player that only knows
``choose`` plays batched too; players with a faster batched form (random, greedy, a network's raw
policy: one forward pass for all rows) override it.
"""

from __future__ import annotations

import gc
import sys
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from hive_envs.core.batch import check_rows
from hive_envs.core.game import Game

MAX_SIMULATIONS = 100_000  #: of a checkpoint's PATH@N, and of the UHP engine's Simulations option


def play_on_one_thread() -> None:
    """Run numba, and torch when a player has loaded it, on one thread in a process that answers one
    position at a time (the UHP engine, the play CLI, a timing): their thread pools only spin on a
    one-row call and slow the move down (a raw Hive move: 48 ms CPU with torch's 2 threads on 2
    cores, 1 ms with 1; `hive_base@64`: 0.54 s, 0.14 s). Call it after making the players."""
    import numba

    numba.set_num_threads(1)
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)


def freeze_long_lived_objects() -> None:
    """Move every object the process holds now into the cycle collector's permanent generation
    (`gc.freeze`), for a process that plays moves under a time limit (an arena worker, the UHP engine),
    after it has made its players. A full collection scans every tracked object: with a Hive agent
    loaded that is ~384,000 objects and 0.12 s, and it can start inside any move. Frozen, the modules,
    networks and kernels are no longer scanned, so a full collection costs what the objects made since
    cost. Frozen objects that later become cyclic garbage are never freed: an arena worker that drops a
    chunk's players may keep a few kilobytes of them."""
    gc.freeze()


def warm_up(player) -> None:
    """Call the player's ``warm_up()`` if it has one: a searcher loads (or compiles) its kernels and
    runs its network once, so that a first timed move is not spent doing it. Tools call it after
    making a player whose moves are timed (UHP ``bestmove time``, the arena's ``--move-time``)."""
    method = getattr(player, "warm_up", None)
    if method is not None:
        method()


def keeps_move_time(player) -> bool:
    """Whether ``player`` answers within a caller's ``time_s`` (its ``keeps_move_time``; True when it
    does not say: players that do not search answer at once, searchers read the limit)."""
    return bool(getattr(player, "keeps_move_time", True))


@dataclass(frozen=True)
class SearchLimits:
    """Limits a caller may give a move choice (UHP ``bestmove depth N`` / ``bestmove time hh:mm:ss``,
    the arena's ``--move-time``): plies to look ahead and/or seconds to think. None: not given.
    Players that do not search ignore them."""

    depth: int | None = None
    time_s: float | None = None


class PlayerFailure(RuntimeError):
    """A player could not produce a move (an engine process died, timed out or answered nonsense).
    The arena counts it as a forfeit; the UHP engine answers ``err``."""


@runtime_checkable
class Player(Protocol):
    name: str

    def choose(self, game: Game, limits: SearchLimits | None = None) -> int: ...

    def seed(self, seed: int | None) -> None: ...

    def close(self) -> None: ...


class BasePlayer:
    """Name, a seeded numpy generator (``self.rng``), the per-row batched form and a no-op ``close``."""

    def __init__(self, name: str, seed: int | None = None):
        self.name = name
        self.seed(seed)

    def choose(self, game: Game, limits: SearchLimits | None = None) -> int:
        raise NotImplementedError

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, batch, rows: np.ndarray) -> np.ndarray:
        return actions_by_choosing(self, batch, rows)

    def close(self) -> None:
        pass

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def actions_by_choosing(player: Player, batch, rows: np.ndarray) -> np.ndarray:
    """One action per row of ``batch``: ``player.choose`` on the row's game, mapped back to an action."""
    rows = check_rows(rows, batch.num_games).tolist()
    return np.array([batch.move_to_action(g, player.choose(batch.game(g))) for g in rows], dtype=np.int64)


def batch_actions(player: Player, batch, rows: np.ndarray) -> np.ndarray:
    """``player``'s actions for the listed rows of ``batch``: its own batched form if it has one."""
    act = getattr(player, "act", None)
    actions = act(batch, rows) if act is not None else actions_by_choosing(player, batch, rows)
    return np.asarray(actions, dtype=np.int64)
