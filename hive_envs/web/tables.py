"""Games in play on the server, by id: each a protocol game, a player or a human per seat, and a lock.

Every change is all or nothing: a move, the computer's reply or an undo that fails (an illegal move,
a player that fails or times out) leaves the game as it was. One request at a time per game: a
second one while the first runs (the computer thinking) is refused with `Busy` rather than queued,
so a slow engine never holds a request thread waiting.

Each game belongs to the client that made it (`guards`: the id in its cookie): another client's
request for it is answered as for an unknown id. `Tables` keeps to its `caps.Caps` (a client's own
oldest game is dropped, its players closed, to make room for its new one; a full server refuses
with `caps.Full`) and plays only the players `trust` lets a request name. An engine process is
closed when its game ends or is dropped (an undo after the end starts it again at its next move,
within the caps). A game the page leaves is dropped at its client's request (`Tables.drop`), its
players closed as soon as no request holds it; until then its engine processes still count
against the caps.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from hive_envs.core.cancel import cancellable
from hive_envs.core.game import Game
from hive_envs.games import game_entry
from hive_envs.players import Player, PlayerContext, make_player
from hive_envs.players.base import PlayerFailure, play_on_one_thread
from hive_envs.web.boards import drawn_games, position
from hive_envs.web.caps import Caps, Full, Slots
from hive_envs.web.thoughts import thoughts_of
from hive_envs.web.trust import Offer, PagePlayer, page_player

HUMAN = "human"
MAX_SPEC = 1_000  #: characters of a player spec
ANYONE = ""  #: the client of a caller that has no clients (a script using `Tables` directly)


class NotFound(LookupError):
    """No game has this id (never created, or dropped to make room)."""


class Busy(RuntimeError):
    """The game is answering another request (the computer is thinking), or it is not this side's turn."""


