"""The YAML-key machinery of a config dataclass: types, allowed values, unknown keys, loading, help.

Serves `TrainConfig` (hive_envs/training/config.py) and `RLlibConfig` (hive_envs/training/rllib/config.py). Each
dataclass field, declared with `key(default, doc, allowed)`, is a YAML key; its metadata holds
`doc` (its meaning, printed by `--help`) and optionally `allowed`, a `Rule` its value (each
item, for a list) must satisfy. The dataclass's
`__post_init__` calls `check_fields(self)`, so a config is valid however it was built, then
checks the rules that tie several keys together with `reject`. Every error is a ValueError
naming the key, the value and what is allowed.

Why not pydantic: its field constraints would replace only the type and range checks (~30
lines here); the YAML file, `--key value` parsing, the did-you-mean hint, the `--help` listing,
the cross-key rules and our one-line message format would stay ours, and `train` would gain a
compiled dependency (today pydantic comes only with Ray).

A config file is data from anyone (docs/safety.md): it is read only up to `MAX_CONFIG_BYTES`, by a YAML
loader that builds plain values and refuses aliases (`read_yaml`), and every message quotes a value
at a bounded length (`short_repr`).
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
import math
import typing
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

import yaml

from hive_envs.configs import config_path
from hive_envs.core.short_repr import short_repr

MAX_CONFIG_BYTES = 1 << 20
"""The largest config file read (1 MiB; a training config is a few KB)."""


class _NoAliasLoader(yaml.SafeLoader):
    """`yaml.SafeLoader` that refuses an alias (``*name``), where it would repeat an anchored value:
    nested aliases make a few hundred bytes stand for billions of values ("billion laughs"), and a
    config has no need of them. Refused while the document is composed, before any value is built."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            problem = f"found the alias *{event.anchor[:40]}; a config file repeats no value by alias"
            raise yaml.composer.ComposerError(None, None, problem, event.start_mark)
        return super().compose_node(parent, index)


def read_yaml(text: str) -> Any:
    """The plain values of the YAML document ``text`` (dicts, lists, str, int, float, bool, None,
    dates); `yaml.YAMLError` for an alias or bad syntax, ValueError for an integer Python will not
    read (over 4,300 digits)."""
    return yaml.load(text, Loader=_NoAliasLoader)


def yaml_problem(error: yaml.YAMLError) -> str:
    """A YAML error in one line: what is wrong and where (PyYAML's own text quotes the lines around)."""
    if isinstance(error, yaml.MarkedYAMLError):
        mark = error.problem_mark or error.context_mark
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        return ": ".join(str(part) for part in (error.context, error.problem) if part) + where
    return " ".join(str(error).split())[:200]


@dataclass(frozen=True)
class Rule:
    """Allowed values of a key: `text` says which (in messages and --help), `test` checks one."""

    text: str
    test: Callable[[Any], bool]

    def __contains__(self, value: Any) -> bool:
        return bool(self.test(value))

    def __str__(self) -> str:
        return self.text


def key(default: Any, doc: str, allowed: Rule | None = None) -> Any:
    """A config field: its default (a list or dict default is copied for each config), its
    meaning `doc`, and the `allowed` rule of its values (of each item, for a list)."""
    metadata = {"doc": doc} if allowed is None else {"doc": doc, "allowed": allowed}
    if isinstance(default, (list, dict)):
        return dataclasses.field(default_factory=lambda: copy.deepcopy(default), metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


def at_least(low: float) -> Rule:
    return Rule(f">= {low}", lambda value: value >= low)


def above(low: float) -> Rule:
    return Rule(f"> {low}", lambda value: value > low)


def between(low: float, high: float, high_open: bool = False) -> Rule:
    if high_open:
        return Rule(f"{low} <= value < {high}", lambda value: low <= value < high)
    return Rule(f"{low} <= value <= {high}", lambda value: low <= value <= high)


def zero_or_at_least(low: int) -> Rule:
    return Rule(f"0 or >= {low}", lambda value: value == 0 or value >= low)


def one_of(*values: Any) -> Rule:
    return Rule(", ".join(map(repr, values)), lambda value: value in values)


SEED = between(0, 2**32 - 1)  # numpy's seed range
NOT_EMPTY = Rule("not empty", lambda value: value != "")
FOLDER_NAME = Rule(
    "a folder name (not empty, '.' or '..', no '/' or '\\')",
    lambda value: value not in ("", ".", "..") and not any(c in value for c in "/\\"),
)


def reject(config: Any, key: str, value: Any, allowed: str) -> typing.NoReturn:
    """Raise the ValueError for `value` of `key` in `config`: what is allowed, the key's doc."""
    doc = next(f for f in dataclasses.fields(config) if f.name == key).metadata["doc"]
    raise ValueError(
        f"config key {key!r} has an invalid value {short_repr(value)}; allowed: {allowed} ({doc})"
    )


def type_name(expected: Any) -> str:
    return str(expected) if typing.get_origin(expected) else expected.__name__


def _is_of_type(value: Any, expected: Any) -> bool:
    """YAML-strict: a bool is not a number, an int is a float, a list[int] holds ints."""
    if typing.get_origin(expected) is list:
        (item,) = typing.get_args(expected)
        return isinstance(value, list) and all(_is_of_type(v, item) for v in value)
    if expected is bool:
        return isinstance(value, bool)
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if expected is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, expected)


