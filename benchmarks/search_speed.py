"""Nodes per CPU-second and the depth reached in a time limit, of two versions of the Hive
alpha-beta, interleaved position by position on the fixed positions of
``benchmarks/data/search_positions.txt`` (`benchmarks/search_positions.py`).

    python benchmarks/search_speed.py --baseline /path/to/old/checkout [--depth 3] [--time 1]

Each version runs in a process of its own (``python benchmarks/search_speed.py --worker`` with
``PYTHONPATH`` set to its checkout; the baseline's checkout needs no copy of this script): the
parent sends each position to one worker, then to the other, so both see the same machine load.
Per position and version: one search of ``--depth`` plies and one of ``--time`` seconds, each with
a fresh searcher (an empty transposition table). Printed per version: nodes per CPU-second at the
fixed depth (all positions' nodes over their CPU time) and in the timed search, the median and 10th
percentile of the depth reached in ``--time`` seconds, and the longest timed search's wall time.
The load average is printed: other processes on the machine lower every wall-clock figure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

DATA = Path(__file__).with_name("data") / "search_positions.txt"
ROOT = Path(__file__).resolve().parent.parent


def worker() -> int:
    """Answer each GameString line on stdin with a JSON line of measurements."""
    from hive_envs.hive import HiveAlphaBeta, HiveGame

    HiveAlphaBeta(depth=2).search(HiveGame("Base"))  # compile / load the kernels first
    print("ready", flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        game = HiveGame.from_gamestring(request["position"])
        row = {}
        for label, limits in (
            ("fixed", {"depth": request["depth"]}),
            ("timed", {"time_s": request["time_s"]}),
        ):
            searcher = HiveAlphaBeta(**limits)
            start, start_cpu = time.perf_counter(), time.process_time()
            result = searcher.search(game)
            row[label] = {
                "wall_s": time.perf_counter() - start,
                "cpu_s": time.process_time() - start_cpu,
                "nodes": result.nodes,
                "depth": result.depth_reached,
            }
        print(json.dumps(row), flush=True)
    return 0


def start_worker(checkout: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    process = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=checkout,
    )
    if process.stdout is None or process.stdout.readline().strip() != "ready":
        raise SystemExit(f"the search worker of {checkout} did not start")
    return process


def commit_of(checkout: Path) -> str:
    """The checkout's commit (``+dirty`` when it has uncommitted changes), or ``unknown``."""
    try:
        commit = subprocess.run(
            ["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(checkout), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return commit + ("+dirty" if dirty else "")


def summary(rows: list[dict]) -> dict:
    def rate(label):
        return sum(r[label]["nodes"] for r in rows) / max(sum(r[label]["cpu_s"] for r in rows), 1e-9)

    depths = np.array([r["timed"]["depth"] for r in rows])
    return {
        "fixed_nodes_per_cpu_s": rate("fixed"),
        "timed_nodes_per_cpu_s": rate("timed"),
        "timed_depth_median": float(np.median(depths)),
        "timed_depth_p10": float(np.percentile(depths, 10)),
        "timed_max_wall_s": max(r["timed"]["wall_s"] for r in rows),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", type=Path, help="a checkout of the version to compare with")
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--time", type=float, default=1.0, help="seconds of the timed search")
    parser.add_argument("--positions", type=int, default=0, help="use the first N positions (0: all)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker()
    if not 1 <= args.depth <= 12 or not 0 < args.time <= 60:
        parser.error("--depth must be in 1..12 and --time in (0, 60]")
    positions = DATA.read_text().split("\n")
    positions = [p for p in positions if p][: args.positions or None]
    versions = {"new": ROOT} | ({"baseline": args.baseline.resolve()} if args.baseline else {})
    workers = {name: start_worker(path) for name, path in versions.items()}
    rows: dict[str, list[dict]] = {name: [] for name in versions}
    load_before = os.getloadavg()
    for position in positions:
        request = json.dumps({"position": position, "depth": args.depth, "time_s": args.time})
        for name, process in workers.items():
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write(request + "\n")
            process.stdin.flush()
            rows[name].append(json.loads(process.stdout.readline()))
    for process in workers.values():
        process.communicate()
    report = {
        "positions": len(positions),
        "depth": args.depth,
        "time_s": args.time,
        "load_average": {"before": load_before, "after": os.getloadavg()},
        "command": "python benchmarks/search_speed.py "
        + " ".join(argv if argv is not None else sys.argv[1:]),
        "versions": {name: {"commit": commit_of(versions[name]), **summary(r)} for name, r in rows.items()},
    }
    print(f"{len(positions)} positions, depth {args.depth}, timed {args.time:g} s")
    print(f"{'version':<10} {'nodes/CPU-s d' + str(args.depth):>16} {'nodes/CPU-s timed':>18} "
          f"{'depth median':>13} {'depth p10':>10} {'max wall s':>11}")  # fmt: skip
    for name, s in report["versions"].items():
        print(f"{name:<10} {s['fixed_nodes_per_cpu_s']:>16,.0f} {s['timed_nodes_per_cpu_s']:>18,.0f} "
              f"{s['timed_depth_median']:>13g} {s['timed_depth_p10']:>10g} {s['timed_max_wall_s']:>11.3f}")  # fmt: skip
    if "baseline" in report["versions"]:
        ratio = (
            report["versions"]["new"]["fixed_nodes_per_cpu_s"]
            / report["versions"]["baseline"]["fixed_nodes_per_cpu_s"]
        )
        print(f"nodes/CPU-s ratio new/baseline at depth {args.depth}: {ratio:.2f}")
    print(f"load average {load_before[0]:.2f} before, {os.getloadavg()[0]:.2f} after")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
