"""`GameDefinition`: everything game-specific about one game, declared once in the game's folder.

    HIVE = GameDefinition(name="hive", title="Hive", options="hive_envs.hive.engine.options:HiveOptions",
                          ..., envs=EnvParts(...), presentation=Presentation(...), evaluation=Evaluation(...),
                          agents=AgentKit(...))
    HIVE.options                    # the class, imported now; HIVE.ref("options") is the text
    HIVE.evaluation.ladder          # a sub-record's field; HIVE.ladder reads the same

Every tool (registration, players, the terminal front end, the arena and ladder, RLlib, the
benchmarks, `hive_envs.testing`) reads what it needs from the definition and never asks a game's
name. `hive_envs.games` collects the package's definitions; `hive_envs.register_game(definition)`
adds another (the tests' Nim is added so).

The parts that are code (classes and functions, marked *part* below) take the object itself or a
``"module:attribute"`` text (``"module:Class.method"`` too), as Gymnasium's entry points do: reading
the field imports the module on first use and gives the object. So a definition names its engine,
encoder, batch, envs, drawing and agents without importing them, and `import hive_envs`, which
registers every game's env ids, loads no engine, numba or torch. ``definition.ref(field)`` is what
was written (the text itself), for code that must not import it. The texts are written in code,
never read from a file.

The definition itself holds what every floor needs, the rules:

- ``name``: the game's name in configs, checkpoints, reports and player contexts.
- ``title``: the name shown to people ("Hive", "Hoyito II").
- ``options`` *part*: the options dataclass; constructing it validates the values (ValueError).
- ``new_game`` *part*: ``(options) -> Game``: a protocol game (`hive_envs.core.game`) at the start.
- ``from_record`` *part*: ``(text, options) -> Game``: replay a `Game.record` text under ``options`` (the rules
  the record's text does not carry, such as a turn cap or repetition draw); ValueError if bad.

The rest is grouped in four sub-records by the floor that reads them, each field also read from the
definition itself (``HIVE.batch`` is ``HIVE.envs.batch``; ``agents.networks`` only in its group):

``envs`` (`EnvParts`: the encoders, batches and envs):

- ``encoder`` *part*: ``(options, **env_options) ->`` encoder: the encoder of the game's envs
  (`hive_envs.core.game_env`).
- ``env_options``: names of the keyword options of the game's envs, batch and encoder that are not
  rules (Hive's ``observation``: which encoding the envs show). Option-name checks accept them beside
  the rules, ``parse_options`` leaves them out of the options object, and the encoder part receives
  them as keywords (`GameDefinition.make_encoder`).
- ``batch`` *part*: the batched stepper class (`hive_envs.core.batch`), ``Batch(num_games, **options)``;
  None for a game without one (no PPO training, no ``make_vec``).
- ``aec_env`` *part*: ``env(**options)``, the wrapped PettingZoo AEC env; ``aec_id`` its PettingZoo id.
- ``gym_envs``: Gymnasium id -> default keyword options; ``gym_entry_point`` and ``vector_entry_point``
  the entry points of the single-agent env and of its ``make_vec`` class, as Gymnasium takes them (an
  object or a ``"module:attribute"`` text that Gymnasium imports when an id is made).
- ``potential``: the name of the game's potential for the opt-in reward shaping, None for none.

``presentation`` (`Presentation`: what shows a game to people):

- ``label`` *part*: ``(options) -> str``: the game under these options for tables ("Hive Base+MLP").
- ``seat_names``: the two seats as people call them (("White", "Black")).
- ``draw_text`` *part*: ``(game) -> str``, the board as the terminal front end prints it;
  ``score_text`` *part*: ``(game) -> str``: what follows "X wins" at the end (a final score), "" if nothing;
  ``move_notation``: how a person types a move, as the terminal front end's ``help`` explains it;
  ``draw_picture`` *part*: ``(game) -> (H, W, 3) uint8`` array, the board as a picture, or None.
- ``web_board`` *part*: ``(game) -> dict``, what the browser page (`hive_envs.web`) draws of the
  position, or None (the page then cannot show the game); ``web_drawer`` *part*: ``() -> str``, the
  JavaScript that draws it (the page loads it by the game's name: `hive_envs.web.boards`);
  ``read_record`` *part*: ``(text, options dict) -> Game | None``: the game a record text pasted into
  the page's replay describes (None: the text is no record of this game; ValueError: it is one the
  rules refuse); ``options``: the rules it was played under that the text does not carry.

``evaluation`` (`Evaluation`: players, arena, ladder, the trainers' evaluations):

- ``searcher`` *part*: the `hive_envs.core.alphabeta.AlphaBetaSearcher` subclass behind ``alphabeta:D``;
  None: the game has no alpha-beta player.
- ``ladder``: the fixed player specs of the game's strength ladder, weakest first.
- ``eval_opponents``: the quick baselines a training run's final evaluation plays.
- ``metrics``: `MatchMetric` values the arena reports per game and per match besides the result.
- ``uhp``: whether external Universal Hive Protocol engines play the game (``uhp:COMMAND`` players).
- ``potential``: the name of the game's potential for the opt-in reward shaping, None for none.
- ``evaluate_in_batch``: a training run's evaluation plays the games in one batch (`evaluation.match`)
  instead of game by game: for games whose protocol copy is slow (an AEC env copied every move).

``agents`` (`AgentKit`: the game's agent kit, read by the agents and training floors):

- ``networks``: the network kinds made for this game (`hive_envs.core.network_kind.NetworkKind`:
  each with its options, builder, and what training needs of it), found by name through
  `hive_envs.agents.network_kinds` beside the generic ones.
- ``fresh_moves`` *part*: ``(game, moves) -> bool array | None``: which moves lead to a position the
  game has not been in (the network players avoid repeating); None for a game without repetitions.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hive_envs.core.game import Game
from hive_envs.core.network_kind import NetworkKind
from hive_envs.core.parts import Part, check_names, load

__all__ = [
    "AgentKit",
    "EnvParts",
    "Evaluation",
    "GameDefinition",
    "MatchMetric",
    "Part",
    "Presentation",
    "check_names",
    "load",
]


@dataclass(frozen=True)
class MatchMetric:
    """A number the arena reports for each finished game from player A's side, and its match mean.

    ``key``: the report's key (``queen_margin_for_a``); ``description``: the printed line's words;
    ``value(game, seat_of_a)``: the number in the game's final position.
    """

    key: str
    description: str
    value: Callable[[Any, int], float]  # (the game's own class, seat of A)


class _Group:
    """A sub-record of `GameDefinition`: its parts, and a repr that imports none of them."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(...)"


