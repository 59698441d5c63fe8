"""A training run's output folder, `<runs_dir>/<name>/`: one run per folder, never two mixed.

Starting a run where another one already wrote its outputs is refused unless the caller says
what it means: `resume` (continue that run) or `overwrite` (delete its outputs first). At every
start the temporary files a killed checkpoint write left in `checkpoints/` are deleted.

One process at a time: `run_lock` holds the file `<run folder>/.lock` (created exclusively, holding
the process id and host name) from the last check before the first write until the run ends. A
second run of the same folder is refused while the lock's process lives; a lock left by a process
of this host that no longer exists is stale and taken over. A lock written on another host cannot
be checked: it is refused, and the message says which file to delete if that run is over.

A start that fails (an error before the first update ends) is taken back: `folder_state` records the
folder before the run touches it, `undo_start` removes what the run added since (its new outputs, and
the checkpoints folder and run folder when it made them and they are empty), so that a failed start
never leaves a half-made run that refuses the next one.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from hive_envs.agents.checkpoint import remove_stale_temporaries

CHECKPOINTS = "checkpoints"
LOCK = ".lock"
#: what a training script writes directly in the run folder (besides `checkpoints/`)
RUN_FILES = ("events.out.tfevents.*", "final_eval.json", "progress.jsonl")


def run_outputs(run_dir: Path) -> list[Path]:
    """The outputs of an earlier run in `run_dir`: checkpoint files, TensorBoard logs, reports."""
    found = sorted((run_dir / CHECKPOINTS).glob("*.pt")) if (run_dir / CHECKPOINTS).is_dir() else []
    for pattern in RUN_FILES:
        found += sorted(run_dir.glob(pattern))
    return found


def check_run_dir(run_dir: Path, *, resume: bool, overwrite: bool) -> None:
    """Raise ValueError, changing nothing, unless a run may start in `run_dir` as asked."""
    if resume and overwrite:
        raise ValueError("--resume and --overwrite exclude each other: continue the run or replace it")
    if run_dir.exists() and not run_dir.is_dir():
        raise ValueError(f"run directory {str(run_dir)!r} is a file")
    outputs = run_outputs(run_dir) if run_dir.is_dir() else []
    if outputs and not (resume or overwrite):
        shown = ", ".join(str(p.relative_to(run_dir)) for p in outputs[:3]) + (
            ", ..." if len(outputs) > 3 else ""
        )
        raise ValueError(
            f"run directory {str(run_dir)!r} already holds a run ({shown}); continue it with --resume (its "
            f"time_limit_minutes counts the time it has trained already: raise it to train longer), "
            f"replace it with --overwrite (deletes its checkpoints and logs), or choose another --name"
        )


def prepare_run_dir(run_dir: Path, *, overwrite: bool) -> None:
    """Create `run_dir`; with `overwrite`, delete an earlier run's outputs first; always delete the
    stale temporary checkpoint files. Call after `check_run_dir` and every other check passed."""
    try:
        if overwrite:
            for path in run_outputs(run_dir):
                path.unlink()
            if (run_dir / CHECKPOINTS).is_dir():
                shutil.rmtree(run_dir / CHECKPOINTS)
        (run_dir / CHECKPOINTS).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"cannot prepare run directory {str(run_dir)!r}: {error}") from None
    remove_stale_temporaries(run_dir / CHECKPOINTS)


@dataclass(frozen=True)
class FolderState:
    """What a run folder held before a run touched it (`folder_state`)."""

    existed: bool
    checkpoints_existed: bool
    outputs: frozenset[Path]


def folder_state(run_dir: Path) -> FolderState:
    return FolderState(
        run_dir.is_dir(),
        (run_dir / CHECKPOINTS).is_dir(),
        frozenset(run_outputs(run_dir)) if run_dir.is_dir() else frozenset(),
    )


def undo_start(run_dir: Path, found: FolderState) -> None:
    """Remove what a run that failed to start added to `run_dir` since it was as `found`: outputs it
    wrote, and the checkpoints folder and run folder if it made them and they are empty."""
    for path in set(run_outputs(run_dir)) - found.outputs:
        with contextlib.suppress(OSError):
            path.unlink()
    with contextlib.suppress(OSError):
        remove_stale_temporaries(run_dir / CHECKPOINTS)
        if not found.checkpoints_existed:
            (run_dir / CHECKPOINTS).rmdir()  # only when empty
    with contextlib.suppress(OSError):
        if not found.existed:
            run_dir.rmdir()


@contextlib.contextmanager
def run_lock(run_dir: Path) -> Iterator[Path]:
    """Hold `run_dir`'s lock file (making the folder) while the block runs; ValueError, changing
    nothing, while another live process holds it. See the module docstring."""
    lock = run_dir / LOCK
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"cannot create run directory {str(run_dir)!r}: {error}") from None
    _acquire(lock)
    try:
        yield lock
    finally:
        lock.unlink(missing_ok=True)


def _acquire(lock: Path) -> None:
    me = f"{os.getpid()} {socket.gethostname()}"
    for _ in range(3):  # a stale lock is removed, then the exclusive create is tried again
        try:
            fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            holder = _holder(lock)
            if holder is None:  # the holder's process is gone: stale
                lock.unlink(missing_ok=True)
                continue
            raise ValueError(
                f"run directory {str(lock.parent)!r} is in use by {holder} (lock file {str(lock)!r}); "
                f"wait for that run to end, or choose another --name (delete the lock file only if no "
                f"such run is alive)"
            ) from None
        except OSError as error:
            raise ValueError(f"cannot lock run directory {str(lock.parent)!r}: {error}") from None
        with os.fdopen(fd, "w") as handle:
            handle.write(me + "\n")
        return
    raise ValueError(f"cannot lock run directory {str(lock.parent)!r}: its lock file keeps changing")


def _holder(lock: Path) -> str | None:
    """Who holds `lock`: a description, or None when it is stale (its process of this host is gone)."""
    try:
        pid_text, _, host = lock.read_text().strip().partition(" ")
    except FileNotFoundError:
        return None  # released meanwhile
    except OSError:
        return "another process"
    if not pid_text.isascii() or not pid_text.isdigit() or len(pid_text) > 10:
        return f"an unreadable lock ({str(lock)!r})"
    pid = int(pid_text)
    if host != socket.gethostname():
        return f"process {pid} on host {host!r}"
    if pid == os.getpid():
        return f"this process ({pid})"
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        pass  # alive, another user's
    return f"process {pid}"
