"""The package's optional parts (pyproject's extras) and the one line a command prints when one is missing.

`pip install hive_envs` brings the envs, engines and players; training needs the ``train`` extra
(torch, ...), the web page the ``web`` extra (flask), RLlib the ``rllib`` extra. A command that needs
one the installation lacks ends with one line naming it, not a traceback:

    error: torch is not installed; it comes with the train extra: pip install 'hive_envs[train]'

`command` does so for the console scripts (`hive_envs.commands`), `script_imports` for a module run
with ``python -m`` whose own imports need an extra. Imported as a library, such a module raises
`MissingExtra` (a ModuleNotFoundError) with the same message.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Callable, Iterator
from typing import TypeVar

#: the top-level module of each third-party package an extra brings -> that extra
EXTRA_OF = {
    "torch": "train",
    "yaml": "train",
    "tensorboard": "train",
    "tqdm": "train",
    "matplotlib": "train",
    "flask": "web",
    "werkzeug": "web",
    "ray": "rllib",
}

F = TypeVar("F", bound=Callable[..., int])


class MissingExtra(ModuleNotFoundError):
    """A package of one of hive_envs' extras is not installed; the message names the extra."""


def missing_extra(error: ModuleNotFoundError) -> MissingExtra | None:
    """`error` as a MissingExtra when the missing module comes with an extra, else None."""
    if isinstance(error, MissingExtra):
        return error
    top = (error.name or "").partition(".")[0]
    extra = EXTRA_OF.get(top)
    if extra is None:
        return None
    return MissingExtra(
        f"{top} is not installed; it comes with the {extra} extra: pip install 'hive_envs[{extra}]'",
        name=error.name,
    )


@contextlib.contextmanager
def script_imports(module_name: str) -> Iterator[None]:
    """Around a module's imports: a missing extra's package raises `MissingExtra`, or, when the module
    runs as a script (``module_name`` is ``"__main__"``), ends the process with its one line."""
    try:
        yield
    except ModuleNotFoundError as error:
        missing = missing_extra(error)
        if missing is None:
            raise
        if module_name == "__main__":
            sys.exit(f"error: {missing}")
        raise missing from None


def command(main: F) -> F:
    """A command's ``main(argv)`` that prints a missing extra's one line on stderr and returns 1,
    wherever in the command the extra's package is first imported."""

    @functools.wraps(main)
    def run(*args, **kwargs) -> int:
        try:
            return main(*args, **kwargs)
        except ModuleNotFoundError as error:
            missing = missing_extra(error)
            if missing is None:
                raise
            print(f"error: {missing}", file=sys.stderr)
            return 1

    return run  # type: ignore[return-value]
