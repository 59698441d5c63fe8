"""The alpha-beta searchers as a player: spec ``alphabeta:D`` (depth) or ``alphabeta:T=S`` (seconds).

    make_player("alphabeta:2")            # 2 plies; the same spec plays Hive and Hoyito
    make_player("alphabeta:T=0.5")        # iterative deepening for 0.5 s per move
    make_player("alphabeta:6,T=1")        # both: whichever limit comes first
    make_player("alphabeta:3,eval=learned:runs/hive_eval/checkpoints/latest.pt")   # a learned evaluation
    make_player("alphabeta:T=1,eval=pretrained:hive_eval")   # the one shipped with the package
    make_player("alphabeta:3,eval=pretrained:hive_eval,other=hand")  # hand evaluation on other variants
    AlphaBetaPlayer(depth=3, seed=0).choose(game, SearchLimits(time_s=1.0))

``eval=hand`` (the default) scores the leaves with the game's hand evaluation; ``eval=learned:PATH``
with the learned evaluation in the file PATH (`hive_envs.agents.eval_checkpoint`, written by
`hive_envs.training.eval_training`; read with its checks when the game's searcher is made, which
imports torch; a PATH cannot hold a comma); ``eval=pretrained:NAME`` with the one the package ships
as NAME (`hive_envs.pretrained`, an agent of kind ``EVALUATION``: ``hive_eval``; the player spec
``pretrained:NAME`` is this search at its model card's depth). Only a game whose searcher has a
learned evaluation takes one; for another game the spec is refused. A learned evaluation plays only
the variant it was trained on (Hive's expansions, Hoyito's board: the features of pieces or holes it
never saw are untrained), and a game of another variant is refused at its first move, unless the spec
says ``other=hand``: then such a game is searched with the hand evaluation (what the UHP engine's
default player does, so that a viewer's Base+MLP game still gets moves).

`AlphaBetaPlayer` picks the searcher of the game it is given (its definition's ``searcher``:
`HiveAlphaBeta` for a `HiveGame`, `HoyitoAlphaBeta` for a `HoyitoGame`), makes it on first use and
keeps it (and its transposition table) for later moves. Depth caps: Hive 12 plies, Hoyito 20
(`MAX_DEPTH` of each searcher); time in (0, 3600] s. Bad specs raise ValueError naming the spec.

Limits: a caller's ``SearchLimits`` (UHP ``bestmove depth N`` / ``bestmove time hh:mm:ss``, the
arena's ``--move-time``) replace the player's own for that move when either is given, except that a
caller's depth alone keeps the player's own time limit (``MaxTime`` caps ``bestmove depth N`` too);
else the player's own apply (the spec's, or those the UHP ``options`` command set: `uhp_options`);
depth 0 (UHP allows it) searches one ply. The
search reads its clock inside the compiled loop, so a time limit is kept to a few milliseconds,
and its move is always one the generator listed. The seed only breaks ties between moves the
search cannot tell apart (``seed(None)`` means 0): the same position and limits give the same move
(Hive's searcher keeps its table from move to move: the same game played again gives the same moves).
"""

from __future__ import annotations

import itertools
import math
import os
import queue
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import numba
import numpy as np

from hive_envs.core.alphabeta import DEFAULT_TABLE_BITS, MAX_TIME_S, AlphaBetaSearcher, SearchResult
from hive_envs.core.batch import check_rows
from hive_envs.core.game import Game
from hive_envs.games import GAMES
from hive_envs.players.base import BasePlayer, SearchLimits, actions_by_choosing
from hive_envs.pretrained import EVALUATION, pretrained_kind, pretrained_names, pretrained_path

SYNTAX = (
    "alphabeta:DEPTH | alphabeta:T=SECONDS | alphabeta:DEPTH,T=SECONDS, each optionally "
    ",eval=learned:PATH or ,eval=pretrained:NAME (then optionally ,other=hand)"
)
TABLE_ENTRY_BYTES = 18  # key 8, move 4, score 4, depth and bound 2
MAX_TABLE_MB = (TABLE_ENTRY_BYTES << 26) >> 20

_DEPTH = re.compile(r"[0-9]+")
_TIME = re.compile(
    r"T=[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|T=[-+]?(?:nan|inf)", re.IGNORECASE
)


