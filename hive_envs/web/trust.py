"""Which players a request may name: the page runs no command and opens no file a request names.

A request names a player by a spec text (or ``human``). The page accepts:

- the built-in players, ``random``, ``greedy`` and ``alphabeta:...``, and the agents shipped with the
  package, ``pretrained:NAME[@N | @T=S]``, within the page's search ceilings (`caps.Caps`): a search
  of at most ``move_time_s`` seconds (``alphabeta:D`` with no time plays as ``alphabeta:D,T=<ceiling>``:
  whichever limit comes first) and at most ``simulations`` simulations. A shipped learned evaluation
  is taken as the package's other files are, since the request names it, never a path: as
  ``pretrained:NAME[@T=S]`` (the alpha-beta search it plays, bounded as ``alphabeta:`` is) and as
  ``alphabeta:...,eval=pretrained:NAME``; ``eval=learned:PATH`` (a file) is refused;
- ``engine:NAME``: a UHP engine the person who started the server named on its command line
  (``hive-web --engine NAME=COMMAND``); the request names it, never its command;
- ``agent:NAME[@N | @T=S]``: a checkpoint under the folder the command line named (``--agents
  DIR``), by its path relative to that folder as `Offer.agents` lists it (``run1/latest.pt``); the
  name is looked up in that list, never joined to a path.

Everything else is refused with a ValueError before anything is made: ``uhp:COMMAND``, a checkpoint
path (refused by its form alone: the file is not opened, and the message is the same whether it
exists or not), and any other registered player kind. The value returned (`PagePlayer`) carries the
`PlayerSpec` to build, whose command or path came from the command line, not from the request.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from hive_envs.players import alphabeta
from hive_envs.players.specs import PlayerSpec, evaluation_argument, parse_spec, split_agent_spec
from hive_envs.web.caps import Caps

BUILT_IN = ("random", "greedy", "alphabeta", "pretrained")  #: player kinds a request may name
ENGINE, AGENT = "engine", "agent"
MAX_AGENT_FILES = 1_000  #: checkpoints listed from the --agents folder (the first found)
AGENT_SUFFIX = ".pt"
_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")


@dataclass(frozen=True)
class Offer:
    """What the server's command line allows beyond the built-in players: UHP engines by name
    (``engines``: name -> command) and the checkpoints under a folder (``agents``)."""

    engines: Mapping[str, str] = field(default_factory=dict)
    agents: Path | None = None

    @classmethod
    def from_command_line(cls, engines: list[str], agents: str | None) -> Offer:
        """The offer of ``--engine NAME=COMMAND`` (each) and ``--agents DIR``; ValueError naming a
        malformed or repeated name, an empty command or a folder that does not exist."""
        named: dict[str, str] = {}
        for text in engines:
            name, equals, command = text.partition("=")
            name, command = name.strip(), command.strip()
            if not equals or not _NAME.fullmatch(name) or not command:
                raise ValueError(f"--engine NAME=COMMAND (NAME: letters, digits, . _ -), got {text!r}")
            if name in named:
                raise ValueError(f"--engine: the name {name!r} is given twice")
            named[name] = command
        folder = None
        if agents is not None:
            folder = Path(agents).resolve()
            if not folder.is_dir():
                raise ValueError(f"--agents: {agents!r} is not a folder")
        return cls(named, folder)

    def agent_files(self) -> dict[str, Path]:
        """The checkpoints offered, by name (their path below ``agents``, with ``/``), sorted."""
        if self.agents is None:
            return {}
        found = itertools.islice(self.agents.rglob(f"*{AGENT_SUFFIX}"), MAX_AGENT_FILES)
        files = {path.relative_to(self.agents).as_posix(): path for path in found if path.is_file()}
        return dict(sorted(files.items()))

    def listed(self) -> dict[str, list[str]]:
        """The names the page offers, for ``/api/meta``: ``engine:NAME`` and ``agent:NAME``."""
        return {
            "engines": [f"{ENGINE}:{name}" for name in sorted(self.engines)],
            "agents": [f"{AGENT}:{name}" for name in self.agent_files()],
        }


@dataclass(frozen=True)
class PagePlayer:
    """A player a request may have: ``spec``, what `make_player` builds (its ``text`` is the request's,
    the player's name on the page), and ``engine``: it starts an engine process."""

    spec: PlayerSpec
    engine: bool = False


def page_player(text: str, offer: Offer, caps: Caps) -> PagePlayer:
    """The player a request's spec ``text`` names (see the module docstring); ValueError otherwise."""
    kind, _, argument = text.partition(":")
    if kind == ENGINE and argument:
        return _engine(text, argument, offer)
    if kind == AGENT and argument:
        return _agent(text, argument, offer, caps)
    spec = parse_spec(text)
    if spec.kind not in BUILT_IN:
        raise ValueError(f"{text!r} is not a player the page offers. {_forms(offer)}")
    if spec.kind == "alphabeta":
        return PagePlayer(_bounded_alphabeta(spec, caps))
    if spec.kind == "pretrained":
        searched = evaluation_argument(spec.argument)  # a shipped learned evaluation: its alpha-beta
        if searched is not None:
            return PagePlayer(_bounded_alphabeta(PlayerSpec(text, "alphabeta", searched, None), caps))
        _check_search(text, *split_agent_spec(spec.argument)[1:], caps)
    return PagePlayer(spec)


def describe_page_specs(offer: Offer, caps: Caps) -> str:
    """The spec forms a request may use, for the page's help line."""
    forms = [
        "random",
        "greedy",
        "alphabeta:D | alphabeta:T=S [,eval=pretrained:NAME]",
        "pretrained:NAME[@N | @T=S]",
    ]
    if offer.engines:
        forms.append(f"{ENGINE}:NAME ({', '.join(sorted(offer.engines))})")
    if offer.agents is not None:
        forms.append(f"{AGENT}:FILE[@N | @T=S] (a checkpoint of the server's --agents folder)")
    return (
        " | ".join(forms) + f" (searches of at most {caps.move_time_s:g} s, {caps.simulations:,} simulations)"
    )


def _forms(offer: Offer) -> str:
    listed = offer.listed()
    offered = listed["engines"] + listed["agents"]
    extra = f"; and, as this server's command line allowed, {', '.join(offered)}" if offered else ""
    return (
        f"It plays human, random, greedy, alphabeta:D | alphabeta:T=S [,eval=pretrained:NAME] and "
        f"pretrained:NAME[@N | @T=S]{extra}. An engine command (uhp:COMMAND), a checkpoint path or a "
        f"learned evaluation's file (eval=learned:PATH) is never taken from a request: the person "
        f"starting hive-web offers engines and checkpoints by name with --engine NAME=COMMAND (then "
        f"engine:NAME) and --agents DIR (then agent:FILE)."
    )


def _engine(text: str, name: str, offer: Offer) -> PagePlayer:
    command = offer.engines.get(name)
    if command is None:
        raise ValueError(f"{text!r}: this server offers no engine {name!r}. {_forms(offer)}")
    return PagePlayer(PlayerSpec(text, "uhp", command, None), engine=True)


def _agent(text: str, argument: str, offer: Offer, caps: Caps) -> PagePlayer:
    name, simulations, move_time_s = split_agent_spec(argument)
    path = offer.agent_files().get(name)
    if path is None:
        raise ValueError(f"{text!r}: this server offers no agent {name!r}. {_forms(offer)}")
    _check_search(text, simulations, move_time_s, caps)
    return PagePlayer(PlayerSpec(text, None, text, str(path), simulations, move_time_s))


def _check_search(text: str, simulations: int, move_time_s: float | None, caps: Caps) -> None:
    if simulations > caps.simulations:
        raise ValueError(f"{text!r}: the page searches at most {caps.simulations:,} simulations a move")
    if move_time_s is not None and move_time_s > caps.move_time_s:
        raise ValueError(f"{text!r}: the page searches at most {caps.move_time_s:g} s a move")


def _bounded_alphabeta(spec: PlayerSpec, caps: Caps) -> PlayerSpec:
    """``alphabeta:D`` searching at most the ceiling's seconds (refused when it asks for more)."""
    _, time_s = alphabeta.parse_spec(spec.argument)  # ValueError naming a malformed spec
    if time_s is None:
        argument = f"{spec.argument},T={caps.move_time_s:g}"
        return PlayerSpec(spec.text, spec.kind, argument, None)
    _check_search(spec.text, 0, time_s, caps)
    return spec
