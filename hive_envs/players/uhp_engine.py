"""A Universal Hive Protocol engine process as a player (spec ``uhp:COMMAND``; Hive only).

The process is started when the player is made (`hive_envs.uhp_client.UHPClient`, which waits
``timeout_s`` for its ``info`` block): a command that cannot start, exits at once or stays silent
is a ValueError naming the command, before any game. It is kept for every later move and game.
Before each ``bestmove`` it is brought to the game's position: the moves it has not seen are sent
with ``play`` (a new game, another game type or a position that is not a continuation of what it
saw starts over with ``newgame``). Its answer must be a legal move here.

An error, a crash, no answer within ``timeout_s`` (+ the move time) or an illegal move raises
`PlayerFailure` and the process is closed; the next move starts a fresh one. When the engine's own
game is over while the caller's is not (engines such as nokamute end a game at the third
repetition of a position; the GameString ``play`` answers shows it, and after an error the engine
is asked for it with ``undo 0``), the failure says so: the game has no result under the caller's
rules, and it must not be scored as the engine's loss (the arena reports it apart).
"""

from __future__ import annotations

from typing import NoReturn

from hive_envs.core.game import Game
from hive_envs.games import game_entry
from hive_envs.players.base import BasePlayer, PlayerFailure, SearchLimits
from hive_envs.uhp_client import UHPClient, UHPEngineError

IN_PROGRESS = ("NotStarted", "InProgress")
ENGINE_TIMEOUT_S = 60.0
"""Seconds an engine process may take to start, and to answer a move beyond its move time."""


def add_move_timeout_argument(parser) -> None:
    """``--move-timeout`` (`ENGINE_TIMEOUT_S`) on an argparse parser of a tool that plays ``uhp:``
    engines (the arena, evaluate.py, the web page): one name, default and meaning for all of them (each
    tool refuses a value that is not a positive number of seconds where it checks its settings)."""
    parser.add_argument(
        "--move-timeout",
        type=float,
        default=ENGINE_TIMEOUT_S,
        help=f"uhp: engines: seconds to start, and to answer a move beyond the move time, before the "
        f"engine counts as failed (its game is forfeited; default {ENGINE_TIMEOUT_S:g})",
    )


class UHPEnginePlayer(BasePlayer):
    """An external UHP engine behind ``choose`` (see the module docstring)."""

    def __init__(self, command: str, timeout_s: float = ENGINE_TIMEOUT_S, name: str | None = None):
        super().__init__(name or f"uhp:{command}")
        self.command, self.timeout_s = command, timeout_s
        self._game_type: str | None = None
        self._seen: list[str] = []  # the moves the engine has been told, in order
        try:
            self._client: UHPClient | None = self._start()
        except UHPEngineError as error:
            raise ValueError(f"player {self.name!r}: the engine cannot be used: {error}") from None

    @property
    def running(self) -> bool:
        """Whether the engine process is started now (a closed one is started again at the next move)."""
        return self._client is not None

    def _start(self) -> UHPClient:
        return UHPClient(self.command, startup_timeout_s=self.timeout_s, timeout_s=self.timeout_s)

    def choose(self, game: Game, limits: SearchLimits | None = None) -> int:
        if not game_entry(game.game_name).uhp:
            raise ValueError(f"UHP engines play Hive; this game is {game.game_name}")
        game_type, _, _, *moves = game.record().split(";")
        if len(moves) != game.ply:
            raise ValueError("a UHP engine needs the game's whole history (this game starts mid-way)")
        limits = limits or SearchLimits()
        try:
            client = self._catch_up(game_type, moves)
            answer = client.bestmove(depth=limits.depth, time_s=limits.time_s)
        except UHPEngineError as error:
            self._fail(f"{error}{self._state_note()}")
        try:
            return game.move_id(answer)
        except ValueError as error:
            self._fail(f"illegal move {answer!r}: {error}")

    def _catch_up(self, game_type: str, moves: list[str]) -> UHPClient:
        """The running engine (started again if it was closed), told the game's moves so far."""
        if self._client is None:
            self._client = self._start()
            self._game_type = None
        if game_type != self._game_type or moves[: len(self._seen)] != self._seen:
            self._client.newgame(game_type)
            self._game_type, self._seen = game_type, []
        for move in moves[len(self._seen) :]:
            gamestring = self._client.play(move)
            self._seen.append(move)
            state = _state_of(gamestring)
            if state not in IN_PROGRESS:
                self._fail(f"the engine's game is over ({state}) while this one is not: {gamestring}")
        return self._client

    def _state_note(self) -> str:
        """What the engine says its game is, after it stopped answering moves (empty if it cannot tell)."""
        if self._client is None:
            return ""
        try:
            gamestring = self._client.send("undo 0", timeout_s=min(self.timeout_s, 5.0))[0]
        except (UHPEngineError, IndexError):
            return ""
        state = _state_of(gamestring)
        if state in IN_PROGRESS:
            return f"; the engine's game: {gamestring}"
        return f"; the engine's game is over ({state}) while this one is not: {gamestring}"

    def _fail(self, reason: str) -> NoReturn:
        self.close(grace_s=1.0)  # a fresh process for the next move
        raise PlayerFailure(reason)

    def close(self, grace_s: float = 5.0) -> None:
        if self._client is not None:
            self._client.close(grace_s)
            self._client = None


def _state_of(gamestring: str) -> str:
    """The GameStateString (second field) of a GameString, or '?' if it has none."""
    fields = gamestring.split(";")
    return fields[1] if len(fields) > 1 else "?"
