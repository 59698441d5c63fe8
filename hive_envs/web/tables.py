"""Games in play on the server, by id: each a protocol game, a player or a human per seat, and a lock.

Every change is all or nothing: a move, the computer's reply or an undo that fails (an illegal move,
a player that fails or times out) leaves the game as it was. One request at a time per game: a
second one while the first runs (the computer thinking) is refused with `Busy` rather than queued,
so a slow engine never holds a request thread waiting. Games are kept up to ``max_tables``; the
oldest is dropped (its players closed) to make room. A game the page leaves is dropped at its
request (`Tables.drop`), its players closed as soon as no request holds it.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from hive_envs.core.game import Game
from hive_envs.games import game_entry
from hive_envs.players import Player, PlayerContext, make_player
from hive_envs.players.base import PlayerFailure, play_on_one_thread
from hive_envs.web.boards import position
from hive_envs.web.thoughts import thoughts_of

HUMAN = "human"
MAX_SPEC = 1_000  #: characters of a player spec


class NotFound(LookupError):
    """No game has this id (never created, or dropped to make room)."""


class Busy(RuntimeError):
    """The game is answering another request (the computer is thinking), or it is not this side's turn."""


@dataclass
class Table:
    id: str
    game: Game
    specs: tuple[str, str]
    players: tuple[Player | None, Player | None]  # None: a human's seat
    human_plies: list[bool] = field(default_factory=list)  # per ply played here: a human's move?
    lock: threading.Lock = field(default_factory=threading.Lock)
    dropped: bool = False  # `Tables.drop`: close the players once no request holds the game
    closed: bool = False

    def state(self) -> dict:
        data = position(self.game)
        data.update(id=self.id, players=list(self.specs), humans=[p is None for p in self.players])
        data["computer_to_move"] = not self.game.is_terminal and self.players[self.game.to_move] is not None
        return data

    def play(self, name) -> dict:
        """A human's move, by name (UHP string / hole number); ValueError if malformed or illegal."""
        game = self.game
        if game.is_terminal:
            raise ValueError(f"the game is over ({position(game)['status']}); start a new one")
        if self.players[game.to_move] is not None:
            raise Busy(f"it is the computer's turn ({self.specs[game.to_move]}), not a human's")
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"a move is a non-empty text (e.g. 'wS1', 'bG1 -wS1', '3'), got {name!r}")
        game.play_id(game.move_id(name))  # ValueError before any change
        self.human_plies.append(True)
        return self.state()

    def computer(self, think: bool) -> dict:
        """The computer's move for the seat to move, with what the search that chose it saw when
        ``think`` (`thoughts.thoughts_of`: network and alpha-beta players)."""
        game = self.game
        if game.is_terminal:
            raise ValueError(f"the game is over ({position(game)['status']}); start a new one")
        player = self.players[game.to_move]
        if player is None:
            raise Busy(f"it is a human's turn ({position(game)['sides'][game.to_move]}), not the computer's")
        before = game.copy()
        try:
            move = player.choose(game.copy())
        except PlayerFailure as error:
            raise PlayerFailure(f"the computer ({self.specs[game.to_move]}) failed: {error}") from None
        name = game.move_name(move)  # ValueError if the player answered an illegal move
        thoughts = thoughts_of(player, before, position(before)["moves"]) if think else None
        game.play_id(move)
        self.human_plies.append(False)
        return {**self.state(), "computer_move": name, "thoughts": thoughts}

    def undo(self) -> dict:
        """Take back the last human move and the computer's replies after it (one ply between two
        computers); ValueError when nothing was played here."""
        if not self.human_plies:
            raise ValueError("nothing to undo: no move has been played in this game")
        count = len(self.human_plies) - max(
            (i for i, human in enumerate(self.human_plies) if human), default=len(self.human_plies) - 1
        )
        for _ in range(count):
            self.game.undo()
            self.human_plies.pop()
        return self.state()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for player in self.players:
            if player is not None:
                player.close()


def _close_when_free(table: Table) -> None:
    """Close ``table``'s players unless a request holds it (that request's end closes them)."""
    if table.lock.acquire(blocking=False):
        try:
            table.close()
        finally:
            table.lock.release()


class Tables:
    """The games the server holds (see the module docstring); safe to use from many threads."""

    def __init__(self, move_timeout_s: float = 60.0, max_tables: int = 1_000):
        self.move_timeout_s = move_timeout_s
        self.max_tables = max_tables
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._lock = threading.Lock()

    def create(self, game_name, options, specs) -> Table:
        """A new game; ValueError naming a bad game, option or player spec (nothing is kept then)."""
        if not isinstance(game_name, str):
            raise ValueError(f"'game' must be a game name, got {game_name!r}")
        entry = game_entry(game_name)
        if entry.ref("web_board") is None:
            raise ValueError(
                f"the page cannot show a game of {entry.title} (its definition has no web_board)"
            )
        game = entry.game(options if options is not None else {})
        if not isinstance(specs, list) or len(specs) != 2:
            raise ValueError(f"'players' must be a list of two specs (or {HUMAN!r}), got {specs!r}")
        players: list[Player | None] = []
        try:
            for seat, spec in enumerate(specs):
                if not isinstance(spec, str) or not spec.strip() or len(spec) > MAX_SPEC:
                    raise ValueError(f"seat {seat}: a player is a spec text or {HUMAN!r}, got {spec!r}")
                players.append(None if spec.strip() == HUMAN else self._player(spec.strip(), game))
        except BaseException:
            for player in players:
                if player is not None:
                    player.close()
            raise
        table = Table(
            secrets.token_hex(8), game, (specs[0].strip(), specs[1].strip()), (players[0], players[1])
        )
        with self._lock:
            self._tables[table.id] = table
            while len(self._tables) > self.max_tables:
                self._tables.popitem(last=False)[1].close()
        return table

    def _player(self, spec: str, game: Game) -> Player:
        context = PlayerContext(game=game.game_name, move_timeout_s=self.move_timeout_s)
        player = make_player(spec, context)
        try:
            check = getattr(player, "check_game", None)
            if check is not None:  # a checkpoint of other options (Hive expansions, Hoyito's board size)
                check(game)
        except ValueError:
            player.close()
            raise
        play_on_one_thread()  # one position at a time per request: thread pools would only spin
        return player

    @contextmanager
    def use(self, table_id) -> Iterator[Table]:
        """The table of ``table_id``, held for one request; NotFound / Busy otherwise."""
        with self._lock:
            table = self._tables.get(table_id) if isinstance(table_id, str) else None
        if table is None:
            raise NotFound(f"no game with id {table_id!r} (it never existed, or was dropped to make room)")
        if not table.lock.acquire(blocking=False):
            raise Busy(f"game {table_id!r} is answering another request (the computer may be thinking)")
        try:
            yield table
        finally:
            table.lock.release()
            if table.dropped:  # dropped while this request held it: its players are closed now
                _close_when_free(table)

    def drop(self, table_id) -> None:
        """Forget a game (the page left it: a new game started while the computer thought): later
        requests get NotFound; its players are closed now, or when the request that holds the game
        ends (a search cannot be cut short)."""
        with self._lock:
            table = self._tables.pop(table_id, None) if isinstance(table_id, str) else None
        if table is None:
            raise NotFound(f"no game with id {table_id!r} (it never existed, or was dropped to make room)")
        table.dropped = True
        _close_when_free(table)

    def close(self) -> None:
        with self._lock:
            tables, self._tables = list(self._tables.values()), OrderedDict()
        for table in tables:
            table.close()
