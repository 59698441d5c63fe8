"""A training run's output folder, `<runs_dir>/<name>/`: one run per folder, never two mixed.

Starting a run where another one already wrote its outputs is refused unless the caller says
what it means: `resume` (continue that run) or `overwrite` (delete its outputs first). At every
start the temporary files a killed checkpoint write left in `checkpoints/` are deleted.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from hive_envs.agents.checkpoint import remove_stale_temporaries

CHECKPOINTS = "checkpoints"
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
            f"run directory {str(run_dir)!r} already holds a run ({shown}); continue it with --resume, "
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
