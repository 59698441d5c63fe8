"""What the terminal front ends (`python -m hive_envs.uhp`, `python -m hive_envs.play`) share: they
end quietly when the user presses Ctrl-C (exit code 130, as shells report SIGINT) or when whoever
reads their output goes away (a UHP viewer that quits, ``| head``: exit code 0), never with a
traceback."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TextIO

INTERRUPTED = 130


def run_quietly(body: Callable[[], int], stdout: TextIO) -> int:
    """``body()``'s exit code; `INTERRUPTED` on Ctrl-C, 0 once ``stdout``'s reader is gone."""
    try:
        return body()
    except KeyboardInterrupt:
        return INTERRUPTED
    except BrokenPipeError:
        discard_output(stdout)
        return 0


def discard_output(stdout: TextIO) -> None:
    """Point ``stdout``'s file descriptor at /dev/null, so that the interpreter's final flush of the
    buffered text does not report the broken pipe a second time."""
    try:
        fd = stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)