@dataclass(frozen=True, kw_only=True, repr=False)
class EnvParts(_Group):
    """What the envs, the batch and the encoder floors read (the module docstring lists the fields)."""

    encoder: Part[Callable[..., Any]] = Part()
    env_options: tuple[str, ...] = ()
    batch: Part[Any] = Part(None)
    aec_env: Part[Any] = Part(None)
    aec_id: str | None = None
    gym_envs: dict[str, dict] = field(default_factory=dict)
    gym_entry_point: Any = None
    vector_entry_point: Any = None
    potential: str | None = None


@dataclass(frozen=True, kw_only=True, repr=False)
class Presentation(_Group):
    """What the presentation floor and the tools that show a game read: labels, text, pictures, the
    web page's board."""

    label: Part[Callable[[Any], str]] = Part()
    seat_names: tuple[str, str]
    draw_text: Part[Any] = Part(None)
    score_text: Part[Callable[[Any], str]] = Part(lambda game: "")  # takes the game's own class
    move_notation: str = ""
    draw_picture: Part[Any] = Part(None)
    web_board: Part[Any] = Part(None)
    web_drawer: Part[Callable[[], str] | None] = Part(None)
    read_record: Part[Callable[[str, dict], Any] | None] = Part(None)


@dataclass(frozen=True, kw_only=True, repr=False)
class Evaluation(_Group):
    """What the players, the arena, the ladder and the trainers' evaluations read."""

    searcher: Part[Any] = Part(None)
    ladder: tuple[str, ...] = ("random", "greedy")
    eval_opponents: tuple[str, ...] = ("random",)
    metrics: tuple[MatchMetric, ...] = ()
    uhp: bool = False
    evaluate_in_batch: bool = False


