"""Pieces the command lines of the evaluation tools and the trainers share: the exit code of a
command whose input was bad, and the ``--trust-env-module`` flag."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable


def exit_code(action: Callable[[], object]) -> int:
    """Run `action`: 0 when it returns, 2 with `error: ...` on stderr when it raises ValueError."""
    try:
        action()
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


def add_trust_env_module(parser: argparse.ArgumentParser) -> None:
    """The ``--trust-env-module MODULE:FACTORY`` flag: the one way to let an AEC env outside
    pettingzoo.classic and hive_envs be imported (`hive_envs.core.aec_source`); see `trust_env_modules`."""
    parser.add_argument(
        "--trust-env-module",
        action="append",
        default=[],
        metavar="MODULE:FACTORY",
        help="allow the AEC env MODULE:FACTORY (a config, checkpoint or --env naming it) to be imported",
    )


def trust_env_modules(specs: list[str]) -> None:
    """Trust the ``--trust-env-module`` values given (ValueError for one that is not MODULE:FACTORY)."""
    from hive_envs.core.aec_source import trust_env_module

    for spec in specs:
        trust_env_module(spec)
