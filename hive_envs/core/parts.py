"""Record fields that name code: the object itself, or a ``"module:attribute"`` text imported on first read.

`Part` is such a field of a frozen dataclass (`hive_envs.core.definition.GameDefinition` and its
sub-records, `hive_envs.core.network_kind.NetworkKind`), as Gymnasium's entry points are: a record in a
low layer names code of a higher one (a game's envs, drawing, networks) without importing it, and a
text is written in code, never read from a file. `load` resolves one such value; `check_names` is the
option-name check the records' option dicts share.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence
from typing import Any, Generic, TypeVar


def check_names(owner: str, options, known: Sequence[str]) -> None:
    """ValueError unless ``options`` is a dict whose keys are all in ``known``, naming ``owner``, the
    unknown keys and the known ones."""
    if not isinstance(options, dict):
        raise ValueError(f"{owner} options must be a dict, got {options!r}")
    unknown = sorted(repr(key) for key in options if key not in known)
    if unknown:
        raise ValueError(f"{owner} has no option {', '.join(unknown)}; its options are {', '.join(known)}")


_REF = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")
_REQUIRED: Any = object()
T = TypeVar("T")


def load(ref: Any) -> Any:
    """The object a part names: itself, or the attribute of a ``"module:attribute"`` text (a dotted
    attribute path such as ``"module:Class.method"`` too)."""
    if not isinstance(ref, str):
        return ref
    module_name, _, path = ref.partition(":")
    value = importlib.import_module(module_name)
    for attribute in path.split("."):
        value = getattr(value, attribute)
    return value


class Part(Generic[T]):
    """A field of a record (a `GameDefinition`, its sub-records, a `NetworkKind`) that takes the object
    itself or a ``"module:attribute"`` text and gives the object: a text is imported on the first read
    and the object kept. A text that is not of that form raises ValueError when the record is made."""

    def __init__(self, default: Any = _REQUIRED) -> None:
        self.default = default

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, definition: Any, owner: type | None = None) -> T:
        if definition is None:  # the class's default, which dataclasses reads: none for a required part
            if self.default is _REQUIRED:
                raise AttributeError(f"the part {self.name!r} has no default")
            return self.default
        loaded = definition.__dict__.setdefault("_loaded_parts", {})
        if self.name not in loaded:
            loaded[self.name] = load(definition.__dict__[self.name])
        return loaded[self.name]

    def __set__(self, definition: Any, value: T | str) -> None:
        if isinstance(value, str) and not _REF.fullmatch(value):
            raise ValueError(f"{self.name} must be an object or a 'module:attribute' text, got {value!r}")
        definition.__dict__[self.name] = value
        definition.__dict__.get("_loaded_parts", {}).pop(self.name, None)