@dataclass(frozen=True, kw_only=True, repr=False)
class AgentKit(_Group):
    """What the agents and training floors read: the game's network kinds and its players' history."""

    networks: tuple[NetworkKind, ...] = ()
    fresh_moves: Part[Any] = Part(None)


GROUPS = {"envs": EnvParts, "presentation": Presentation, "evaluation": Evaluation, "agents": AgentKit}
"""The sub-records of a definition by field name, bottom floor first."""


class _Grouped:
    """A field of a sub-record read from the definition itself (``HIVE.batch`` is
    ``HIVE.envs.batch``): the one-record reads of earlier versions keep working."""

    def __init__(self, group: str) -> None:
        self.group = group

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, definition: Any, owner: type | None = None) -> Any:
        if definition is None:
            return self
        return getattr(getattr(definition, self.group), self.name)


@dataclass(frozen=True, kw_only=True, repr=False)
class GameDefinition:
    """One game's record of everything game-specific (the fields: see the module docstring)."""

    name: str
    title: str
    options: Part[type] = Part()
    new_game: Part[Callable[[Any], Game]] = Part()
    from_record: Part[Callable[[str, Any], Game]] = Part()
    envs: EnvParts
    presentation: Presentation
    evaluation: Evaluation = field(default_factory=Evaluation)
    agents: AgentKit = field(default_factory=AgentKit)

    # the sub-records' fields, read from the definition too (not constructor keywords)
    encoder = _Grouped("envs")
    env_options = _Grouped("envs")
    batch = _Grouped("envs")
    aec_env = _Grouped("envs")
    aec_id = _Grouped("envs")
    gym_envs = _Grouped("envs")
    gym_entry_point = _Grouped("envs")
    vector_entry_point = _Grouped("envs")
    potential = _Grouped("envs")
    label = _Grouped("presentation")
    seat_names = _Grouped("presentation")
    draw_text = _Grouped("presentation")
    score_text = _Grouped("presentation")
    move_notation = _Grouped("presentation")
    draw_picture = _Grouped("presentation")
    web_board = _Grouped("presentation")
    searcher = _Grouped("evaluation")
    ladder = _Grouped("evaluation")
    eval_opponents = _Grouped("evaluation")
    metrics = _Grouped("evaluation")
    uhp = _Grouped("evaluation")
    evaluate_in_batch = _Grouped("evaluation")
    fresh_moves = _Grouped("agents")

    def __post_init__(self) -> None:
        for name, group in GROUPS.items():
            if not isinstance(getattr(self, name), group):
                raise ValueError(
                    f"a definition's {name} must be a {group.__name__}, got {getattr(self, name)!r}"
                )

    def __repr__(self) -> str:  # the dataclass's would import every part
        return f"GameDefinition(name={self.name!r}, title={self.title!r})"

    def ref(self, part: str) -> Any:
        """What the part ``part`` (of the definition or one of its sub-records) was given, not
        imported: the object or its ``"module:attribute"`` text (registration hands the text to
        PettingZoo, which imports it when the env is made)."""
        for owner in (self, *(getattr(self, name) for name in GROUPS)):
            if isinstance(vars(type(owner)).get(part), Part):
                return owner.__dict__[part]
        parts = sorted(
            name
            for owner in (GameDefinition, *GROUPS.values())
            for name, value in vars(owner).items()
            if isinstance(value, Part)
        )
        raise ValueError(f"a game definition has no part {part!r}; its parts are {', '.join(parts)}")

    def with_parts(self, **changes: Any) -> GameDefinition:
        """A copy with the fields ``changes`` names replaced, each given by its own name wherever it
        lives (``with_parts(name="x", batch=B)`` replaces ``envs.batch``); ValueError for a name that
        is no field."""
        own = {name: changes.pop(name) for name in list(changes) if name in _OWN_FIELDS}
        for group, cls in GROUPS.items():
            mine = {name: changes.pop(name) for name in list(changes) if name in _fields_of(cls)}
            if mine:
                own[group] = dataclasses.replace(getattr(self, group), **mine)
        if changes:
            raise ValueError(f"a game definition has no field {', '.join(sorted(changes))}")
        return dataclasses.replace(self, **own)

    # -- options ----------------------------------------------------------------------------------
    @property
    def option_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(self.options))

    def has_option(self, name: str) -> bool:
        return name in self.option_names

    def check_option_names(self, options, extra: tuple[str, ...] = ()) -> None:
        """ValueError naming the keys of ``options`` that are neither options of the game (its rules and
        ``env_options``) nor ``extra`` (the caller's own keywords, such as ``render_mode``)."""
        check_names(self.name, options, self.option_names + self.env_options + tuple(extra))

    def parse_options(self, options: dict | None = None) -> Any:
        """The options object of a dict of keyword options (its ``env_options`` left out); ValueError
        naming unknown keys."""
        options = dict(options or {})
        self.check_option_names(options)
        return self.options(**{k: v for k, v in options.items() if k not in self.env_options})

    def make_encoder(self, options: dict | None = None) -> Any:
        """The encoder under a dict of keyword options: the rules parsed, the ``env_options`` among them
        passed to the encoder part as keywords (bad values: the encoder's ValueError)."""
        options = dict(options or {})
        parsed = self.parse_options(options)
        return self.encoder(parsed, **{k: v for k, v in options.items() if k in self.env_options})

    def game(self, options: dict | None = None) -> Game:
        """A new game under keyword ``options`` (validated by the options object)."""
        return self.new_game(self.parse_options(options))

    # -- the parts ------------------------------------------------------------------------------
    def batch_class(self) -> type:
        if self.batch is None:
            raise ValueError(f"game {self.name!r} has no batch (it cannot be trained or vectorised)")
        return self.batch

    def make_batch(self, num_games: int, options: dict[str, Any]):
        """A batch of ``num_games`` games; an unknown option name raises ValueError naming it and the
        batch's options (not a TypeError from the constructor), bad values the game's own ValueError."""
        cls = self.batch_class()
        parameters = list(inspect.signature(cls).parameters.values())[1:]  # those after num_games
        if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):  # else the class checks
            check_names(f"game {self.name!r}", options, [p.name for p in parameters])
        return cls(num_games, **options)

    def make_aec(self, options: dict | None = None):
        """The wrapped PettingZoo AEC env (``env(**options)``: illegal moves lose, call order enforced)."""
        if self.aec_env is None:
            raise ValueError(f"game {self.name!r} has no PettingZoo env")
        return self.aec_env(**dict(options or {}))

    def searcher_class(self) -> type | None:
        return self.searcher

    def draw(self, game: Game) -> str:
        """The board as text (the game's record when the definition has no drawing)."""
        return game.record() if self.draw_text is None else self.draw_text(game)

    def fresh(self, game: Game, moves) -> Any:
        """`fresh_moves` of the game, or None when the game has no repetitions."""
        return None if self.fresh_moves is None else self.fresh_moves(game, moves)


def _fields_of(cls: type) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)}


_OWN_FIELDS = _fields_of(GameDefinition)
