"""Wall and CPU time of the rule features' searches on one thread and on several, interleaved in one
process: Hive's deeper searched value (`HiveRuleFeatures.from_states`, ``search_depth`` 3) and Hoyito's
feature set 2 (`HoyitoRuleFeatures`, a 7-ply search after each move, the `hoyito_2x6` config's).

    python -m benchmarks.feature_threads [--hive-positions 96] [--hoyito-rows 512] [--rounds 3]
                                         [--threads N] [--json PATH]

Positions: seeded Base games after 4 to 50 uniformly random plies (`bench_expert_scores.positions`,
Base only: the shipped searched network's game); Hoyito 2x6 rows of a seeded batch after 30 random
plies. Each round times one thread, then ``--threads`` (default: numba's thread count), on the same
rows; the best round of each is printed with the ratio, and whether both gave the same arrays. The
load average is printed: threads measure nothing on a machine whose cores are busy.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numba
import numpy as np

from benchmarks import bench_expert_scores
from benchmarks import results as results_file
from hive_envs.hive.agent.features import HiveRuleFeatures
from hive_envs.hoyito import HoyitoBatch
from hive_envs.hoyito.agent.features import HoyitoRuleFeatures

HIVE_DEPTH = 3
HOYITO_DEPTH = 7


def hoyito_observations(rows: int, seed: int) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """Observations of a seeded 2x6 batch after 30 uniformly random plies, and its rules."""
    batch = HoyitoBatch(rows, holes_per_row=6)
    batch.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(30):
        batch.step((rng.random(batch.action_mask.shape) * batch.action_mask).argmax(axis=1))
    o = batch.options
    return batch.observation.copy(), (o.holes_per_row, o.seeds_per_hole, o.max_laps, o.no_capture_limit)


def timed(call: Callable[[], object]) -> tuple[float, float, object]:
    wall, cpu = time.perf_counter(), time.process_time()
    out = call()
    return time.perf_counter() - wall, time.process_time() - cpu, out


def compare(name: str, rows: int, calls: dict[int, Callable[[], object]], rounds: int) -> dict:
    """Best wall and CPU seconds of each thread count over ``rounds`` interleaved rounds."""
    for call in calls.values():
        call()  # compiled and warm
    best: dict[int, tuple[float, float]] = {}
    outputs: dict[int, object] = {}
    for _ in range(rounds):
        for threads, call in calls.items():
            wall, cpu, outputs[threads] = timed(call)
            if threads not in best or wall < best[threads][0]:
                best[threads] = (wall, cpu)
    one, many = sorted(calls)
    same = all(np.array_equal(a, b) for a, b in zip(_arrays(outputs[one]), _arrays(outputs[many])))
    return {
        "features": name,
        "rows": rows,
        "threads": {str(t): {"wall_s": best[t][0], "cpu_s": best[t][1]} for t in calls},
        "wall_ratio": best[one][0] / best[many][0],
        "same_arrays": same,
    }


def _arrays(output: object) -> list[np.ndarray]:
    return list(output) if isinstance(output, tuple) else [np.asarray(output)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hive-positions", type=int, default=96)
    parser.add_argument("--hoyito-rows", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=numba.get_num_threads())
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", metavar="PATH", help="also write the figures and their provenance here")
    args = parser.parse_args(argv)
    if args.threads < 2 or args.rounds < 1 or args.hive_positions < 1 or args.hoyito_rows < 1:
        parser.error("--threads must be at least 2; --rounds, --hive-positions and --hoyito-rows at least 1")
    load = os.getloadavg()
    counts = (1, args.threads)
    games = bench_expert_scores.positions(2 * args.hive_positions, args.seed)
    states = np.stack([game.state for game in games if game.game_type == "Base"][: args.hive_positions])
    hive = {
        t: HiveRuleFeatures("", True, 300, feature_set=2, search_depth=HIVE_DEPTH, threads=t) for t in counts
    }
    observations, rules = hoyito_observations(args.hoyito_rows, args.seed)
    hoyito = {
        t: HoyitoRuleFeatures(*rules, feature_set=2, search_depth=HOYITO_DEPTH, threads=t) for t in counts
    }
    rows = [
        compare(
            f"Hive, searched value depth {HIVE_DEPTH}",
            len(states),
            {t: (lambda f=f: f.from_states(states)) for t, f in hive.items()},
            args.rounds,
        ),
        compare(
            f"Hoyito 2x6, feature set 2 depth {HOYITO_DEPTH}",
            len(observations),
            {t: (lambda f=f: f(observations)) for t, f in hoyito.items()},
            args.rounds,
        ),
    ]
    print(f"best of {args.rounds} interleaved rounds; load average (1 min) {load[0]:.2f} before")
    for row in rows:
        figures = ", ".join(
            f"{t} thread{'s' if t != '1' else ''}: {v['wall_s']:.3f} s wall, {v['cpu_s']:.3f} s CPU"
            for t, v in row["threads"].items()
        )
        print(
            f"  {row['features']} ({row['rows']} rows): {figures}; {row['wall_ratio']:.2f}x; "
            f"same arrays: {row['same_arrays']}"
        )
    if args.json:
        commit, dirty = results_file.git_commit()
        document = {
            "command": "python -m benchmarks.feature_threads "
            + " ".join(sys.argv[1:] if argv is None else argv),
            "date": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()),
            "commit": commit,
            "dirty": dirty,
            "machine": results_file.machine(),
            "load_average": {"before": list(load), "after": list(os.getloadavg())},
            "rounds": args.rounds,
            "rows": rows,
        }
        results_file.write(args.json, document)
        print(f"wrote {Path(args.json)}")
    return 0 if all(row["same_arrays"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
