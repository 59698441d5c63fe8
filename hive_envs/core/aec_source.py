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
`call_factory(options)` builds one env from it (a fresh one per call: batches and games each own
theirs; they call it through `hive_envs.core.aec_make.make_env`, which makes a classic game's env in a
child process first, under a memory ceiling).
`own_env_names(definition)` are the names that make a game's own env (``pettingzoo:ID`` of its
``aec_id`` or ``hive_envs.NAME`` of its ``aec_env``; `hive_envs.games.own_game` finds the game of a name).

The ids of ``pettingzoo:ID`` are those the registry of games (`hive_envs.games`, which sits above this
module) declares with `register_env_id` as it adds each game: this module never imports the registry.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from typing import Any

from hive_envs.core.short_repr import short_repr

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

MAX_NAME = 200
"""The longest env name (a module path and factory)."""

_trusted: set[str] = set()


def trust_env_module(spec: str) -> None:
    """Allow the env name ``MODULE:FACTORY`` in this process (the user named it on the command line)."""
    if not isinstance(spec, str) or not _TRUSTABLE.fullmatch(spec):
        raise ValueError(f"--trust-env-module must be MODULE:FACTORY (e.g. my_games.board:env), got {spec!r}")
    _trusted.add(spec)


_REGISTERED: dict[str, str] = {}
"""The PettingZoo ids of the registered games -> their envs' entry points (``"module:attribute"``)."""


def register_env_id(aec_id: str, entry_point: str) -> None:
    """Declare ``pettingzoo:aec_id`` a name of this package's registry, made by ``entry_point``
    (``"module:attribute"``); the registry of games calls it for each game it adds."""
    _REGISTERED[aec_id] = entry_point


def check_env_name(env: Any) -> str:
    """``env`` if it is a name of one of the forms of the module docstring; ValueError otherwise
    (imports only this package's registration table, never the named module)."""
    if not isinstance(env, str) or not env:
        raise ValueError(f"env must be a non-empty string naming an AEC env ({FORMS}), got {short_repr(env)}")
    if len(env) > MAX_NAME:
        raise ValueError(
            f"env {short_repr(env)} is not an AEC env name: a name has at most {MAX_NAME} characters"
        )
    if env.startswith(_REGISTRY_PREFIX):
        ids = _REGISTERED
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


MAX_OPTION_VALUES = 64
"""The most values ``env_options`` may hold (lists' items counted), at most `MAX_OPTION_NESTING` deep."""
MAX_OPTION_NESTING = 3
MAX_OPTION_TEXT = 1024
"""The most characters of text all of ``env_options``' strings may hold together."""


@dataclass(frozen=True)
class AecOptions:
    """An AEC env name (checked: `check_env_name`) and the keyword options its factory is called with.

    The options are small (`check_small`: a factory takes a few sizes and switches; the label, which
    game records and messages carry, stays short) and name no ``render_mode``: the adapter draws
    nothing, and a drawing env (a window per game in a batch) cannot be copied."""

    env: str
    env_options: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        check_env_name(self.env)
        if not isinstance(self.env_options, dict) or not all(isinstance(k, str) for k in self.env_options):
            raise ValueError(
                f"env_options must be a dict of keyword options, got {short_repr(self.env_options)}"
            )
        check_small(self.env_options)
        if self.env_options.get("render_mode") is not None:
            raise ValueError(
                f"env {self.env}: render_mode {short_repr(self.env_options['render_mode'])} is refused: the "
                f"adapter draws nothing (a batch would open a window per game, and a drawing env cannot be "
                f"copied); leave render_mode out"
            )
        object.__setattr__(self, "env_options", dict(self.env_options))

    @property
    def label(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in self.env_options.items())
        return f"{self.env}({options})"


def check_small(env_options: dict) -> None:
    """ValueError unless ``env_options`` holds at most `MAX_OPTION_VALUES` values nested at most
    `MAX_OPTION_NESTING` deep, `MAX_OPTION_TEXT` characters of text and no integer past 64 bits."""
    stack, count, text = [(value, 1) for value in env_options.values()], 0, 0
    while stack:
        value, depth = stack.pop()
        count += 1
        text += len(value) if isinstance(value, str) else 0
        too_big = isinstance(value, int) and abs(value).bit_length() > 64
        if count > MAX_OPTION_VALUES or depth > MAX_OPTION_NESTING or text > MAX_OPTION_TEXT or too_big:
            raise ValueError(
                f"env_options {short_repr(env_options)} are too large: an env's options are at most "
                f"{MAX_OPTION_VALUES} values nested {MAX_OPTION_NESTING} deep, {MAX_OPTION_TEXT} characters "
                f"of text, integers of 64 bits"
            )
        if isinstance(value, (list, tuple)):
            stack.extend((item, depth + 1) for item in value)
        elif isinstance(value, dict):
            stack.extend((item, depth + 1) for pair in value.items() for item in pair)


def own_env_names(definition) -> set[str]:
    """The names of the forms above that make ``definition``'s own env."""
    names = set()
    if definition.aec_id is not None:
        names.add(_REGISTRY_PREFIX + definition.aec_id)
    written = definition.ref("aec_env")  # as the definition names it, without importing the env
    if isinstance(written, str) and written.endswith(":env"):
        names.add(written.removesuffix(":env"))
    return names


def is_classic(env: str) -> bool:
    """Whether ``env`` names a module of PettingZoo's classic games (``pettingzoo.classic.NAME``)."""
    return env.startswith("pettingzoo.classic.") and bool(_ALLOWED_MODULE.fullmatch(env))


def import_factory(env: str):
    """The factory a checked name (`check_env_name`) stands for, imported; ValueError when it cannot be."""
    if env.startswith(_REGISTRY_PREFIX):
        target = _REGISTERED[env[len(_REGISTRY_PREFIX) :]]
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


def call_factory(options: AecOptions):
    """A new, not yet reset, env of ``options`` (ValueError naming the env when it cannot be made)."""
    factory = import_factory(options.env)
    try:
        return factory(**options.env_options)
    except TypeError as error:  # an unknown keyword: the factory's own words name it
        raise ValueError(f"env {options.label}: {error}") from None
