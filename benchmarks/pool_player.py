"""Milliseconds a move of a depth-limited alpha-beta player over a batch's rows, as the board-only
trainer's opponent pool asks for them: one row at a time (`actions_by_choosing`) and in the player's
batched form (`AlphaBetaPlayer.act`: the rows' searches on numba's thread count), interleaved in one
process on the same rows.

    python -m benchmarks.pool_player [--spec alphabeta:1] [--rows 80] [--plies 20] [--rounds 5] [--json PATH]

Rows: a seeded Base batch after ``--plies`` uniformly random plies. Each round times both forms on the
same rows; the best round of each is printed with their ratio, whether they chose the same actions,
and the load average (threads measure nothing on a machine whose cores are busy).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numba
import numpy as np

from benchmarks import results as results_file
from hive_envs.hive import HiveBatch
from hive_envs.players import make_player
from hive_envs.players.base import actions_by_choosing


def played_rows(rows: int, plies: int, seed: int) -> HiveBatch:
    """A Base batch of ``rows`` games after ``plies`` seeded uniformly random plies."""
    batch = HiveBatch(rows)
    batch.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        batch.step((rng.random(batch.action_mask.shape) * batch.action_mask).argmax(axis=1))
    return batch


def measure(spec: str, rows: int, plies: int, rounds: int, seed: int = 0) -> dict:
    """Best CPU and wall milliseconds a move of each form over ``rounds`` interleaved rounds."""
    batch = played_rows(rows, plies, seed)
    every = np.arange(rows)
    forms = {
        "one at a time": lambda player: actions_by_choosing(player, batch, every),
        "batched": lambda player: player.act(batch, every),
    }
    players = {name: make_player(spec) for name in forms}
    actions = {name: form(players[name]) for name, form in forms.items()}  # compiled and warm
    best = {name: (float("inf"), float("inf")) for name in forms}
    for _ in range(rounds):
        for name, form in forms.items():
            wall, cpu = time.perf_counter(), time.process_time()
            form(players[name])
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            best[name] = (min(best[name][0], 1000 * wall / rows), min(best[name][1], 1000 * cpu / rows))
    return {
        "spec": spec,
        "rows": rows,
        "plies": plies,
        "rounds": rounds,
        "numba_threads": numba.get_num_threads(),
        "wall_ms_per_move": {name: wall for name, (wall, _) in best.items()},
        "cpu_ms_per_move": {name: cpu for name, (_, cpu) in best.items()},
        "wall_ratio": best["one at a time"][0] / best["batched"][0],
        "same_actions": bool(np.array_equal(actions["one at a time"], actions["batched"])),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default="alphabeta:1")
    parser.add_argument("--rows", type=int, default=80)
    parser.add_argument("--plies", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", metavar="PATH", help="also write the figures and their provenance here")
    args = parser.parse_args(argv)
    load = os.getloadavg()
    figures = measure(args.spec, args.rows, args.plies, args.rounds)
    figures["load_average"] = {"before": list(load), "after": list(os.getloadavg())}
    for name, wall in figures["wall_ms_per_move"].items():
        print(
            f"{args.spec} {name:>14}: {wall:.3f} ms a move (wall), {figures['cpu_ms_per_move'][name]:.3f} CPU"
        )
    print(
        f"batched {figures['wall_ratio']:.2f}x faster on {figures['numba_threads']} threads; same actions: "
        f"{figures['same_actions']}; load {load[0]:.2f} -> {os.getloadavg()[0]:.2f}"
    )
    if args.json:
        commit, dirty = results_file.git_commit()
        command = "python -m benchmarks.pool_player " + " ".join(sys.argv[1:] if argv is None else argv)
        document = {"command": command, "commit": commit, "dirty": dirty, "machine": results_file.machine()}
        document["date"] = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())
        results_file.write(args.json, {**document, **figures})
        print(f"wrote {Path(args.json)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
