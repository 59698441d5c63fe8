"""Which PettingZoo AEC env a name stands for, and the one rule for importing it.

An AEC env is named by text (a config key, a checkpoint's ``game_options``, a command-line flag),
and text read from a file must never make us import code of someone else's choosing. So a name is
one of these forms, checked before anything is imported:

- ``pettingzoo:ID``: an id of this package's PettingZoo registry (``hive_envs/hive-v0``,
  ``hive_envs/hoyito-v0``; each game definition's ``aec_id``), made by its entry point;
- ``pettingzoo.classic.NAME``: a module of PettingZoo's classic games (``connect_four_v3``,
  ``tictactoe_v3``, ...), made by its ``env(**env_options)``;
- ``hive_envs.NAME``: a module of this package (``hive_envs.hive_v0``), made by its ``env()``;
- ``MODULE:FACTORY``: any importable module and a callable in it, ONLY after the user trusted that
  exact text in this process (`trust_env_module`, which the command lines call for their
  ``--trust-env-module MODULE:FACTORY`` flag). A YAML file or a checkpoint that names it is
  refused otherwise, so loading either never imports a module the user did not name by hand.

`AecOptions(env, env_options)` is the validated value of a name and its keyword options;
`make_env(options)` builds one env from it (a fresh one per call: batches and games each own theirs).
`own_game(options)` is the game of this package whose own env a name makes (``pettingzoo:ID`` of its
``aec_id`` or ``hive_envs.NAME`` of its ``aec_env``), with that game's options.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from typing import Any

_MODULE = r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*"
_ALLOWED_MODULE = re.compile(r"(?:pettingzoo\.classic|hive_envs)\.[A-Za-z_]\w*")
_TRUSTABLE = re.compile(rf"{_MODULE}:[A-Za-z_]\w*")
_REGISTRY_PREFIX = "pettingzoo:"
FORMS = (
    "'pettingzoo:ID' (an id of hive_envs' PettingZoo registry, e.g. pettingzoo:hive_envs/hive-v0), "
    "'pettingzoo.classic.NAME' (e.g. pettingzoo.classic.connect_four_v3), 'hive_envs.NAME' "
    "(e.g. hive_envs.hoyito_v0), or 'MODULE:FACTORY' given with --trust-env-module MODULE:FACTORY "
    "on the command line"
)

_trusted: set[str] = set()


def trust_env_module(spec: str) -> None:
    """Allow the env name ``MODULE:FACTORY`` in this process (the user named it on the command line)."""
    if not isinstance(spec, str) or not _TRUSTABLE.fullmatch(spec):
        raise ValueError(f"--trust-env-module must be MODULE:FACTORY (e.g. my_games.board:env), got {spec!r}")
    _trusted.add(spec)


def _registry() -> dict[str, str]:
    """The PettingZoo ids of the registered games -> their env entry points (the games' definitions,
    imported on use: the registry imports this module)."""
    games = importlib.import_module("hive_envs.games").GAMES
    return {
        d.aec_id: d.ref("aec_env")
        for d in games.values()
        if d.aec_id is not None and isinstance(d.ref("aec_env"), str)
    }


def check_env_name(env: Any) -> str:
    """``env`` if it is a name of one of the forms of the module docstring; ValueError otherwise
    (imports only this package's registration table, never the named module)."""
    if not isinstance(env, str) or not env:
        raise ValueError(f"env must be a non-empty string naming an AEC env ({FORMS}), got {env!r}")
    if env.startswith(_REGISTRY_PREFIX):
        ids = _registry()
        if env[len(_REGISTRY_PREFIX) :] not in ids:
            raise ValueError(
                f"env {env!r}: no such id in hive_envs' PettingZoo registry; the ids are "
                f"{', '.join(_REGISTRY_PREFIX + i for i in sorted(ids))}"
            )
        return env
    if _ALLOWED_MODULE.fullmatch(env):
        return env
    if _TRUSTABLE.fullmatch(env):
        if env not in _trusted:
            raise ValueError(
                f"env {env!r} names a module outside pettingzoo.classic and hive_envs; it is imported only "
                f"when the command line says --trust-env-module {env} (a config or checkpoint alone never "
                f"imports code)"
            )
        return env
    raise ValueError(f"env {env!r} is not an AEC env name; use {FORMS}")


@dataclass(frozen=True)
class AecOptions:
    """An AEC env name (checked: `check_env_name`) and the keyword options its factory is called with."""

    env: str
    env_options: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        check_env_name(self.env)
        if not isinstance(self.env_options, dict) or not all(isinstance(k, str) for k in self.env_options):
            raise ValueError(f"env_options must be a dict of keyword options, got {self.env_options!r}")
        object.__setattr__(self, "env_options", dict(self.env_options))

    @property
    def label(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in self.env_options.items())
        return f"{self.env}({options})"


def own_game(options: AecOptions):
    """(definition, its parsed options) of the game of this package whose own env ``options`` names (its
    ``aec_id`` after ``pettingzoo:``, or the module of its ``aec_env``); None for any other env.

    The env's keywords that are not the game's options (``render_mode``, reward shaping) change no
    observation and are left out; a bad value of a game option raises the game's own ValueError."""
    for definition in importlib.import_module("hive_envs.games").GAMES.values():
        if options.env in own_env_names(definition):
            game_options = {k: v for k, v in options.env_options.items() if definition.has_option(k)}
            return definition, definition.parse_options(game_options)
    return None


def own_env_names(definition) -> set[str]:
    """The names of the forms above that make ``definition``'s own env."""
    names = set()
    if definition.aec_id is not None:
        names.add(_REGISTRY_PREFIX + definition.aec_id)
    written = definition.ref("aec_env")  # as the definition names it, without importing the env
    if isinstance(written, str) and written.endswith(":env"):
        names.add(written.removesuffix(":env"))
    return names


def _factory(env: str):
    if env.startswith(_REGISTRY_PREFIX):
        target = _registry()[env[len(_REGISTRY_PREFIX) :]]
    elif ":" in env:
        target = env
    else:
        target = f"{env}:env"
    module_name, _, name = target.partition(":")
    try:
        factory = getattr(importlib.import_module(module_name), name)
    except (ImportError, AttributeError) as error:
        raise ValueError(f"env {env!r}: cannot import {target} ({error})") from None
    if not callable(factory):
        raise ValueError(f"env {env!r}: {target} is not callable")
    return factory


def make_env(options: AecOptions):
    """A new, not yet reset, env of ``options`` (ValueError naming the env when it cannot be made)."""
    factory = _factory(options.env)
    try:
        return factory(**options.env_options)
    except TypeError as error:  # an unknown keyword: the factory's own words name it
        raise ValueError(f"env {options.label}: {error}") from None
