"""Speed of the alpha-beta searchers: time per move and nodes/s, with the move generator's perft rate
beside it.

    taskset -c 1 python benchmarks/bench_search.py [--positions 40] [--depths 1 2 3]
    python -m benchmarks --rows search            # depth 3 (Hoyito 6) in the suite's results file

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

import numpy as np

from hive_envs.hive import HiveAlphaBeta, HiveGame
from hive_envs.hoyito import HoyitoAlphaBeta, HoyitoGame
from hive_envs.hoyito.engine import kernels as hoyito_kernels


def hive_positions(game_type: str, count: int, seed: int) -> list[HiveGame]:
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        game = HiveGame(game_type)
        for _ in range(rng.randint(10, 30)):
            ids = game.legal_move_ids()
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
            game.play_id(rng.choice(game.legal_move_ids().tolist()))
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


def search_rows(positions: int, depths: list[int], seed: int = 0) -> list[dict]:
    """One row per game and depth: the timings of `time_searches` beside the rate of the move
    generator / rules (``reference``: perft(3) nodes/s from the same Hive positions, compiled random
    playouts in plies/s for Hoyito). Hoyito's depths are doubled (a ply there is cheap)."""
    HiveAlphaBeta(depth=1).search(HiveGame("Base"))  # compile (or load the cached machine code)
    HoyitoAlphaBeta(depth=1).search(HoyitoGame())  # before any clock runs
    HiveGame("Base").perft(2)
    hoyito_playout_rate(0.01)
    rows = []
    for game_type in ("Base", "Base+MLP"):
        games = hive_positions(game_type, positions, seed)
        reference = hive_perft_rate(games)
        for depth in depths:
            row = time_searches(HiveAlphaBeta(depth=depth), games)
            rows.append({"game": f"Hive {game_type}", "depth": depth, "positions": positions, **row,
                         "reference": "perft(3) nodes/s", "reference_rate": reference})  # fmt: skip
    games = hoyito_positions(positions, seed)
    reference = hoyito_playout_rate()
    for depth in depths:
        row = time_searches(HoyitoAlphaBeta(depth=2 * depth), games)
        rows.append({"game": "Hoyito 2x6", "depth": 2 * depth, "positions": positions, **row,
                     "reference": "random playouts, plies/s", "reference_rate": reference})  # fmt: skip
    return rows


def format_rows(rows: list[dict]) -> str:
    header = f"{'positions':<16} {'depth':>5} {'median ms':>10} {'p95 ms':>9} {'median CPU ms':>14} {'nodes/s':>10}"
    lines = [header + f"  {'reference (same positions)':>38}"]
    for r in rows:
        lines.append(
            f"{r['game']:<16} {r['depth']:>5} {r['median_ms']:>10.1f} {r['p95_ms']:>9.1f} "
            f"{r['median_cpu_ms']:>14.1f} {r['nodes_per_s']:>10,.0f}  {r['reference']:>24} {r['reference_rate']:>13,.0f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=40, help="positions per game type")
    parser.add_argument("--depths", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.positions < 1 or any(not 1 <= d <= 10 for d in args.depths):
        parser.error("--positions must be >= 1 and --depths in 1..10")
    print(format_rows(search_rows(args.positions, args.depths, args.seed)))
    print(f"load average {os.getloadavg()[0]:.2f}, CPUs available {len(os.sched_getaffinity(0))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
