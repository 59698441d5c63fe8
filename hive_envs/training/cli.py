"""Pieces of the trainers' command lines: ``--config`` with the config keys listed, ``--resume`` and ``--overwrite``."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from hive_envs.evaluation.cli import exit_code
from hive_envs.training.config_keys import parse_overrides

#: the ``--config`` help of the trainers (`hive_envs.configs.config_path` resolves the value)
CONFIG_HELP = (
    "a YAML file of config keys, or the name of one of the package's configs: quickstart, hoyito_2x6, "
    "hive_base, ..., experiments/NAME (the table: hive_envs/configs/README.md)"
)


def config_parser(
    prog: str, description: str | None, keys_help: str, config_help: str
) -> argparse.ArgumentParser:
    """A parser for the command `prog` with `--config`, its epilog listing the config keys (also
    accepted as --key value)."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="config keys (also accepted as --key value):\n" + keys_help,
    )
    parser.add_argument("--config", help=config_help)
    return parser


def add_run_flags(parser: argparse.ArgumentParser) -> None:
    """A trainer's ``--resume`` and ``--overwrite`` (`run.TrainingRun` refuses a run folder that holds a
    run without one of them)."""
    parser.add_argument("--resume", action="store_true", help="continue runs/<name>/checkpoints/latest.pt")
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="replace the run in runs/<name>/ (its checkpoints and logs are deleted first)",
    )


def train_main(
    argv: list[str] | None,
    prog: str,
    description: str | None,
    keys_help: str,
    load_config: Callable[[str | None, dict[str, Any]], Any],
    train: Callable[..., object],
) -> int:
    """A trainer's whole command line: ``--config`` plus ``--key value`` overrides read by
    ``load_config``, ``--resume`` and ``--overwrite`` passed to ``train``; the exit code of
    `exit_code` (2 with one line for a ValueError)."""
    parser = config_parser(prog, description, keys_help, CONFIG_HELP)
    add_run_flags(parser)
    args, rest = parser.parse_known_args(argv)
    return exit_code(
        lambda: train(
            load_config(args.config, parse_overrides(rest)), resume=args.resume, overwrite=args.overwrite
        )
    )
