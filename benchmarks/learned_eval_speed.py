"""Nodes per CPU-second of the Hive alpha-beta with a learned evaluation against the hand evaluation, on
the fixed middle-game positions of ``benchmarks/data/search_positions.txt``.

    python -m benchmarks.learned_eval_speed --evaluation runs/hive_eval/checkpoints/latest.pt [--depth 3]
    python -m benchmarks.learned_eval_speed           # a network of random weights (the cost, not the play)

In one process, position by position, one search of ``--depth`` plies with each evaluation (a fresh
searcher each: an empty table and evaluation cache), so both see the same machine load. Printed: each
evaluation's nodes, CPU seconds and nodes per CPU-second, their ratio (the issue's target: at least
0.5), and the load average before and after (other processes slow both alike, but not evenly).
Also the cost of one leaf evaluation of each kind, timed alone over the positions and their children.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np

DATA = Path(__file__).with_name("data") / "search_positions.txt"


def random_network(width: int = 32, hidden: int = 32, seed: int = 0):
    from hive_envs.core.learned_eval import random_network
    from hive_envs.hive.search.eval_features import HIVE_FEATURES, NUM_DENSE, NUM_FEATURES

    return random_network(
        seed,
        (NUM_FEATURES, NUM_DENSE, width, hidden),
        (0.1, 0.1, 0.2, 0.1, 0.5, 0.0),  # no output bias
        skip=HIVE_FEATURES.hand_weights * 0.004,
    )


def leaf_costs(games, network) -> dict[str, float]:
    """Microseconds per leaf evaluation, hand (`quick_evaluate`), the learned one's features alone and the
    learned one, best of 5 passes over the positions and their children."""
    from numba import njit

    from hive_envs.hive.engine.workspace import new_workspace
    from hive_envs.hive.search.eval_features import position_features
    from hive_envs.hive.search.evaluation import EVAL_BUFFER_SIZE, SEARCH_WEIGHTS, quick_evaluate
    from hive_envs.hive.search.learned import learned_evaluate, learned_evaluation

    states = []
    for game in games:
        for move in game.legal_move_ids():
            child = game.copy()
            child.play_id(int(move))
            if not child.is_terminal:
                states.append(child.state.copy())
    states = np.array(states)

    @njit
    def hand(states, w, buffer, weights):
        total = 0
        for i in range(states.shape[0]):
            total += quick_evaluate(states[i], w, buffer, weights)
        return total

    @njit
    def features(states, w, buffer, scratch):
        total = 0
        for i in range(states.shape[0]):
            position_features(states[i], w, buffer, scratch)
            total += scratch.counts[0]
        return total

    @njit
    def learned(states, w, buffer, network, scratch):
        total = 0
        for i in range(states.shape[0]):
            total += learned_evaluate(states[i], w, buffer, network, scratch)
        return total

    w, buffer = new_workspace(), np.zeros(EVAL_BUFFER_SIZE, dtype=np.int32)
    scratch = learned_evaluation(network).scratch
    costs = {}
    for label, run in (
        ("hand", lambda: hand(states, w, buffer, SEARCH_WEIGHTS)),
        ("features", lambda: features(states, w, buffer, scratch)),
        ("learned", lambda: learned(states, w, buffer, network, scratch)),
    ):
        run()
        best = min(_timed(run) for _ in range(5))
        costs[label] = best / len(states) * 1e6
    costs["positions"] = len(states)
    return costs


def _timed(run) -> float:
    start = time.process_time()
    run()
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--evaluation", help="a learned evaluation's file (default: random weights)")
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args()

    from hive_envs.hive import HiveAlphaBeta, HiveGame

    if args.evaluation:
        from hive_envs.agents.eval_checkpoint import learned_network_of, load_eval_checkpoint

        features = HiveAlphaBeta.learned_features
        network = learned_network_of(load_eval_checkpoint(args.evaluation, features=features), features)
    else:
        network = random_network()
    games = [HiveGame.from_gamestring(line) for line in DATA.read_text().splitlines() if line.strip()]
    for kwargs in ({}, {"network": network}):  # load the kernels before timing
        HiveAlphaBeta(depth=2, **kwargs).search(games[0])
    load_before = os.getloadavg()
    totals = {"hand": [0, 0.0], "learned": [0, 0.0]}
    for game in games:
        for label, kwargs in (("hand", {}), ("learned", {"network": network})):
            searcher = HiveAlphaBeta(depth=args.depth, **kwargs)
            start = time.process_time()
            result = searcher.search(game)
            totals[label][0] += result.nodes
            totals[label][1] += time.process_time() - start
    load_after = os.getloadavg()
    rates = {label: nodes / cpu for label, (nodes, cpu) in totals.items()}
    for label, (nodes, cpu) in totals.items():
        print(f"{label:8s} {nodes:>10,} nodes  {cpu:7.2f} CPU s  {rates[label]:>10,.0f} nodes per CPU-second")
    ratio = rates["learned"] / rates["hand"]
    print(
        f"learned / hand: {ratio:.3f}  (depth {args.depth}, {len(games)} positions; load {load_before[0]:.2f} -> {load_after[0]:.2f})"
    )
    costs = leaf_costs(games, network)
    print(
        f"one leaf evaluation: hand {costs['hand']:.2f} us, learned {costs['learned']:.2f} us, of which the "
        f"features {costs['features']:.2f} us ({costs['positions']} positions): an accumulator kept from move "
        f"to move could save at most the network's {costs['learned'] - costs['features']:.2f} us, a speed-up "
        f"of the leaf of at most {costs['learned'] / costs['features']:.2f}x"
    )
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "depth": args.depth,
                    "evaluation": args.evaluation or "random weights",
                    "nodes": {k: v[0] for k, v in totals.items()},
                    "cpu_s": {k: v[1] for k, v in totals.items()},
                    "nodes_per_cpu_second": rates,
                    "ratio": ratio,
                    "leaf_evaluation_us": costs,
                    "load_average": [load_before[0], load_after[0]],
                },
                indent=2,
            )
        )


if __name__ == "__main__":
    main()
