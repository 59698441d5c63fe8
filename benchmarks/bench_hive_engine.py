"""Hive engine throughput beside OpenSpiel's Hive, measured in the same run.

    python benchmarks/bench_hive_engine.py [--seconds 3] [--perft-repeats 5]

For Base and Base+MLP it prints random play in plies/s (every ply: generate every legal move,
pick one uniformly, play it) through
  * OpenSpiel: ``pyspiel.load_game("hive", {...})`` with ``legal_actions()`` + ``apply_action()``
    in a Python loop, no observation (expansions chosen by the ``uses_mosquito/uses_ladybug/
    uses_pillbug`` parameters; its other parameters at their defaults);
  * hive_envs, integer path from Python: ``HiveGame.legal_move_ids()`` + ``HiveGame.play_id()``;
  * hive_envs, compiled loop: ``engine.playout.random_playout`` (the same kernels, no Python per ply);
and the ratios to OpenSpiel; then perft(5) from the start (last ply bulk-counted) with nodes/s.
Timings are wall-clock; the machine's load average is printed because it moves them.
"""

from __future__ import annotations

import argparse
import os
import random
import time

from hive_envs.hive import HiveGame
from hive_envs.hive.engine.playout import random_playout
from hive_envs.hive.engine.workspace import new_workspace

GAME_TYPES = {"Base": "", "Base+MLP": "MLP"}


def openspiel_rate(game_type: str, seconds: float) -> float:
    """OpenSpiel's `legal_actions()` + `apply_action()` loop (`bench_hive_env.openspiel_moves_loop`)."""
    from benchmarks.bench_hive_env import openspiel_game, openspiel_moves_loop

    loop = openspiel_moves_loop(openspiel_game(GAME_TYPES[game_type]), random.Random(0))
    plies, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        plies += loop(100)
    return plies / (time.perf_counter() - start)


def python_path_rate(game_type: str, seconds: float) -> float:
    rng = random.Random(0)
    plies, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = HiveGame(game_type)
        while not game.is_terminal:
            ids = game.legal_move_ids()
            game.play_id(ids[rng.randrange(len(ids))])
            plies += 1
    return plies / (time.perf_counter() - start)


def compiled_loop_rate(game_type: str, seconds: float) -> float:
    start_state = HiveGame(game_type).state.copy()
    workspace = new_workspace()
    plies, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = start_state.copy()
        plies += random_playout(state, workspace, seed, 10**6)
        seed += 1
    return plies / (time.perf_counter() - start)


def perft_best(game_type: str, depth: int, repeats: int) -> tuple[int, float, float]:
    """(count, best wall seconds, best CPU seconds of this process) over ``repeats`` runs."""
    game = HiveGame(game_type)
    wall = cpu = float("inf")
    count = 0
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        count = game.perft(depth)
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return count, wall, cpu


def warm_up() -> None:
    """Load (or compile) every kernel once so that no timing includes it."""
    for game_type in GAME_TYPES:
        python_path_rate(game_type, 0.01)
        compiled_loop_rate(game_type, 0.01)
        HiveGame(game_type).perft(2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per random-play measurement")
    parser.add_argument("--perft-repeats", type=int, default=5, help="perft(5) runs; the best is shown")
    args = parser.parse_args()
    warm_up()
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    print(
        f"{'random play (plies/s)':<24}{'OpenSpiel':>12}{'HiveGame ids':>14}{'ratio':>8}{'compiled loop':>15}{'ratio':>8}"
    )
    for game_type in GAME_TYPES:
        peer = openspiel_rate(game_type, args.seconds)
        ours = python_path_rate(game_type, args.seconds)
        loop = compiled_loop_rate(game_type, args.seconds)
        print(
            f"{game_type:<24}{peer:>12,.0f}{ours:>14,.0f}{ours / peer:>7.1f}x{loop:>15,.0f}{loop / peer:>7.1f}x"
        )
    print(f"{'perft(5) from the start':<24}{'count':>12}{'wall ms':>10}{'cpu ms':>10}{'nodes/s (wall)':>16}")
    for game_type in GAME_TYPES:
        count, wall, cpu = perft_best(game_type, 5, args.perft_repeats)
        print(f"{game_type:<24}{count:>12,}{wall * 1e3:>10.1f}{cpu * 1e3:>10.1f}{count / wall:>16,.0f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