def searcher_classes() -> dict[str, type[AlphaBetaSearcher]]:
    """The alpha-beta searcher of every game that has one (its definition's ``searcher``), by name."""
    classes = {name: definition.searcher_class() for name, definition in GAMES.items()}
    return {name: cls for name, cls in classes.items() if cls is not None}


def uhp_searcher() -> type[AlphaBetaSearcher]:
    """The searcher of the game UHP engines play (its definition says ``uhp``), whose depths the UHP
    ``options`` command shows."""
    return next(cls for d in GAMES.values() if d.uhp and (cls := d.searcher_class()) is not None)


def parse_spec(argument: str, game: str | None = None) -> tuple[int | None, float | None]:
    """(depth, seconds) of the text after ``alphabeta:``; ValueError naming the spec when malformed,
    zero or negative, not finite, or over the depth cap of ``game`` (of every game when None). An
    ``eval=learned:PATH`` part is refused here (the web page's check: a client must not name a file to
    read; ``eval=pretrained:NAME``, a file shipped with the package, is taken); `parse_settings` takes
    both."""
    if any(part.strip().startswith("eval=learned:") for part in argument.split(",")):
        raise ValueError(
            f"player {f'alphabeta:{argument}'!r}: a learned evaluation's file (eval=learned:PATH) is not "
            f"taken here; the evaluations shipped with the package are (eval=pretrained:NAME)"
        )
    settings = parse_settings(argument, game)
    return settings.depth, settings.time_s


class Settings(NamedTuple):
    """What an ``alphabeta:...`` spec says (`parse_settings`)."""

    depth: int | None
    time_s: float | None
    evaluation: str | None
    """The learned evaluation's file; None: the hand evaluation."""
    other_hand: bool = False
    """``other=hand``: a variant the learned evaluation was not trained on is searched with the hand one."""


def parse_settings(argument: str, game: str | None = None) -> Settings:
    """The `Settings` of the text after ``alphabeta:``; ValueError naming the spec as `parse_spec`,
    for an ``eval=`` that is not ``hand``, ``learned:PATH`` (PATH not empty) or ``pretrained:NAME`` (a
    shipped evaluation: its file), and for an ``other=`` that is not ``hand`` or comes without a learned
    evaluation."""
    spec = f"alphabeta:{argument}"
    searchers = searcher_classes()
    if game in searchers:
        cap, caps = searchers[game].max_depth, f"the {game} cap"
    else:
        cap = max(searcher.max_depth for searcher in searchers.values())
        caps = "caps: " + ", ".join(f"{name} {searcher.max_depth}" for name, searcher in searchers.items())
    depth = time_s = None
    evaluation: str | None = None
    other_hand = False
    parts = [part.strip() for part in argument.split(",")]
    for key in ("eval=", "other="):
        if sum(part.startswith(key) for part in parts) > 1:
            raise ValueError(f"player {spec!r}: one {key} at most")
    for part in parts:
        if part.startswith("eval="):
            evaluation = _evaluation(spec, part[len("eval=") :])
        elif part.startswith("other="):
            if part != "other=hand":
                raise ValueError(f"player {spec!r}: other= takes 'hand' only, got {part[len('other=') :]!r}")
            other_hand = True
        elif _DEPTH.fullmatch(part) and depth is None:
            if len(part) > len(str(cap)):  # no int() of thousands of digits
                raise ValueError(
                    f"player {spec!r}: the depth must be in 1..{cap} plies ({caps}), got {part[:12]}..."
                )
            depth = int(part)
        elif _TIME.fullmatch(part) and time_s is None:
            time_s = float(part[2:])
        else:
            raise ValueError(f"player {spec!r}: use {SYNTAX}")
    if depth is not None and not 1 <= depth <= cap:
        raise ValueError(f"player {spec!r}: the depth must be in 1..{cap} plies ({caps}), got {depth}")
    if time_s is not None and not (math.isfinite(time_s) and 0 < time_s <= MAX_TIME_S):
        raise ValueError(f"player {spec!r}: the time must be in (0, {MAX_TIME_S:g}] seconds, got {time_s!r}")
    if other_hand and evaluation is None:
        raise ValueError(
            f"player {spec!r}: other=hand says what plays the variants a learned evaluation was not "
            f"trained on; give one (eval=learned:PATH or eval=pretrained:NAME)"
        )
    return Settings(depth, time_s, evaluation, other_hand)


