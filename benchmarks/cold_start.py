"""Cold and warm start: CPU seconds from a fresh Python process to the first Gym step and to the
end of the first update of a Hive training run, with an empty numba cache (cold) and a filled one.

    taskset -c 0 python -m benchmarks.cold_start [--repeats 3] [--json docs/results/cold_start.json]

numba compiles each kernel on its first call and caches the machine code (``cache=True``); a new
user's first run, or any run after an engine change, pays that compile. Each measurement runs in a
new subprocess (``python -m benchmarks.cold_start --child CASE``) whose ``NUMBA_CACHE_DIR`` is a new
empty folder (cold) or the folder a cold run has just filled (warm). The figure is the child's CPU
time (user + system, from its rusage: what it costs whatever the machine's load) and its wall time;
best of ``--repeats``, cold and warm taken in turns.

Cases:
- ``gym``: ``import hive_envs``, ``gym.make("hive_envs/Hive-v0")``, ``reset(seed=0)``, one ``step``;
- ``train``: ``training/ppo_selfplay.py``'s ``train`` with the ``hive_base`` config (the
  ``hive_lookahead`` network) for one update (``total_steps`` = one rollout), without evaluations,
  into a temporary runs folder; torch's import is included.

The results file is separate from ``docs/results/bench.json`` (a full suite run rewrites that one);
``python -m tools.render_docs`` renders it into docs/results.md.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone

from benchmarks import results as results_file

RESULTS = "docs/results/cold_start.json"
TRAIN_CONFIG = "hive_base"
CASES = {
    "gym": '`gym.make("hive_envs/Hive-v0")`, `reset(seed=0)`, one `step` (imports included)',
    "train": f"first update of `train` with the `{TRAIN_CONFIG}` config (its network; torch import included)",
}
TARGETS_CPU_S = {"gym": 8.0, "train": 30.0}


def run_gym() -> None:
    import gymnasium as gym
    import numpy as np

    import hive_envs  # noqa: F401 (registers the ids)

    env = gym.make("hive_envs/Hive-v0")
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))


def run_train() -> None:
    from hive_envs.training.config import load_config
    from hive_envs.training.ppo_selfplay import train

    base = load_config(TRAIN_CONFIG)
    with tempfile.TemporaryDirectory() as runs:
        config = load_config(
            TRAIN_CONFIG,
            {
                "runs_dir": runs,
                "total_steps": base.num_games * base.rollout_steps,
                "time_limit_minutes": 0.0,
                "eval_every": 0,
                "final_eval_games": 0,
            },
        )
        train(config)


CHILDREN = {"gym": run_gym, "train": run_train}


def measure(case: str, cache_dir: str) -> dict:
    """One fresh process running ``case`` with ``NUMBA_CACHE_DIR=cache_dir``: its CPU and wall seconds."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir, "PYTHONPATH": str(results_file.ROOT)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.cold_start", "--child", case],
        cwd=results_file.ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"cold-start case {case!r} failed:\n{done.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"cpu_s": cpu, "wall_s": wall}


def measure_case(case: str, repeats: int) -> dict:
    """Best of ``repeats`` cold runs (each with a new empty cache) and as many warm runs (the cache the
    cold run before filled)."""
    cold, warm = [], []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory(prefix="numba-cold-") as cache:
            cold.append(measure(case, cache))
            warm.append(measure(case, cache))
    best = {
        name: {"cpu_s": min(r["cpu_s"] for r in runs), "wall_s": min(r["wall_s"] for r in runs)}
        for name, runs in (("cold", cold), ("warm", warm))
    }
    return {
        "case": case,
        "what": CASES[case],
        "target_cold_cpu_s": TARGETS_CPU_S[case],
        **best,
        "runs": {"cold": cold, "warm": warm},
    }


def format_rows(rows: list[dict]) -> str:
    lines = [
        f"{'case':6} {'cold CPU s':>10} {'cold wall s':>11} {'warm CPU s':>10} {'warm wall s':>11}  target"
    ]
    for r in rows:
        lines.append(
            f"{r['case']:6} {r['cold']['cpu_s']:10.1f} {r['cold']['wall_s']:11.1f} {r['warm']['cpu_s']:10.1f} "
            f"{r['warm']['wall_s']:11.1f}  cold <= {r['target_cold_cpu_s']:g} CPU s"
        )
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="cold/warm pairs per case (best shown)")
    parser.add_argument("--cases", default=",".join(CASES), help=f"comma-separated, of {', '.join(CASES)}")
    parser.add_argument("--json", metavar="PATH", help=f"write the figures here (e.g. {RESULTS})")
    parser.add_argument("--child", choices=sorted(CHILDREN), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        CHILDREN[args.child]()
        return 0
    cases = [c for c in args.cases.split(",") if c]
    unknown = sorted(set(cases) - set(CASES))
    if unknown or args.repeats < 1:
        raise ValueError(
            f"--cases must name some of {sorted(CASES)} and --repeats be >= 1, got {args.cases!r}"
        )
    commit, dirty = results_file.git_commit()
    date = datetime.now(timezone.utc).isoformat(timespec="seconds")
    load_before = os.getloadavg()
    rows = [measure_case(case, args.repeats) for case in cases]
    print(format_rows(rows))
    if args.json:
        results_file.write(
            args.json,
            {
                "schema": results_file.SCHEMA,
                "command": "python -m benchmarks.cold_start "
                + " ".join(sys.argv[1:] if argv is None else argv),
                "date": date,
                "commit": commit,
                "dirty": dirty,
                "machine": results_file.machine(),
                "load_average": {"before": list(load_before), "after": list(os.getloadavg())},
                "versions": results_file.versions(),
                "repeats": args.repeats,
                "rows": rows,
            },
        )
        print(f"wrote {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
