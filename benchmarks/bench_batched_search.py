"""Simulations per CPU-second of the batched search (`hive_envs.agents.batched_search`) and of the
one-game search (`hive_envs.agents.search`) at the same network, interleaved in one process.

    python -m benchmarks.bench_batched_search [--agent hive_base] [--games 64] [--simulations 32] [--rounds 2]

Positions: seeded random openings of 6 to 24 uniformly random plies (finished games skipped), new
ones each round (the batched evaluator keeps its evaluation cache from search to search: the same
positions again would find their evaluations there). Each round searches every position once one
game at a time (`search.search` with
`search.NetworkEvaluator`, the searched players' path) and once all together (`batched_search` with
`batch_evaluators.make_batch_evaluator`), with the agent's model-card search settings; CPU time is
the process's (all threads: the one-game search's rule-feature kernel is numba-parallel). torch runs
on one thread, as the searched players do in a match. The ratio is batched over one-game simulations
per CPU-second (the wall-clock rates are printed beside); the load average is printed too, and the
share of the batched search's evaluations the cache answered.
"""

from __future__ import annotations

import argparse
import os
import time

import torch

from benchmarks.bench_search import random_positions
from hive_envs.agents.batch_evaluators import make_batch_evaluator
from hive_envs.agents.batched_search import batched_search
from hive_envs.agents.checkpoint import load_checkpoint, network_from_checkpoint, stored_search
from hive_envs.agents.search import NetworkEvaluator, SearchConfig, search
from hive_envs.agents.views import view_for_checkpoint
from hive_envs.pretrained import model_card, pretrained_path

OPENING_PLIES = (6, 24)
"""Each position: a new game after this many (inclusive) uniformly random plies."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="hive_base", help="a pretrained agent (hive_envs.pretrained)")
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--simulations", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    path = pretrained_path(args.agent)
    data = load_checkpoint(path)
    settings = stored_search(data, path, **model_card(args.agent).get("search", {}))
    network, view = network_from_checkpoint(data), view_for_checkpoint(data)
    config = SearchConfig(simulations=args.simulations, prior_temperature=settings["prior_temperature"])
    share = settings["rule_value_share"]
    one, many = (
        NetworkEvaluator(network, view, args.agent, share),
        make_batch_evaluator(network, view, args.agent, share),
    )
    warm_up = random_positions(view.new_game, 2, -1, OPENING_PLIES)
    search(warm_up[0].copy(), one, SearchConfig(simulations=4))  # compile / load the kernels
    batched_search([g.copy() for g in warm_up], many, SearchConfig(simulations=4))
    cpu = {"one game at a time": 0.0, "batched": 0.0}
    wall = dict(cpu)
    sims = dict.fromkeys(cpu, 0)
    for round_ in range(args.rounds):
        games = random_positions(view.new_game, args.games, args.seed + round_, OPENING_PLIES)
        start, start_wall = time.process_time(), time.perf_counter()
        for game in games:
            sims["one game at a time"] += int(search(game.copy(), one, config)[1].sum())
        cpu["one game at a time"] += time.process_time() - start
        wall["one game at a time"] += time.perf_counter() - start_wall
        start, start_wall = time.process_time(), time.perf_counter()
        results = batched_search([game.copy() for game in games], many, config)
        sims["batched"] += sum(int(r.visits.sum()) for r in results)
        cpu["batched"] += time.process_time() - start
        wall["batched"] += time.perf_counter() - start_wall
    rates = {label: sims[label] / max(cpu[label], 1e-9) for label in cpu}
    print(f"{args.agent}: {args.games} positions x {args.simulations} simulations x {args.rounds} rounds")
    for label, rate in rates.items():
        print(
            f"  {label:<20} {rate:8.1f} simulations / CPU-s  ({sims[label]} in {cpu[label]:.1f} CPU-s, "
            f"{sims[label] / max(wall[label], 1e-9):.1f} / wall-s)"
        )
    print(f"  ratio batched / one game: {rates['batched'] / rates['one game at a time']:.2f}x")
    cache = getattr(getattr(network, "extractor", None), "evaluation_cache", None)
    if cache is not None:
        print(f"  evaluations answered by the cache: {cache[-1, 1] / max(cache[-1, 0], 1):.1%}")
    print(f"  load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