def _is_finite_float(value: float) -> bool:
    """A number that is a finite float (an int past the float range is not)."""
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def check_fields(config: Any) -> None:
    """Check every field of `config` against its type and `allowed` rule (ints become floats for
    float keys); raise ValueError for the first that fails."""
    types = typing.get_type_hints(type(config))
    for f in dataclasses.fields(config):
        value, expected = getattr(config, f.name), types[f.name]
        if not _is_of_type(value, expected):
            raise ValueError(
                f"config key {f.name!r} must be of type {type_name(expected)}, "
                f"got {short_repr(value)} ({type(value).__name__})"
            )
        if expected is float:
            if not _is_finite_float(value):
                reject(config, f.name, value, "a finite number")
            setattr(config, f.name, float(value))
        allowed = f.metadata.get("allowed")
        if allowed is None:
            continue
        if typing.get_origin(expected) is list:
            if not all(item in allowed for item in value):
                reject(config, f.name, value, f"each {allowed}")
        elif value not in allowed:
            reject(config, f.name, value, str(allowed))


class KeyedConfig:
    """Base of a config dataclass: its keys as a dict (what checkpoints and run folders record)."""

    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]  # set by @dataclass on a subclass

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


C = TypeVar("C", bound=KeyedConfig)


class ConfigKeys(Generic[C]):
    """Unknown-key messages, loading from YAML plus overrides, and the --help listing of one
    config dataclass. A config module offers them as its functions:

        KEYS = ConfigKeys(TrainConfig, legacy=...)
        config_from_dict, load_config, describe_keys = KEYS.from_dict, KEYS.load, KEYS.describe

    ``legacy``: a function that rewrites the keys of earlier versions in a dict of keys (warning),
    run before the keys are checked; ``more_help``: a function whose text the --help listing ends
    with, after a blank line."""

    def __init__(
        self,
        cls: type[C],
        legacy: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
        more_help: Callable[[], str] | None = None,
    ) -> None:
        self.cls = cls
        self.legacy = legacy
        self.more_help = more_help
        self.fields = {f.name: f for f in dataclasses.fields(cls)}
        self.types = typing.get_type_hints(cls)

    def from_dict(self, values: dict[str, Any]) -> C:
        """Build a config from a dict of YAML keys; unknown keys and bad values raise ValueError."""
        if not isinstance(values, dict):
            raise ValueError(f"a config must be a mapping of keys to values, got {type(values).__name__}")
        if self.legacy is not None:
            values = self.legacy(values)
        unknown = [key for key in values if key not in self.fields]
        if unknown:
            key = unknown[0]
            close = difflib.get_close_matches(short_repr(key), self.fields, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ValueError(
                f"unknown config key {short_repr(key)}{hint}; known keys: {', '.join(self.fields)}"
            )
        return self.cls(**values)

    def load(self, path: str | Path | None, overrides: dict[str, Any] | None = None) -> C:
        """The YAML file at `path` (if any; a file or the name of a config of the package,
        `hive_envs.configs.config_path`) with `overrides` on top, as a checked config."""
        values: dict[str, Any] = {}
        if path is not None:
            path = config_path(path)
            size = path.stat().st_size
            if size > MAX_CONFIG_BYTES:
                raise ValueError(
                    f"config file {str(path)!r} has {size} bytes; a config file is read only up to "
                    f"{MAX_CONFIG_BYTES} bytes (1 MiB)"
                )
            try:
                loaded = read_yaml(path.read_text(encoding="utf-8"))
            except UnicodeDecodeError as error:
                raise ValueError(
                    f"config file {str(path)!r} is not UTF-8 text (a YAML file): {error}"
                ) from None
            except yaml.YAMLError as error:
                raise ValueError(
                    f"config file {str(path)!r} is not valid YAML: {yaml_problem(error)}"
                ) from None
            except ValueError as error:  # an integer of over 4,300 digits
                raise ValueError(f"config file {str(path)!r} cannot be read: {error}") from None
            if loaded is not None and not isinstance(loaded, dict):
                raise ValueError(f"config file {str(path)!r} must hold a mapping of keys to values")
            values.update(loaded or {})
        values.update(overrides or {})
        return self.from_dict(values)

    def describe(self) -> str:
        """One line per key: name, type, default, allowed values, doc (for --help); then ``more_help``."""
        lines = []
        for name, f in self.fields.items():
            default = f.default if f.default_factory is dataclasses.MISSING else f.default_factory()
            allowed = f.metadata.get("allowed")
            if allowed is not None and typing.get_origin(self.types[name]) is list:
                allowed = f"each {allowed}"
            rule = "" if allowed is None else f", allowed {allowed}"
            lines.append(
                f"  {name} ({type_name(self.types[name])}, default {default!r}{rule}): {f.metadata['doc']}"
            )
        if self.more_help is not None:
            lines += ["", self.more_help()]
        return "\n".join(lines)


def parse_overrides(args: list[str]) -> dict[str, Any]:
    """`['--key', 'value', ...]` -> {key: value}, each value parsed as YAML (so 3 is an int)."""
    overrides: dict[str, Any] = {}
    i = 0
    while i < len(args):
        arg = args[i]
        if not arg.startswith("--") or i + 1 >= len(args):
            raise ValueError(f"expected '--key value' pairs, got {' '.join(args[i:])!r}")
        key = arg[2:].replace("-", "_")
        try:
            overrides[key] = read_yaml(args[i + 1])
        except yaml.YAMLError as error:
            raise ValueError(f"cannot parse the value of --{key}: {yaml_problem(error)}") from None
        except ValueError as error:  # an integer of over 4,300 digits
            raise ValueError(f"cannot parse the value of --{key}: {error}") from None
        i += 2
    return overrides
