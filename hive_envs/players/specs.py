"""Player specs: the one place where a text such as ``greedy`` or ``runs/x.pt@64`` becomes a player.

    make_player("random")                       # uniformly random legal moves
    make_player("greedy")                       # the game's 1-ply heuristic (`game.greedy_move_scores`)
    make_player("runs/a/latest.pt")             # a checkpoint's raw policy (argmax; sampled with sample=True)
    make_player("runs/a/latest.pt@64")          # the checkpoint with PUCT search, 64 simulations per move
    make_player("runs/a/latest.pt@T=1")         # the same search, stopped within 1 s a move
    make_player("uhp:nokamute uhp")             # an external UHP engine process (Hive)
    make_player("alphabeta:3")                  # alpha-beta search, 3 plies (alphabeta:T=0.5: 0.5 s a move)
    make_player("alphabeta:3,eval=learned:E.pt")  # the same search with a learned evaluation (Hive)
    make_player("pretrained:hive_base@64")      # an agent shipped with the package (hive_envs.pretrained)
    make_player("pretrained:hive_eval")         # a shipped learned evaluation: alphabeta:3,eval=pretrained:hive_eval
    make_player(spec, PlayerContext(game="hive", seed=3, sample=False, move_timeout_s=30))

Every tool resolves its player arguments here: ``evaluate.py`` and ``arena.py``, the Gym envs'
``opponent=`` (and ``make_vec``), the UHP engine (``--player``, ``--agent``) and the terminal front
end (``python -m hive_envs.play``). A new kind of player is registered once and is then accepted by
all of them::

    from hive_envs.players import PlayerContext, register_player_kind

    def build(argument: str, context: PlayerContext):      # argument: the text after "mine:"
        return MyPlayer(depth=int(argument), seed=context.seed, name=f"mine:{argument}")

    register_player_kind("mine", build, syntax="mine:DEPTH", help="my search to DEPTH plies")

A kind registered with ``argument=False`` is a bare word (like ``random``). ``checkpoint=`` (a function
of the argument) tells tools that validate checkpoints up front which file a spec plays. Any text that
is no registered kind is a checkpoint path, ``PATH``, ``PATH@N`` or ``PATH@T=S``. A player object (anything with a
``choose`` method) is passed through unchanged. Bad specs raise ValueError naming the spec and the
accepted forms.

The text is parsed once, at the edge, into a `PlayerSpec` (`parse_spec`): its kind, argument, the
checkpoint file it plays and, for a checkpoint path, its search. Tools pass that value on (to worker
processes too) and `make_player` builds from it without parsing again; every function here that takes
a spec takes the text or the value.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from hive_envs.players.base import MAX_SIMULATIONS, Player
from hive_envs.players.builtin import GreedyPlayer, RandomPlayer
from hive_envs.pretrained import (
    EVALUATION,
    POLICY,
    model_card,
    pretrained_kind,
    pretrained_names,
    pretrained_path,
)


@dataclass(frozen=True)
class PlayerContext:
    """What a tool tells the builders about the players it wants.

    ``game``: the game name the player will face ("hive", "hoyito"), so that a checkpoint or an engine
    for another game is refused at once (None: checked at the first move); ``seed``: the player's random
    choices; ``sample``: checkpoints sample their moves (policy / visit counts) instead of the best;
    ``move_timeout_s``: how long an engine process may take to answer (plus any move time).
    """

    game: str | None = None
    seed: int | None = None
    sample: bool = False
    move_timeout_s: float = 60.0


Builder = Callable[[str, PlayerContext], Player]


@dataclass(frozen=True)
class PlayerKind:
    name: str
    build: Builder
    syntax: str
    help: str = ""
    argument: bool = True  # "name:ARGUMENT" (True) or the bare word "name" (False)
    checkpoint: Callable[[str], str | None] | None = None


_KINDS: dict[str, PlayerKind] = {}


def register_player_kind(
    name: str,
    build: Builder,
    *,
    syntax: str | None = None,
    help: str = "",
    argument: bool = True,
    checkpoint: Callable[[str], str | None] | None = None,
    replace: bool = False,
) -> None:
    """Accept ``name:ARGUMENT`` (or the bare word ``name`` with ``argument=False``) as a player spec
    everywhere; ``build(argument, context)`` makes the player. See the module docstring."""
    if not name or not name.isidentifier():
        raise ValueError(f"a player kind needs a plain word as its name, got {name!r}")
    if name in _KINDS and not replace:
        raise ValueError(f"player kind {name!r} is already registered (pass replace=True to replace it)")
    syntax = syntax or (f"{name}:ARG" if argument else name)
    _KINDS[name] = PlayerKind(name, build, syntax, help, argument, checkpoint)


def player_kinds() -> list[PlayerKind]:
    """The registered kinds, in registration order (checkpoint paths are accepted besides them)."""
    return list(_KINDS.values())


def describe_specs() -> str:
    """The accepted spec forms, for help texts and error messages."""
    return " | ".join([kind.syntax for kind in _KINDS.values()] + ["PATH[@N | @T=S] (a checkpoint)"])


def _lookup(spec: str) -> tuple[PlayerKind | None, str]:
    name, colon, argument = spec.partition(":")
    kind = _KINDS.get(name)
    if kind is not None and kind.argument == bool(colon):
        return kind, argument.strip()
    return None, spec


@dataclass(frozen=True)
class PlayerSpec:
    """A player spec parsed (`parse_spec`), what tools pass on instead of the text.

    ``text``: the spec as given (stripped), the player's name in tables; ``kind``: the registered kind's
    name, None for a checkpoint path; ``argument``: the text after ``kind:`` (the whole text for a path);
    ``checkpoint``: the checkpoint file the spec plays, else None; ``simulations`` and ``move_time_s``:
    a checkpoint path's ``@N`` / ``@T=S`` search (0 and None: its raw policy).
    """

    text: str
    kind: str | None
    argument: str
    checkpoint: str | None
    simulations: int = 0
    move_time_s: float | None = None

    def __str__(self) -> str:
        return self.text


def parse_spec(spec: str | PlayerSpec) -> PlayerSpec:
    """The value of a spec text (a `PlayerSpec` is returned as it is); ValueError naming a bad spec."""
    if isinstance(spec, PlayerSpec):
        return spec
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"a player is a spec ({describe_specs()}) or a player object, got {spec!r}")
    text = spec.strip()
    kind, argument = _lookup(text)
    if kind is not None:
        path = kind.checkpoint(argument) if kind.checkpoint is not None else None
        return PlayerSpec(text, kind.name, argument, path)
    path, simulations, move_time_s = split_agent_spec(text)
    return PlayerSpec(text, None, text, path, simulations, move_time_s)


def make_player(spec, context: PlayerContext | None = None) -> Player:
    """The player a spec (text or `PlayerSpec`) names (see the module docstring); a player object is
    returned as it is."""
    if hasattr(spec, "choose"):
        return spec
    spec = parse_spec(spec)
    context = context or PlayerContext()
    if spec.kind is not None:
        return _KINDS[spec.kind].build(spec.argument, context)
    return _checkpoint_player(spec, context)


def checkpoint_path(spec) -> str | None:
    """The checkpoint file a spec (text or `PlayerSpec`) plays (``PATH`` of ``PATH[@N]`` or
    ``PATH@T=S``, or a kind's ``checkpoint``), else None (also for anything that is not a spec)."""
    if isinstance(spec, PlayerSpec) or isinstance(spec, str) and spec.strip():
        return parse_spec(spec).checkpoint
    return None


def split_checkpoint_spec(spec: str) -> tuple[str, int]:
    """``'PATH@N'`` -> (PATH, N simulations); ``'PATH'`` -> (PATH, 0: the raw policy)."""
    path, at, count = spec.rpartition("@")
    if not at:
        return spec, 0
    if not (count.isascii() and count.isdigit()):
        raise ValueError(f"player {spec!r}: the number of simulations after '@' must be an integer >= 0")
    if len(count) > len(str(MAX_SIMULATIONS)) or int(count) > MAX_SIMULATIONS:
        raise ValueError(f"player {spec!r}: at most {MAX_SIMULATIONS} simulations after '@'")
    return path, int(count)


MAX_MOVE_TIME_S = 3600.0


def split_agent_spec(spec: str) -> tuple[str, int, float | None]:
    """``'PATH@T=S'`` -> (PATH, 0, S seconds a move: search until then); else `split_checkpoint_spec`'s
    (PATH, N) and None. ValueError naming the spec for S that is not a number in (0, 3600]."""
    path, at, budget = spec.rpartition("@")
    if not (at and budget.startswith("T=")):
        return (*split_checkpoint_spec(spec), None)
    try:
        seconds = float(budget[2:])
    except ValueError:
        seconds = -1.0
    if not 0 < seconds <= MAX_MOVE_TIME_S:  # also refuses nan
        raise ValueError(
            f"player {spec!r}: the seconds per move after '@T=' must be a number in (0, {MAX_MOVE_TIME_S:g}]"
        )
    return path, 0, seconds


def _checkpoint_player(spec: PlayerSpec, context: PlayerContext) -> Player:
    path = str(spec.checkpoint)
    if not os.path.isfile(path):  # before importing torch: a typo should not cost seconds
        raise ValueError(
            f"player {spec.text!r}: no such player kind, and checkpoint {path!r} does not exist "
            f"(player specs: {describe_specs()})"
        )
    return _agent_player(path, spec.simulations, context, spec.text, move_time_s=spec.move_time_s)


def _agent_player(
    path: str,
    simulations: int,
    context: PlayerContext,
    name: str,
    search: dict | None = None,
    move_time_s: float | None = None,
) -> Player:
    from hive_envs.players.checkpoint import AgentPlayer  # torch is imported here, not before

    player = AgentPlayer.load(
        path,
        simulations=simulations,
        sample=context.sample,
        seed=context.seed,
        move_time_s=move_time_s,
        **(search or {}),
    )
    player.name = name
    if context.game is not None and player.game_name != context.game:
        raise ValueError(f"{path!r} is a {player.game_name} agent; this match is {context.game}")
    return player


def _pretrained_file(argument: str) -> str | None:
    """The checkpoint ``pretrained:ARGUMENT`` plays: a policy agent's file; None for a learned evaluation
    (no checkpoint: an alpha-beta search reads it), whose spec is checked here (`evaluation_argument`)."""
    name = split_agent_spec(argument)[0]
    if pretrained_kind(name) == EVALUATION:
        evaluation_argument(argument)
        return None
    return str(pretrained_path(name))


def evaluation_argument(argument: str) -> str | None:
    """The ``alphabeta:`` argument that ``pretrained:ARGUMENT`` plays when it names a learned evaluation
    (`hive_envs.pretrained.EVALUATION`): ``D,eval=pretrained:NAME`` with D its model card's
    ``default_depth``, or ``T=S,eval=pretrained:NAME`` for ``@T=S``; None for a policy agent.
    ValueError for ``@N`` (simulations are a policy agent's search) or a card without a depth."""
    name, _, move_time_s = split_agent_spec(argument)
    if pretrained_kind(name) != EVALUATION:
        return None
    if move_time_s is not None:
        return f"T={move_time_s!r},eval=pretrained:{name}"
    if "@" in argument:
        raise ValueError(
            f"player 'pretrained:{argument}': {name!r} is a learned evaluation for the alpha-beta search; "
            f"@N is the simulations of a policy agent's PUCT search. Use alphabeta:N,eval=pretrained:{name} "
            f"for a depth of N plies, or pretrained:{name}@T=S for S seconds a move"
        )
    depth = model_card(name).get("default_depth")
    if not isinstance(depth, int) or isinstance(depth, bool):
        raise ValueError(f"pretrained agent {name!r}: its model card gives no default_depth (re-export it)")
    return f"{depth},eval=pretrained:{name}"


def _pretrained(argument: str, context: PlayerContext) -> Player:
    """The shipped agent: a policy agent, whose model card's ``search`` (prior temperature, rule value
    share) is how every ``@N`` of it searches; or a learned evaluation, the alpha-beta search with it
    (`evaluation_argument`)."""
    name, simulations, move_time_s = split_agent_spec(argument)
    searched = evaluation_argument(argument)  # ValueError for an unknown name (lists the known ones)
    if searched is not None:
        from hive_envs.players.alphabeta import AlphaBetaPlayer

        pretrained_path(name)  # ValueError for a missing file
        try:
            player = AlphaBetaPlayer.from_spec(searched, context.game, context.seed)
        except ValueError as error:
            raise ValueError(f"pretrained agent {name!r}: {error}") from None
        player.name = f"pretrained:{argument}"
        return player
    path = pretrained_path(name)  # ValueError for a missing file
    try:
        search = model_card(name).get("search")
        return _agent_player(str(path), simulations, context, f"pretrained:{argument}", search, move_time_s)
    except ValueError as error:
        raise ValueError(f"pretrained agent {name!r}: {error}") from None


def _uhp_engine(command: str, context: PlayerContext) -> Player:
    if not command:
        raise ValueError('uhp: needs a command, e.g. uhp:"python -m hive_envs.uhp"')
    from hive_envs.games import game_entry
    from hive_envs.players.uhp_engine import UHPEnginePlayer

    if context.game is not None and not game_entry(context.game).uhp:
        raise ValueError(f"UHP engines play Hive; this match is {context.game}")

    return UHPEnginePlayer(command, context.move_timeout_s)


register_player_kind(
    "random",
    lambda _, context: RandomPlayer(context.seed),
    argument=False,
    help="a uniformly random legal move",
)
register_player_kind(
    "greedy",
    lambda _, context: GreedyPlayer(context.seed),
    argument=False,
    help="the game's 1-ply heuristic (Hive: Queen margin; Hoyito: largest capture), ties at random",
)


def _alphabeta(argument: str, context: PlayerContext) -> Player:
    from hive_envs.players.alphabeta import AlphaBetaPlayer

    return AlphaBetaPlayer.from_spec(argument, context.game, context.seed)


register_player_kind(
    "alphabeta",
    _alphabeta,
    syntax="alphabeta:D | alphabeta:T=S",
    help="alpha-beta search to D plies, or for S seconds per move (both: alphabeta:D,T=S); Hive and Hoyito; "
    "add ,eval=learned:PATH for a learned evaluation's file, or ,eval=pretrained:NAME for one shipped with "
    f"the package ({', '.join(pretrained_names(EVALUATION))}), and then ,other=hand to search the variants it "
    "was not trained on with the hand evaluation",
)
register_player_kind(
    "uhp", _uhp_engine, syntax="uhp:COMMAND", help="an external Universal Hive Protocol engine process"
)
register_player_kind(
    "pretrained",
    _pretrained,
    syntax="pretrained:NAME[@N | @T=S]",
    help=f"an agent shipped with the package: a policy ({', '.join(pretrained_names(POLICY))}), its raw "
    f"policy; @N: PUCT search, N simulations; @T=S: PUCT search stopped within S seconds a move; or a learned "
    f"evaluation ({', '.join(pretrained_names(EVALUATION))}): the alpha-beta search with it to its model "
    f"card's depth; @T=S: for S seconds a move",
    checkpoint=_pretrained_file,
)
