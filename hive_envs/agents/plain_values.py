"""The structure a checkpoint holds, bounded before anything walks it.

A checkpoint holds tensors and plain values (dict, list, tuple, str, int, float, bool, None), and its
pickle may let one value appear in many places: a list of nine references to a list of nine
references to ... takes a few bytes per level in the file and 9**depth values to anyone who walks it
(a checksum over the values, a check of every weight, a message quoting it). `check_plain` walks the
structure once, iteratively, counting every place a value appears, and stops at the first of these
ceilings:

- `MAX_VALUES` values in all (a checkpoint of this package holds a few hundred to a few thousand:
  weights, optimizer state, opponent pool, config);
- `MAX_DEPTH` levels of nesting (ours: 7);
- ``max_bytes`` of data (string characters, tensor bytes, integer bytes), counted at each place it
  appears: on load, twice the file's size plus 1 MiB (`byte_budget`), as a file that shares nothing
  holds each of them once.

Its cost is bounded by `MAX_VALUES`; every later walk (the format-2 checksum, the weight checks) is
then bounded by the same ceilings. Anything but those types is refused, naming its place.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import torch

from hive_envs.core.short_repr import short_repr

MAX_VALUES = 100_000
MAX_DEPTH = 32
PLAIN_TYPES = "tensors, dict, list, tuple, str, int, float, bool and None"
_SCALARS = (bool, int, float, str, type(None))


def byte_budget(file_size: int) -> int:
    """The data a checkpoint file of ``file_size`` bytes may hold when walked: twice its size + 1 MiB."""
    return 2 * file_size + (1 << 20)


def check_plain(value: Any, where: str, max_bytes: int | None = None) -> int:
    """ValueError naming the place (``where`` is the root's name) of the first value that is not a
    tensor or plain value, or of the value past a ceiling of the module docstring; returns the bytes of
    data walked (``max_bytes`` None: no byte ceiling)."""
    stack: list[tuple[Any, int, tuple | None]] = [(value, 1, None)]  # value, depth, (parent, how, key)
    count = walked = 0
    while stack:
        item, depth, place = stack.pop()
        count += 1
        if count > MAX_VALUES:
            raise ValueError(
                f"{where} holds more than {MAX_VALUES} values (each place a shared value appears counted)"
            )
        if depth > MAX_DEPTH:
            raise ValueError(f"{_path(where, place)} is nested more than {MAX_DEPTH} levels deep")
        kind = type(item)
        if kind in _SCALARS:
            walked += len(item) if kind is str else item.bit_length() // 8 if kind is int else 8
        elif kind in (torch.Tensor, torch.nn.Parameter) and item.layout == torch.strided:
            walked += item.numel() * item.element_size()
        elif kind in (list, tuple):
            stack.extend((child, depth + 1, (place, "item", i)) for i, child in enumerate(item))
        elif kind in (dict, OrderedDict):
            for key, child in item.items():
                stack.append((key, depth + 1, (place, "key", key)))
                stack.append((child, depth + 1, (place, "item", key)))
            metadata = getattr(item, "_metadata", None)  # torch state dicts carry module versions here
            if metadata is not None:
                stack.append((metadata, depth + 1, (place, "metadata", None)))
        else:
            raise ValueError(
                f"{_path(where, place)} is a {kind.__module__}.{kind.__qualname__}; a checkpoint holds only "
                f"{PLAIN_TYPES}"
            )
        if max_bytes is not None and walked > max_bytes:
            raise ValueError(
                f"{where} holds more than {max_bytes} bytes of data (each place a shared value appears "
                f"counted; a file that shares nothing holds at most its own size)"
            )
    return walked


def _path(where: str, place: tuple | None) -> str:
    """``where['key'][0]...`` of a place (its keys shown briefly)."""
    steps = []
    while place is not None:
        place, how, key = place
        shown = short_repr(key, 60)
        steps.append({"item": f"[{shown}]", "key": f" key {shown}", "metadata": "._metadata"}[how])
    return where + "".join(reversed(steps))
