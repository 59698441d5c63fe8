"""Self-play PPO env steps per CPU-second: through the AEC adapter (`hive_envs.core.aec_batch`) vs the
compiled batch of the same game, same config, same network.

    python -m benchmarks.aec_ppo                      # Hoyito 2x6 and Hive Base, generic MLP
    python -m benchmarks.aec_ppo --updates 4 --rounds 3 --num-games 64 --rollout-steps 16

Two figures per path, in CPU seconds of this process (`time.process_time`: every torch and numba
thread included, so other jobs on the machine count less than in wall time):

- PPO: `training.ppo_selfplay.train` run for 1 update and for 1 + ``updates`` updates (no evaluation,
  no periodic checkpoint); the first run's CPU seconds are subtracted from the second's, so start-up,
  the first update and the final checkpoint cancel out;
- rollout: ``rounds`` x `SelfPlayCollector.collect` (env steps plus the network's forward passes),
  where the env's own cost shows before the PPO update dilutes it.

Each path is warmed up once (imports, compiled kernels) before anything is timed, and the rounds
alternate batch and adapter (interleaved, so a change of machine load hits both); the figures are
medians over the rounds. Networks: the generic MLP, which any AEC env trains with (a game's lookahead
network also trains over the game's own env, at the cost of its features on both paths alike).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import tempfile
import time

GAMES = {
    "Hoyito 2x6": ("hoyito_2x6", "hoyito", "pettingzoo:hive_envs/hoyito-v0"),
    "Hive Base": ("hive_base", "hive", "pettingzoo:hive_envs/hive-v0"),
}


def cpu_seconds_of_updates(config, updates: int) -> float:
    """CPU seconds of ``updates`` PPO updates of ``config`` (the difference of two runs, module doc)."""
    from hive_envs.training.ppo_selfplay import train

    steps = config.num_games * config.rollout_steps
    spent = []
    with tempfile.TemporaryDirectory() as runs:
        for name, total in (("short", steps), ("long", (1 + updates) * steps)):
            start = time.process_time()
            train(dataclasses.replace(config, name=name, runs_dir=runs, total_steps=total))
            spent.append(time.process_time() - start)
    return spent[1] - spent[0]


def rollout_cpu_seconds(config, rollouts: int) -> float:
    """CPU seconds of ``rollouts`` self-play rollouts of ``config`` (after one untimed rollout)."""
    import torch

    from hive_envs.agents.network_kinds import build_network
    from hive_envs.training.game_lookup import make_batch
    from hive_envs.training.run import network_spec
    from hive_envs.training.selfplay import SelfPlayCollector

    torch.manual_seed(config.seed)
    batch = make_batch(config.game, config.num_games, config.game_options)
    network = build_network(network_spec(config, batch), tuple(batch.observation_shape), batch.num_actions)
    collector = SelfPlayCollector(batch, network, torch.device("cpu"), seed=config.seed)
    collector.collect(config.rollout_steps)
    start = time.process_time()
    for _ in range(rollouts):
        collector.collect(config.rollout_steps)
    return time.process_time() - start


def paths(label: str, num_games: int, rollout_steps: int) -> dict:
    """The batch's config and the adapter's, equal but for how the game is named."""
    from benchmarks.suite import TIMED_RUN
    from hive_envs.training.config import load_config

    path, game, env = GAMES[label]
    base = load_config(path)
    options = {k: v for k, v in base.game_options.items() if k != "parallel"}
    common = {
        "network": "mlp",
        "hidden_sizes": [256, 256],
        "num_games": num_games,
        "rollout_steps": rollout_steps,
        "num_minibatches": min(base.num_minibatches, 4),
        **TIMED_RUN,
        "init_from_rule": False,
        "search_rule_value_share": 0.0,
        "pool_players": [],
        "teacher": "",
        "num_threads": 1,
    }
    batch = dataclasses.replace(base, game=game, game_options=options, **common)
    adapter = dataclasses.replace(base, game=game, game_options={}, env=env, env_options=options, **common)
    return {"batch": batch, "adapter": adapter}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--updates", type=int, default=3, help="timed PPO updates (and rollouts) per round")
    parser.add_argument("--rounds", type=int, default=2, help="interleaved rounds (batch, adapter)")
    parser.add_argument("--num-games", type=int, default=64)
    parser.add_argument("--rollout-steps", type=int, default=16)
    args = parser.parse_args(argv)
    import torch

    torch.set_num_threads(1)
    print(
        f"Env steps per CPU-second, mlp [256, 256], {args.num_games} games x {args.rollout_steps} steps per "
        f"update, {args.updates} timed updates / rollouts, {args.rounds} interleaved rounds, medians "
        f"(load average {os.getloadavg()[0]:.1f} at start)"
    )
    print(f"  {'game':11} {'figure':8} {'batch':>10} {'adapter':>10} {'batch / adapter':>16}")
    steps = args.updates * args.num_games * args.rollout_steps
    for label in args.games:
        configs = paths(label, args.num_games, args.rollout_steps)
        for config in configs.values():  # warm-up: imports, compiled kernels, torch's first calls
            cpu_seconds_of_updates(config, 0)
        figures = {
            "PPO": lambda config: cpu_seconds_of_updates(config, args.updates),
            "rollout": lambda config: rollout_cpu_seconds(config, args.updates),
        }
        for figure, seconds in figures.items():
            rates: dict[str, list[float]] = {"batch": [], "adapter": []}
            for _ in range(args.rounds):
                for name, config in configs.items():
                    rates[name].append(steps / seconds(config))
            ratio = statistics.median(b / a for b, a in zip(rates["batch"], rates["adapter"]))
            batch, adapter = statistics.median(rates["batch"]), statistics.median(rates["adapter"])
            print(f"  {label:11} {figure:8} {batch:10,.0f} {adapter:10,.0f} {ratio:15.2f}x", flush=True)
    print(f"(load average {os.getloadavg()[0]:.1f} at the end)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
