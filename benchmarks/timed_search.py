"""Simulations a searched agent runs in a move of S seconds, by leaves per network call
(`SearchConfig.leaf_batch`) and by how a new leaf is scored: what a search by time (``PATH@T=S``) gains
from evaluating several leaves at once, and from making a leaf from its value alone.

    python -m benchmarks.timed_search [--agent hive_base] [--seconds 1] [--positions 10] \
        [--leaf-batches 1 4 8 16 32] [--leaves both] [--json docs/results/timed_search.json]

``--leaves``: ``value-first`` (the agent's own search: when its evaluator has a ``value_only`` form, a
new leaf gets its value alone and its priors when a walk goes through it, `hive_envs.agents.search`),
``in-full`` (every new leaf evaluated in full, features and network), or ``both`` (each leaf batch
searched both ways; the same as ``value-first`` for an agent without that form).

Positions: seeded random openings of 6 to 24 uniformly random plies (finished games skipped). Each
position is searched once with each leaf batch in turn (interleaved, so all see the same load), by the
agent's timed player (`make_player("pretrained:NAME@T=S")`, its model-card search, warmed up), torch
and numba on one thread as in a match. Each search starts with the rule-feature kernel's evaluation
cache empty (Hive): kept, it would hand one leaf batch's evaluations of a position to the next one's
search of the same position (in a game it carries from move to move, so the rates here are a cold
first move's). Printed per leaf batch (and way): the mean simulations per
move, the mean wall and CPU seconds of a move, and the ratio of simulations to the first row; the load
average beside them.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import time
from dataclasses import replace

from benchmarks.bench_search import random_positions
from hive_envs.agents.search import search
from hive_envs.evaluation.provenance import git_commit, machine
from hive_envs.players import PlayerContext, make_player
from hive_envs.players.base import play_on_one_thread
from hive_envs.pretrained import model_card

OPENING_PLIES = (6, 24)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="hive_base", help="a pretrained agent (hive_envs.pretrained)")
    parser.add_argument("--seconds", type=float, default=1.0, help="the move time S of @T=S")
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--leaf-batches", type=int, nargs="+", default=[1, 4, 8, 16, 32])
    parser.add_argument("--leaves", choices=("value-first", "in-full", "both"), default="value-first")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args(argv)
    if args.positions < 1 or min(args.leaf_batches) < 1 or not args.seconds > 0:
        parser.error("--positions and --leaf-batches must be >= 1, --seconds > 0")
    game = model_card(args.agent)["game"]
    player = make_player(f"pretrained:{args.agent}@T={args.seconds:g}", PlayerContext(game, 0))
    play_on_one_thread()
    positions = random_positions(player.view.new_game, args.positions, args.seed, OPENING_PLIES)
    cache = getattr(getattr(player.network, "extractor", None), "evaluation_cache", None)
    in_full = copy.copy(player.evaluator)
    in_full.value_only = None
    ways = {"value-first": [("value first", player.evaluator)], "in-full": [("in full", in_full)]}
    ways["both"] = (
        ways["value-first"] + ways["in-full"] if player.evaluator.value_only else ways["value-first"]
    )
    variants = [(k, leaves, evaluator) for k in args.leaf_batches for leaves, evaluator in ways[args.leaves]]
    load_before = list(os.getloadavg())
    totals = [{"simulations": 0, "wall_s": 0.0, "cpu_s": 0.0} for _ in variants]
    for position in positions:
        for (k, _, evaluator), total in zip(variants, totals):
            config = replace(player.config, leaf_batch=k)
            if cache is not None:
                cache[:] = 0  # empty: no variant reads the evaluations another one left
            cpu, wall = time.process_time(), time.perf_counter()
            total["simulations"] += int(search(position.copy(), evaluator, config)[1].sum())
            total["wall_s"] += time.perf_counter() - wall
            total["cpu_s"] += time.process_time() - cpu
    first = totals[0]["simulations"]
    rows = []
    for (k, leaves, _), total in zip(variants, totals):
        row = {
            "leaf_batch": k,
            "leaves": leaves,
            "simulations_per_move": total["simulations"] / args.positions,
            "wall_s_per_move": total["wall_s"] / args.positions,
            "cpu_s_per_move": total["cpu_s"] / args.positions,
            "simulations_vs_first": total["simulations"] / max(first, 1),
        }
        rows.append(row)
        print(
            f"leaf batch {k:>3}, leaves {leaves:<11}: {row['simulations_per_move']:7.1f} simulations a move "
            f"({row['simulations_vs_first']:.2f}x), wall {row['wall_s_per_move']:.3f} s, "
            f"CPU {row['cpu_s_per_move']:.3f} s"
        )
    load_after = list(os.getloadavg())
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f}")
    if args.json:
        commit, dirty = git_commit()
        report = {
            "command": " ".join(["python -m benchmarks.timed_search", *sys.argv[1:]]),
            "agent": args.agent,
            "move_time_s": args.seconds,
            "positions": args.positions,
            "results": rows,
            "code_commit": commit,
            "code_dirty": dirty,
            "machine": machine(),
            "load_average_before": load_before,
            "load_average_after": load_after,
            "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
        }
        with open(args.json, "w") as file:
            json.dump(report, file, indent=1)
            file.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
