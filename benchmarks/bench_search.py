"""Speed of the alpha-beta searchers: time per move and nodes/s, with the move generator's perft rate
beside it.

    taskset -c 1 python benchmarks/bench_search.py [--positions 40] [--depths 1 2 3]

Positions: seeded random openings of 10 to 30 uniformly random plies (Hive Base and Base+MLP) and
of 4 to 30 plies (Hoyito 2x6), finished games skipped. For every position and depth one search
(`HiveAlphaBeta` / `HoyitoAlphaBeta`, a fresh table each time) is timed; the table gives the median
and 95th percentile of the wall time per move, the median CPU time, and nodes/s (positions the
search visited per CPU second, over all positions). Beside it: perft(3) from the same Hive
positions (the last ply bulk-counted, so its "nodes" are the leaf move sequences) and Hoyito's
compiled random playouts in plies/s: the rate of the move generator / rules the search runs on.
Hoyito's depths are doubled (a ply there is cheap). The load average is printed: on a shared
machine the wall times move with it, the CPU times less.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hive_envs.hive import HiveAlphaBeta, HiveGame
from hive_envs.hoyito import HoyitoAlphaBeta, HoyitoGame
from hive_envs.hoyito.engine import kernels as hoyito_kernels


def hive_positions(game_type: str, count: int, seed: int) -> list[HiveGame]:
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        game = HiveGame(game_type)
        for _ in range(rng.randint(10, 30)):
            ids = game.valid_move_ids()
            game.play_id(int(ids[rng.randrange(len(ids))]))
            if game.is_terminal:
                break
        if not game.is_terminal:
            positions.append(game)
    return positions


def hoyito_positions(count: int, seed: int) -> list[HoyitoGame]:
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        game = HoyitoGame(holes_per_row=6)
        for _ in range(rng.randint(4, 30)):
            game.play(rng.choice(game.legal_moves()))
            if game.is_terminal:
                break
        if not game.is_terminal:
            positions.append(game)
    return positions


def time_searches(player, positions) -> dict:
    walls, cpus, nodes = [], [], 0
    for game in positions:
        start, start_cpu = time.perf_counter(), time.process_time()
        result = player.search(game)
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - start_cpu)
        nodes += result.nodes
    return {
        "median_ms": 1000 * float(np.median(walls)),
        "p95_ms": 1000 * float(np.percentile(walls, 95)),
        "median_cpu_ms": 1000 * float(np.median(cpus)),
        "nodes_per_s": nodes / max(sum(cpus), 1e-9),
    }


def hive_perft_rate(positions) -> float:
    nodes, cpu = 0, 0.0
    for game in positions:
        start = time.process_time()
        nodes += game.perft(3)
        cpu += time.process_time() - start
    return nodes / max(cpu, 1e-9)


def hoyito_playout_rate(seconds: float = 1.0) -> float:
    start_state = HoyitoGame(holes_per_row=6).state
    o = HoyitoGame(holes_per_row=6).options
    plies, seed, start = 0, 1, time.process_time()
    while time.process_time() - start < seconds:
        s = start_state.copy()
        plies += hoyito_kernels.random_playout(s, 6, o.max_laps, o.no_capture_limit, seed)
        seed += 1
    return plies / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=40, help="positions per game type")
    parser.add_argument("--depths", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.positions < 1 or any(not 1 <= d <= 10 for d in args.depths):
        parser.error("--positions must be >= 1 and --depths in 1..10")

    # Compile (or load the cached machine code) before any clock runs.
    HiveAlphaBeta(depth=1).search(HiveGame("Base"))
    HoyitoAlphaBeta(depth=1).search(HoyitoGame())
    HiveGame("Base").perft(2)
    hoyito_playout_rate(0.01)

    print(
        f"{'positions':<22} {'depth':>5} {'median ms':>10} {'p95 ms':>9} {'median CPU ms':>14} {'nodes/s':>10}"
    )
    for game_type in ("Base", "Base+MLP"):
        positions = hive_positions(game_type, args.positions, args.seed)
        for depth in args.depths:
            row = time_searches(HiveAlphaBeta(depth=depth), positions)
            print(
                f"{'Hive ' + game_type:<22} {depth:>5} {row['median_ms']:>10.1f} {row['p95_ms']:>9.1f} "
                f"{row['median_cpu_ms']:>14.1f} {row['nodes_per_s']:>10,.0f}"
            )
        print(f"{'  perft(3), same positions':<44} {hive_perft_rate(positions):>39,.0f} nodes/s")
    positions = hoyito_positions(args.positions, args.seed)
    for depth in args.depths:
        row = time_searches(HoyitoAlphaBeta(depth=2 * depth), positions)
        print(
            f"{'Hoyito 2x6':<22} {2 * depth:>5} {row['median_ms']:>10.1f} {row['p95_ms']:>9.1f} "
            f"{row['median_cpu_ms']:>14.1f} {row['nodes_per_s']:>10,.0f}"
        )
    print(f"{'  random playouts (compiled)':<44} {hoyito_playout_rate():>39,.0f} plies/s")
    print(f"load average {os.getloadavg()[0]:.2f}, CPUs available {len(os.sched_getaffinity(0))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
