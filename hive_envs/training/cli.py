"""Pieces shared by the command lines of training/: config-key parsers, exit codes, JSON reports."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from hive_envs.training import results_files

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


def exit_code(action: Callable[[], object]) -> int:
    """Run `action`: 0 when it returns, 2 with `error: ...` on stderr when it raises ValueError."""
    try:
        action()
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


def write_report(path: str | Path, report: dict) -> None:
    """Write `report` as indented JSON (making the folder again if it vanished) and say where; a report
    that holds games is written as its summary at `path` and its records file beside it
    (`results_files`: ``records/NAME.json.gz``). If a file cannot be written any more (`path` is
    checked at the start, but the folder may have become a file or read-only since), it is saved to
    a new file in the temporary folder instead and a ValueError names both, so that a long run's
    results are never lost."""
    summary, records = results_files.split(report, path)
    files = [(Path(path), json.dumps(summary, indent=2).encode(), ".json")]
    if records is not None:
        files.append((results_files.records_path(path), records, ".json.gz"))
    rescued = [message for message in (_write_or_rescue(*file) for file in files) if message]
    if rescued:
        raise ValueError("; ".join(rescued))
    print(f"\nwrote {path}" + (f" and its games, {files[1][0]}" if records else ""))


def _write_or_rescue(path: Path, data: bytes, suffix: str) -> str | None:
    """Write ``data`` at ``path``; if that fails, to a new temporary file, and say so (else None)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    except OSError as error:
        handle, saved = tempfile.mkstemp(prefix=f"{path.name.split('.')[0]}.", suffix=suffix)
        with os.fdopen(handle, "wb") as rescue:
            rescue.write(data)
        return (
            f"cannot write the report to {str(path)!r} ({error.strerror or error}); it was saved to {saved!r}"
        )
    return None


def check_writable(path: str | Path, flag: str) -> None:
    """ValueError naming ``flag`` unless a file can be written at ``path`` (its folder is made if
    missing): checked before a long run, so that hours of games are not lost to a typo."""
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"{flag} {str(path)!r} is a folder; give a file path")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        existed = path.exists()
        with open(path, "a"):
            pass
        if not existed:
            path.unlink()
    except OSError as error:
        raise ValueError(f"{flag} {str(path)!r} cannot be written: {error.strerror or error}") from None


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
