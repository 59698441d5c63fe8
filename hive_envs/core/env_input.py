"""Checks of the envs' own arguments: the learner seat and the options of ``reset``.

- `check_learner_seat`: 0, 1 (a Python or numpy integer) or ``"random"``; a bool or a float is
  refused, never read as a seat.
- `check_reset_options`: ``reset(options=...)`` takes None or a dict whose keys the env supports
  (``RESET_OPTIONS`` of the env class: Hive's AEC and Gym envs take ``"gamestring"``; the Hoyito envs
  and the vector envs take none). A key that is a near miss of a supported one (``"gamestrng"``,
  ``"GameString"``) raises ValueError naming it and the supported keys, state unchanged. Any other
  unknown key is ignored with a warning, not an error: PettingZoo's own ``api_test`` calls
  ``reset(options={"options": 1})`` on every env to check that ``reset`` takes the argument.
"""

from __future__ import annotations

import difflib
import warnings
from collections.abc import Mapping

from hive_envs.core.game import as_integer

LEARNER_SEATS = "0, 1 or 'random'"


def check_learner_seat(value) -> int | str:
    """``value`` as 0, 1 or "random"; ValueError otherwise (a bool or float is no seat)."""
    if isinstance(value, str) and value == "random":
        return value
    seat = as_integer(value)
    if seat not in (0, 1):
        raise ValueError(f"learner_seat must be {LEARNER_SEATS}, got {value!r}")
    return seat


def check_reset_options(options, supported: tuple[str, ...], env_name: str) -> dict:
    """``options`` of ``reset`` as a dict (see the module docstring for what is refused)."""
    if options is None:
        return {}
    listed = ", ".join(repr(key) for key in supported) or "none"
    if not isinstance(options, Mapping):
        raise ValueError(f"{env_name}: reset options must be a dict (keys: {listed}), got {options!r}")
    unknown = [key for key in options if key not in supported]
    for key in unknown:
        near = difflib.get_close_matches(key.lower(), supported, n=1) if isinstance(key, str) else []
        if near:
            raise ValueError(
                f"{env_name}: unknown reset option {key!r} (did you mean {near[0]!r}?); "
                f"its reset options are: {listed}"
            )
    if unknown:
        warnings.warn(
            f"{env_name}: reset options {unknown} are not used; its reset options are: {listed}",
            UserWarning,
            stacklevel=3,
        )
    return dict(options)