def _evaluation(spec: str, value: str) -> str | None:
    """The file of ``eval=VALUE``: None for ``hand``, PATH for ``learned:PATH``, the shipped file of
    ``pretrained:NAME``; else ValueError."""
    kind, colon, path = value.partition(":")
    if kind == "hand" and not colon:
        return None
    if kind == "learned" and colon and path.strip():
        return path.strip()
    if kind == "pretrained" and colon and path.strip():
        return str(shipped_evaluation(spec, path.strip()))
    raise ValueError(
        f"player {spec!r}: eval= takes 'hand' (the hand evaluation), 'learned:PATH' (a learned "
        f"evaluation's file) or 'pretrained:NAME' (one shipped with the package: "
        f"{', '.join(pretrained_names(EVALUATION))}), got {value!r}"
    )


def shipped_evaluation(spec: str, name: str) -> Path:
    """The file of the learned evaluation the package ships as ``name``; ValueError naming ``spec`` for
    an unknown name, a policy agent's or a file missing from the installation."""
    try:
        if pretrained_kind(name) != EVALUATION:
            raise ValueError(
                f"pretrained agent {name!r} is a policy agent, not a learned evaluation (play it as "
                f"pretrained:{name}); eval=pretrained: takes {', '.join(pretrained_names(EVALUATION))}"
            )
        return pretrained_path(name)
    except ValueError as error:
        raise ValueError(f"player {spec!r}: {error}") from None