@dataclass(eq=False)  # one game, compared by identity
class Table:
    id: str
    game: Game
    specs: tuple[str, str]
    players: tuple[Player | None, Player | None]  # None: a human's seat
    client: str = ANYONE
    engines: tuple[bool, bool] = (False, False)  # per seat: an engine process plays it
    human_plies: list[bool] = field(default_factory=list)  # per ply played here: a human's move?
    lock: threading.Lock = field(default_factory=threading.Lock)
    used: float = 0.0  # when a request last used it (`Tables.clock`)
    dropped: bool = False  # `Tables.drop`: close the players once no request holds the game
    closed: bool = False
    stop: threading.Event = field(default_factory=threading.Event)  # set: its computer's move ends now

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
        self.close_engines_if_over()
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
        self.close_engines_if_over()
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

    def engines_running(self) -> int:
        """The engine processes this game holds now (closed at the end; started again by a move)."""
        return sum(bool(getattr(player, "running", False)) for player in self.players)

    def engine_to_move(self) -> bool:
        return not self.game.is_terminal and self.engines[self.game.to_move]

    def close_engines_if_over(self) -> None:
        if self.game.is_terminal:
            for player, engine in zip(self.players, self.engines):
                if engine and player is not None:
                    player.close()

    def close(self) -> None:
        self.stop.set()  # a move still being computed for it ends early
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
    """The games the server holds (see the module docstring); safe to use from many threads.

    ``move_timeout_s``: how long an engine process may take to start or answer; ``offer``: the
    engines and agents the command line allowed (`trust.Offer`); ``clock``: seconds, for idleness.
    """

    def __init__(
        self,
        move_timeout_s: float = 60.0,
        caps: Caps | None = None,
        offer: Offer | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.move_timeout_s = move_timeout_s
        self.caps = caps or Caps()
        self.offer = offer or Offer()
        self.clock = clock
        self.thinking = Slots("computer moves", self.caps.thinking, self.caps.thinking_per_client)
        self._tables: OrderedDict[str, Table] = OrderedDict()  # oldest first
        self._starting: Counter[str] = Counter()  # engine processes being started, per client
        self._leaving: set[Table] = set()  # dropped by `drop`, closed when the request holding them ends
        self._lock = threading.Lock()

    def create(self, game_name, options, specs, client: str = ANYONE) -> Table:
        """A new game of ``client``; ValueError naming a bad game, option or player spec, `Full` when
        a cap leaves no room (nothing is kept then)."""
        if not isinstance(game_name, str):
            raise ValueError(f"'game' must be a game name, got {game_name!r}")
        entry = game_entry(game_name)
        if game_name not in drawn_games():  # the PettingZoo AEC adapter, for one
            raise ValueError(f"the page cannot draw a game of {entry.title} ({game_name!r})")
        if options is not None and not isinstance(options, dict):
            raise ValueError(f"'options' must be a JSON object of the game's options, got {options!r}")
        game = entry.game(options if options is not None else {})
        if not isinstance(specs, list) or len(specs) != 2:
            raise ValueError(f"'players' must be a list of two specs (or {HUMAN!r}), got {specs!r}")
        chosen: list[PagePlayer | None] = []
        for seat, spec in enumerate(specs):
            if not isinstance(spec, str) or not spec.strip() or len(spec) > MAX_SPEC:
                raise ValueError(f"seat {seat}: a player is a spec text or {HUMAN!r}, got {spec!r}")
            text = spec.strip()
            chosen.append(None if text == HUMAN else page_player(text, self.offer, self.caps))
        engines = (chosen[0] is not None and chosen[0].engine, chosen[1] is not None and chosen[1].engine)
        with self._lock:
            self._make_room(client)  # `Full` before any player is made
        players: list[Player | None] = []
        try:
            with self._engines_starting(client, sum(engines)):
                for page in chosen:
                    players.append(None if page is None else self._player(page, game))
            table = Table(
                secrets.token_hex(8),
                game,
                (specs[0].strip(), specs[1].strip()),
                (players[0], players[1]),
                client,
                engines,
                used=self.clock(),
            )
            self._admit(table)
        except BaseException:
            for player in players:
                if player is not None:
                    player.close()
            raise
        return table

    def _player(self, page: PagePlayer, game: Game) -> Player:
        context = PlayerContext(game=game.game_name, move_timeout_s=self.move_timeout_s)
        player = make_player(page.spec, context)
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
    def use(self, table_id, client: str = ANYONE) -> Iterator[Table]:
        """The table of ``table_id`` if ``client`` made it, held for one request; NotFound / Busy
        otherwise (another client's game is answered as an unknown id)."""
        with self._lock:
            table = self._tables.get(table_id) if isinstance(table_id, str) else None
            if table is not None and table.client == client:
                table.used = self.clock()
            else:
                table = None
        if table is None:
            raise _unknown(table_id)
        if not table.lock.acquire(blocking=False):
            raise Busy(f"game {table_id!r} is answering another request (the computer may be thinking)")
        try:
            yield table
        finally:
            table.lock.release()
            if table.dropped:  # dropped while this request held it: its players are closed now
                self._close_left(table)

    def drop(self, table_id, client: str = ANYONE) -> None:
        """Forget a game of ``client`` (the page left it: a new game started while the computer
        thought, or the page closed): later requests get NotFound, as does another client's id; its
        players are closed now, or when the request that holds the game ends (its search is stopped:
        `Table.stop`), and until then its engine processes count against the caps (`_engines`)."""
        with self._lock:
            table = self._tables.get(table_id) if isinstance(table_id, str) else None
            if table is None or table.client != client:
                raise _unknown(table_id)
            del self._tables[table_id]
            table.dropped = True
            table.stop.set()
            self._leaving.add(table)
        self._close_left(table)

    def _close_left(self, table: Table) -> None:
        """Close a dropped ``table``'s players unless a request holds it (that request's end does)."""
        _close_when_free(table)
        if table.closed:
            with self._lock:
                self._leaving.discard(table)

    @contextmanager
    def computing(self, table: Table) -> Iterator[None]:
        """Room for the computer's move in ``table`` (held with `use`): a slot of the moves computed at
        once and, for an engine whose process was closed (the game ended, then an undo), a new one."""
        restart = table.engine_to_move() and not table.engines_running()
        with (
            self.thinking.hold(table.client),
            self._engines_starting(table.client, int(restart), table),
            cancellable(table.stop),  # a search of a game dropped meanwhile ends early
        ):
            yield

    @contextmanager
    def _engines_starting(self, client: str, count: int, keep: Table | None = None) -> Iterator[None]:
        """Room for ``count`` more engine processes of ``client`` while the block starts them: its own
        oldest games holding engines are dropped (never ``keep``), then idle games; `Full` if that is
        not enough (nothing is dropped then)."""
        if not count:
            yield
            return
        caps, running = self.caps, Table.engines_running
        with self._lock:
            own = [t for t in self._own(client) if t.engines_running() and t is not keep]
            mine = _oldest(own, self._engines(client) + count - caps.engines_per_client, running)
            if mine is None:
                raise Full(f"at most {caps.engines_per_client} engine processes per client", status=429)
            idle = [t for t in self._idle() if t.engines_running() and t is not keep and t not in mine]
            freed = sum(t.engines_running() for t in mine)
            others = _oldest(idle, self._engines() - freed + count - caps.engines, running)
            if others is None:
                raise Full(f"the server runs at most {caps.engines} engine processes; try again later")
            dropped = [self._tables.pop(t.id) for t in mine + others]
            self._starting[client] += count
        self._close(dropped)
        try:
            yield
        finally:
            with self._lock:
                self._starting[client] -= count
                if not self._starting[client]:
                    del self._starting[client]

    def _admit(self, table: Table) -> None:
        """Keep ``table``, dropping what `_make_room` names."""
        with self._lock:
            dropped = [self._tables.pop(t.id) for t in self._make_room(table.client)]
            self._tables[table.id] = table
        self._close(dropped)

    def _make_room(self, client: str) -> list[Table]:
        """The games to drop for one more game of ``client`` (held under the lock): its own oldest over
        its cap, then idle games; `Full` when the server holds its maximum of games in use."""
        caps = self.caps
        own = self._own(client)
        mine = _oldest(own, len(own) + 1 - caps.games_per_client, lambda t: 1) or []
        idle = [t for t in self._idle() if t not in mine]
        others = _oldest(idle, len(self._tables) - len(mine) + 1 - caps.games, lambda t: 1)
        if others is None:
            raise Full(f"the server holds its maximum of {caps.games:,} games; try again later")
        return mine + others

    def _own(self, client: str) -> list[Table]:
        return [t for t in self._tables.values() if t.client == client]

    def _idle(self) -> list[Table]:
        """The games unused for ``caps.idle_s``, oldest first."""
        limit = self.clock() - self.caps.idle_s
        return [t for t in self._tables.values() if t.used <= limit]

    def _engines(self, client: str | None = None) -> int:
        """Engine processes running or starting (of ``client``; None: of everyone), those of games
        dropped while a request still holds them included."""
        tables = [*self._tables.values(), *self._leaving]
        if client is not None:
            tables = [t for t in tables if t.client == client]
        starting = sum(self._starting.values()) if client is None else self._starting[client]
        return sum(t.engines_running() for t in tables) + starting

    @staticmethod
    def _close(tables: list[Table]) -> None:
        for table in tables:
            table.close()

    def close(self) -> None:
        with self._lock:
            tables, self._tables = [*self._tables.values(), *self._leaving], OrderedDict()
            self._leaving = set()
        self._close(tables)


def _unknown(table_id) -> NotFound:
    return NotFound(f"no game with id {table_id!r} (it never existed, or was dropped to make room)")


def _oldest(tables: list[Table], excess: int, weight: Callable[[Table], int]) -> list[Table] | None:
    """The first of ``tables`` (oldest first) whose ``weight`` adds up to ``excess``; None if all
    of them do not."""
    chosen: list[Table] = []
    freed = 0
    for table in tables:
        if freed >= excess:
            break
        chosen.append(table)
        freed += weight(table)
    return chosen if freed >= excess else None
