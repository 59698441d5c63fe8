"""Where self-play PPO's CPU time goes: env steps per CPU-second of a config and its split into the
rule features, the players (teacher and pool), the env, the rest of the rollout (network forward,
sampling, Python) and the update (forward and backward over the minibatches).

    python -m benchmarks.ppo_profile [--config hive_base] [--updates 3] [--json PATH --label NAME]

The run is the PPO benchmark's (`benchmarks.suite.ppo_steps_per_second`: one warm-up update, then
``--updates`` timed updates through `training.ppo_selfplay.train`, no evaluation or checkpoints), with
CPU-time counters around the calls that make up an update: ``rule_features`` of the network class,
`players.batch_actions` as the collector calls it, the batch class's ``step``, `SelfPlayCollector.collect`
and `ppo.ppo_update`. CPU time is the process's (every thread), so with the config's ``num_threads``
above 1 a parallel kernel's waiting counts too; run with ``NUMBA_NUM_THREADS=1`` and ``--num-threads 1``
for the single-core split.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from benchmarks import results as results_file
from benchmarks.suite import PPO_CONFIG, TIMED_RUN

PARTS = ("rule features", "players (teacher, pool)", "env step", "rest of the rollout", "update")


@contextlib.contextmanager
def counted(owner: object, name: str, totals: dict[str, float], part: str) -> Iterator[None]:
    """Replace ``owner.name`` while the block runs with a wrapper adding its CPU time to ``totals[part]``
    (calls nested in an outer counted call count in both)."""
    original: Callable = getattr(owner, name)
    own = name in vars(owner)  # else inherited: removing the wrapper restores it

    @functools.wraps(original)
    def wrapper(*args, **kwargs):
        start = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            totals[part] += time.process_time() - start

    setattr(owner, name, wrapper)
    try:
        yield
    finally:
        if own:
            setattr(owner, name, original)
        else:
            delattr(owner, name)


def profile(config_path: str, updates: int, num_threads: int | None) -> dict:
    """Steps, CPU-seconds and the CPU-seconds of each of `PARTS` over ``updates`` timed updates."""
    import torch

    from hive_envs.agents.network_kinds import build_network
    from hive_envs.games import GAMES
    from hive_envs.training import ppo_selfplay, selfplay
    from hive_envs.training.config import load_config
    from hive_envs.training.game_lookup import network_spec

    config = load_config(config_path)
    if num_threads is not None:
        config = dataclasses.replace(config, num_threads=num_threads)
    steps_per_update = config.num_games * config.rollout_steps
    totals = dict.fromkeys(["collect", "features", "players", "step", "update"], 0.0)
    with tempfile.TemporaryDirectory() as runs, contextlib.ExitStack() as patches:
        common = {"runs_dir": runs, **TIMED_RUN}
        ppo_selfplay.train(dataclasses.replace(config, name="warmup", total_steps=steps_per_update, **common))
        batch = GAMES[config.game].make_batch(1, config.game_options)
        with torch.device("meta"):  # the trained network's class (nothing allocated)
            network_class = type(
                build_network(network_spec(config, batch), batch.observation_shape, batch.num_actions)
            )
        if hasattr(network_class, "rule_features"):
            patches.enter_context(counted(network_class, "rule_features", totals, "features"))
        patches.enter_context(counted(selfplay, "batch_actions", totals, "players"))
        patches.enter_context(counted(GAMES[config.game].batch, "step", totals, "step"))
        patches.enter_context(counted(selfplay.SelfPlayCollector, "collect", totals, "collect"))
        patches.enter_context(counted(ppo_selfplay, "ppo_update", totals, "update"))
        load = os.getloadavg()
        start = time.process_time()
        summary = ppo_selfplay.train(
            dataclasses.replace(config, name="timed", total_steps=updates * steps_per_update, **common)
        )
        cpu = time.process_time() - start
    steps = summary["global_step"]
    rest = totals["collect"] - totals["features"] - totals["players"] - totals["step"]
    seconds = dict(
        zip(PARTS, (totals["features"], totals["players"], totals["step"], rest, totals["update"]))
    )
    return {
        "config": config_path,
        "num_threads": config.num_threads,
        "numba_threads": _numba_threads(),
        "updates": updates,
        "steps": steps,
        "cpu_s": cpu,
        "wall_s": summary["train_seconds"],
        "steps_per_cpu_second": steps / cpu,
        "steps_per_second": steps / summary["train_seconds"],
        "cpu_s_by_part": seconds,
        "unaccounted_cpu_s": cpu - sum(seconds.values()),
        "load_average": {"before": list(load), "after": list(os.getloadavg())},
    }


def _numba_threads() -> int:
    import numba

    return numba.get_num_threads()


def format_profile(figures: dict) -> str:
    steps = figures["steps"]
    title = (
        f"{figures['config']}: {steps:,} env steps in {figures['cpu_s']:.1f} CPU-s "
        f"({figures['steps_per_cpu_second']:,.1f} per CPU-s, {figures['steps_per_second']:,.1f} per wall-s; "
        f"torch threads {figures['num_threads']}, numba threads {figures['numba_threads']})"
    )
    lines = [title, f"  {'part':<26} {'CPU-s':>7} {'ms / step':>10} {'share':>6}"]
    for part, seconds in [*figures["cpu_s_by_part"].items(), ("(unaccounted)", figures["unaccounted_cpu_s"])]:
        lines.append(
            f"  {part:<26} {seconds:7.2f} {1000 * seconds / steps:10.3f} {seconds / figures['cpu_s']:6.1%}"
        )
    load = figures["load_average"]
    lines.append(f"  load average (1 min) {load['before'][0]:.2f} -> {load['after'][0]:.2f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default=PPO_CONFIG)
    parser.add_argument("--updates", type=int, default=3)
    parser.add_argument("--num-threads", type=int, default=None, help="torch threads (default: the config's)")
    parser.add_argument(
        "--json", metavar="PATH", help="also write the figures and the run's provenance here, as runs[LABEL]"
    )
    parser.add_argument("--label", default="run", help="the run's key in the file's runs (others are kept)")
    args = parser.parse_args(argv)
    figures = profile(args.config, args.updates, args.num_threads)
    print(format_profile(figures))
    if args.json:
        commit, dirty = results_file.git_commit()
        command = "python -m benchmarks.ppo_profile " + " ".join(sys.argv[1:] if argv is None else argv)
        document = json.loads(Path(args.json).read_text()) if Path(args.json).exists() else {"runs": {}}
        document["runs"][args.label] = {
            "command": command,
            "commit": commit,
            "dirty": dirty,
            "date": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()),
            "machine": results_file.machine(),
            **figures,
        }
        results_file.write(args.json, document)
    return 0


if __name__ == "__main__":
    sys.exit(main())