class AlphaBetaPlayer(BasePlayer):
    """A depth- and/or time-limited alpha-beta search on any game whose definition has a searcher (see the module doc).

    ``depth`` None and ``time_s`` None: each searcher's default depth (Hive 3, Hoyito 6).
    ``evaluation``: the file of a learned evaluation the searcher scores its leaves with (module
    docstring); None: the hand evaluation. ``other_hand``: a game of a variant that evaluation was not
    trained on is searched with the hand evaluation instead of refused.
    """

    def __init__(
        self,
        depth: int | None = None,
        time_s: float | None = None,
        seed: int | None = None,
        table_bits: int = DEFAULT_TABLE_BITS,
        name: str | None = None,
        evaluation: str | None = None,
        other_hand: bool = False,
    ):
        self.depth, self.time_s, self.table_bits = depth, time_s, table_bits
        self.evaluation, self.other_hand = evaluation, other_hand
        self._searchers: dict[str, AlphaBetaSearcher] = {}
        self._hand_searchers: dict[str, AlphaBetaSearcher] = {}  # game -> other=hand's, for other variants
        self._lanes: dict[str, list[AlphaBetaSearcher]] = {}  # game -> `act`'s searchers beyond the first
        self._networks: dict[str, Any] = {}  # game -> its learned evaluation, read once for every searcher
        self._trained_on: dict[str, str] = {}  # game -> the variant its learned evaluation was trained on
        self.last_search: SearchResult | None = None  # of the last `choose`
        limits = [f"{depth}"] if depth is not None else []
        limits += [f"T={time_s:g}"] if time_s is not None else []
        limits += [f"eval=learned:{evaluation}"] if evaluation is not None else []
        limits += ["other=hand"] if evaluation is not None and other_hand else []
        super().__init__(name or "alphabeta" + (":" + ",".join(limits) if limits else ""), seed)

    @classmethod
    def from_spec(cls, argument: str, game: str | None = None, seed: int | None = None) -> AlphaBetaPlayer:
        """The player of ``alphabeta:ARGUMENT``; with ``game`` its searcher is made (and checked) now,
        and warmed up (`warm_up`) when it searches by time."""
        settings = parse_settings(argument, game)
        evaluation = settings.evaluation
        if evaluation is not None and not os.path.isfile(evaluation):
            raise ValueError(f"player {f'alphabeta:{argument}'!r}: no learned evaluation file {evaluation!r}")
        player = cls(
            settings.depth,
            settings.time_s,
            seed,
            name=f"alphabeta:{argument}",
            evaluation=evaluation,
            other_hand=settings.other_hand,
        )
        if game is not None:
            player.searcher(game)
            if settings.time_s is not None:  # its first timed move is not spent loading kernels
                player.warm_up()
        return player

    def seed(self, seed: int | None) -> None:
        super().seed(seed)
        self._seed = 0 if seed is None else int(seed)
        lanes = itertools.chain(*self._lanes.values())
        for searcher in [*self._searchers.values(), *self._hand_searchers.values(), *lanes]:
            searcher.seed = self._seed

    def searcher(self, game_name: str) -> AlphaBetaSearcher:
        """The searcher of ``game_name`` (made on first use with this player's limits, seed and table)."""
        if game_name not in self._searchers:
            self._searchers[game_name] = self._new_searcher(game_name)
        return self._searchers[game_name]

    def _new_searcher(self, game_name: str, hand: bool = False) -> AlphaBetaSearcher:
        """A searcher of ``game_name`` with this player's settings: with its learned evaluation unless
        ``hand`` or it has none."""
        searchers = searcher_classes()
        if game_name not in searchers:
            raise ValueError(
                f"player {self.name!r}: no alpha-beta search for game {game_name!r} "
                f"(games: {', '.join(searchers)})"
            )
        try:
            extra = {}
            if self.evaluation is not None and not hand:
                if game_name not in self._networks:
                    self._networks[game_name] = self._network(game_name, searchers[game_name])
                extra["network"] = self._networks[game_name]
            return searchers[game_name](self.depth, self.time_s, self._seed, self.table_bits, **extra)
        except ValueError as error:
            raise ValueError(f"player {self.name!r}: {error}") from None

    def act(self, batch, rows: np.ndarray) -> np.ndarray:
        """One action per row of ``batch``. With a depth limit alone, the rows' searches run on numba's
        thread count of threads at once, on a searcher each: the search kernels release the GIL, and a
        depth-limited search clears its table first, so its move depends on the position alone and the
        threads change no move. A timed search runs the rows one after another (its time is the
        move's own, not shared with other searches), as do the rows of a variant ``other_hand``
        searches with the hand evaluation."""
        rows = check_rows(rows, batch.num_games)
        lanes = min(numba.get_num_threads(), rows.size)
        if self.time_s is not None or lanes < 2:
            return actions_by_choosing(self, batch, rows)
        games = [batch.game(int(g)) for g in rows]
        name = games[0].game_name  # one batch: one game and variant
        if self._variant_searcher(games[0]) is not self.searcher(name):
            return actions_by_choosing(self, batch, rows)
        searchers = self._lane_searchers(name, lanes)
        idle: queue.SimpleQueue[AlphaBetaSearcher] = queue.SimpleQueue()
        for searcher in searchers:
            idle.put(searcher)

        def search(game: Game) -> SearchResult:
            searcher = idle.get()
            try:
                return searcher.search(game)
            finally:
                idle.put(searcher)

        with ThreadPoolExecutor(lanes) as pool:
            results = list(pool.map(search, games))
        self.last_search = results[-1]
        return np.array(
            [batch.move_to_action(int(g), r.move_id) for g, r in zip(rows, results)], dtype=np.int64
        )

    def _lane_searchers(self, game_name: str, lanes: int) -> list[AlphaBetaSearcher]:
        """``lanes`` searchers of ``game_name``: `searcher`'s first, the others made on first need."""
        extra = self._lanes.setdefault(game_name, [])
        first = self.searcher(game_name)
        while len(extra) < lanes - 1:
            extra.append(self._new_searcher(game_name))
        return [first, *extra[: lanes - 1]]

    def _network(self, game_name: str, searcher: type[AlphaBetaSearcher]):
        """The learned network of ``evaluation`` for ``searcher``'s game (ValueError: it has none, or
        the file is not one for it)."""
        features = getattr(searcher, "learned_features", None)
        game = searcher.game_class.__name__
        if features is None:
            raise ValueError(f"the alpha-beta search of {game} has no learned evaluation (eval=hand only)")
        from hive_envs.agents.eval_checkpoint import learned_network_of, load_eval_checkpoint  # imports torch

        data = load_eval_checkpoint(str(self.evaluation), game=game_name, features=features)
        network = learned_network_of(data, features, repr(str(self.evaluation)))
        definition = GAMES[game_name]
        self._trained_on[game_name] = definition.label(definition.parse_options(dict(data["game_options"])))
        return network

    def _variant_searcher(self, game: Game) -> AlphaBetaSearcher:
        """The searcher that plays ``game``: `searcher`'s, unless its learned evaluation was trained on
        another variant of the game (its label: Hive's expansions, Hoyito's board), whose features of
        pieces or holes it never saw are untrained: then the hand evaluation's with ``other_hand``, else
        ValueError."""
        learned = self.searcher(game.game_name)  # reads the learned evaluation, and its variant, once
        trained = self._trained_on.get(game.game_name)
        if trained is None:  # the hand evaluation: no variant to check, no label to build each move
            return learned
        playing = GAMES[game.game_name].label(game.options)
        if playing == trained:
            return learned
        if not self.other_hand:
            raise ValueError(
                f"player {self.name!r}: its learned evaluation was trained on {trained}; this game is "
                f"{playing} (other=hand searches such a game with the hand evaluation)"
            )
        if game.game_name not in self._hand_searchers:
            self._hand_searchers[game.game_name] = self._new_searcher(game.game_name, hand=True)
        return self._hand_searchers[game.game_name]

    def choose(self, game: Game, limits: SearchLimits | None = None) -> int:
        """The searched move of ``game`` (left unchanged); ``limits`` replace this player's when given.
        The search's result (depth reached, nodes, score, principal variation) is kept as
        ``last_search`` (`SearchResult`) for a tool to show."""
        depth = getattr(limits, "depth", None)
        time_s = getattr(limits, "time_s", None)
        if depth == 0:  # UHP allows `bestmove depth 0`; a move needs at least one ply
            depth = 1
        if depth is not None and time_s is None:  # a depth asked for stays within this player's time
            time_s = self.time_s
        self.last_search = None
        searcher = self._variant_searcher(game)
        result = searcher.search(game, depth, time_s)
        self.last_search = result
        return result.move_id

    def warm_up(self) -> None:
        """A depth-1 search from the start with each searcher made so far (the UHP engine's: Hive), so
        that the compiled kernels are loaded before the first timed move."""
        for searcher in self._searchers.values():
            searcher.search(searcher.game_class(), depth=1)

    # -- UHP options ----------------------------------------------------------------------------
    def uhp_options(self) -> list[tuple[str, str, bool | int, bool | int, int, int]]:
        """(name, type, value, default, min, max) of the settings the UHP ``options`` command shows:
        ``MaxDepth`` (plies of a plain ``bestmove``), ``MaxTime`` (its seconds, 0 = no limit) and
        ``TableSizeMB`` (the transposition table: the largest power-of-two entries that fit)."""
        uhp = uhp_searcher()
        return [
            ("MaxDepth", "int", self.depth or uhp.default_depth, uhp.default_depth, 1, uhp.max_depth),
            ("MaxTime", "int", math.ceil(self.time_s or 0), 0, 0, int(MAX_TIME_S)),
            ("TableSizeMB", "int", self.table_megabytes(), self.table_megabytes(DEFAULT_TABLE_BITS), 1, MAX_TABLE_MB),
        ]  # fmt: skip

    def set_uhp_option(self, name: str, value: int) -> None:
        if name == "MaxDepth":
            self.depth = int(value)
        elif name == "MaxTime":
            self.time_s = float(value) or None
        elif name == "TableSizeMB":
            entries = max(1, (int(value) << 20) // TABLE_ENTRY_BYTES)
            self.table_bits = min(max(entries.bit_length() - 1, 10), 26)
        else:
            raise ValueError(f"unknown alpha-beta option {name!r}")
        self._searchers.clear()  # made again with the new settings at the next move
        self._hand_searchers.clear()
        self._lanes.clear()

    def table_megabytes(self, bits: int | None = None) -> int:
        """The table's size in MB, rounded up: setting ``TableSizeMB`` to it gives this table again."""
        return max(1, -(-(TABLE_ENTRY_BYTES << (self.table_bits if bits is None else bits)) >> 20))
