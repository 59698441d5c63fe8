"""Self-play PPO on Ray RLlib (new API stack) for Hoyito and Hive, exported to our checkpoints.

    # one machine: Ray starts locally, 2 env runners sample in parallel
    hive-train-rllib --config rllib_hoyito_2x6
    # a Ray cluster (`ray start --head` on the head node, `ray start --address=HEAD:6379` on others)
    hive-train-rllib --config rllib_hoyito_2x6 --address HEAD:6379 \\
        --num_env_runners 32 --num_learners 2 --num_gpus_per_learner 1

Read top to bottom:
  1. options: a YAML config (hive_envs/training/rllib/config.py lists every key), `--key value` overrides;
  2. Ray: local by default, or the cluster at `--address` (checked first, fails fast);
  3. RLlib PPO: our PettingZoo env through RLlib's PettingZoo wrapper, modules `main` (trained,
     action-masked, our own network class) and the league (`random`, then frozen snapshots of
     main added when its win rate vs the league passes `win_rate_threshold`), env runners in
     parallel, learner(s) per `num_learners`;
  4. every `export_every` iterations and at the end: `main` exported to our checkpoint format,
     runs/<name>/checkpoints/{step_N.pt, latest.pt}; one JSON line of metrics per iteration
     in runs/<name>/progress.jsonl (a folder that already holds a run is refused without
     --overwrite);
  5. at the end: `training/evaluate.py` plays the exported checkpoint vs random (and greedy).
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from pathlib import Path

from hive_envs.extras import command, script_imports

with script_imports(__name__):  # run as a script without an extra: one line, not a traceback
    from hive_envs.evaluation.cli import exit_code
    from hive_envs.games import game_entry
    from hive_envs.training.cli import CONFIG_HELP, config_parser
    from hive_envs.training.config_keys import parse_overrides
    from hive_envs.training.rllib import RAY_HINT, require_ray
    from hive_envs.training.rllib.config import RLlibConfig, describe_keys, load_config
    from hive_envs.training.run_dir import check_run_dir, prepare_run_dir, run_lock

SAMPLED = "num_env_steps_sampled_lifetime"
SAMPLING_TIMER = "env_runner_sampling_timer"


def build_algorithm(config: RLlibConfig):
    """The RLlib PPO Algorithm: envs, masked modules, league mapping and callback, scale."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from hive_envs.training.rllib.envs import env_name, make_aec, register_envs
    from hive_envs.training.rllib.league import MAIN, RANDOM, LeagueCallback
    from hive_envs.training.rllib.module import MaskedPolicyModule, MaskedRandomModule

    make_aec(config.game, config.env_options()).close()  # bad options: ValueError here, not in a worker
    register_envs()
    league = LeagueCallback(
        config.win_rate_threshold,
        config.min_league_games,
        config.max_league_size,
        config.self_play_share,
        config.seed,
    )
    ppo = (
        PPOConfig()
        .environment(env=env_name(config.game), env_config=config.env_options())
        .framework("torch")
        .env_runners(
            num_env_runners=config.num_env_runners,
            num_envs_per_env_runner=config.num_envs_per_env_runner,
            num_cpus_per_env_runner=1,
        )
        .learners(num_learners=config.num_learners, num_gpus_per_learner=config.num_gpus_per_learner)
        .training(
            train_batch_size_per_learner=config.train_batch_size_per_learner,
            minibatch_size=config.minibatch_size,
            num_epochs=config.num_epochs,
            lr=config.lr,
            gamma=config.gamma,
            lambda_=config.lambda_,
            clip_param=config.clip_param,
            entropy_coeff=config.entropy_coeff,
            vf_loss_coeff=config.vf_loss_coeff,
        )
        .multi_agent(
            policies={MAIN, RANDOM},
            policy_mapping_fn=league.mapping(),
            policies_to_train=[MAIN],
        )
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    MAIN: RLModuleSpec(
                        module_class=MaskedPolicyModule,
                        model_config={
                            "network": config.network_spec(),
                            "init_from_rule": config.init_from_rule,
                        },
                    ),
                    RANDOM: RLModuleSpec(module_class=MaskedRandomModule),
                }
            )
        )
        # RLlib calls callbacks_class() as a factory (`_callback_from`); its annotation asks for a class
        .callbacks(functools.partial(_callback_from, league))  # type: ignore[arg-type]
        .debugging(seed=config.seed, log_level="WARN")
    )
    return ppo.build_algo()


def _callback_from(league):
    """RLlib builds callbacks from a factory; the driver's and the env runners' copies are distinct
    objects (each env runner unpickles its own), only the driver's grows the league."""
    return league


def train(config: RLlibConfig, address: str | None = None, overwrite: bool = False) -> dict:
    """Start Ray, train for `iterations` (or the time limit), export, evaluate; returns a summary.

    A run folder that already holds a run is refused unless `overwrite` (its checkpoints and
    logs are deleted first, once every check passed). The folder is locked from before Ray starts
    to the final evaluation's report (`run_dir.run_lock`: a second run of it is refused)."""
    import ray

    from hive_envs.training.rllib.cluster import init_ray
    from hive_envs.training.rllib.envs import make_aec

    run_dir = Path(config.runs_dir) / config.name
    check_run_dir(run_dir, resume=False, overwrite=overwrite)
    make_aec(config.game, config.env_options()).close()  # bad options fail here, before Ray starts
    with run_lock(run_dir):
        check_run_dir(run_dir, resume=False, overwrite=overwrite)  # again, now that no twin can write
        started_ray = not ray.is_initialized()
        if started_ray:
            try:
                init_ray(address, num_cpus=max(os.cpu_count() or 1, config.num_env_runners + 1))
            except ConnectionError as error:
                raise ValueError(f"cannot connect to a Ray cluster at {address!r}: {error}") from None
        algorithm = None
        summary: dict = {"run_dir": str(run_dir)}
        try:
            algorithm = build_algorithm(config)
            prepare_run_dir(run_dir, overwrite=overwrite)  # only now that Ray and the algorithm are up
            summary.update(_iterate(algorithm, config, run_dir))
        finally:
            if algorithm is not None:
                algorithm.stop()
            if started_ray:
                ray.shutdown()
        if config.eval_games:
            from hive_envs.evaluation.evaluate import evaluate

            opponents = list(game_entry(config.game).eval_opponents)
            report = evaluate(
                [summary["checkpoint"]],
                opponents,
                config.eval_games,
                seed=config.seed,
                out=str(run_dir / "final_eval.json"),
            )
            summary["final_eval"] = report["matches"]
    return summary


def _iterate(algorithm, config: RLlibConfig, run_dir: Path) -> dict:
    """Train until `iterations` or the time limit, logging each iteration to progress.jsonl and
    exporting the main policy every `export_every` iterations and at the end; the run's totals."""
    from hive_envs.training.rllib.export import export_module
    from hive_envs.training.rllib.league import MAIN

    checkpoint_dir = run_dir / "checkpoints"
    started = time.time()
    global_step, latest, iterations = 0, None, []
    with open(run_dir / "progress.jsonl", "a") as progress:
        for iteration in range(1, config.iterations + 1):
            result = algorithm.train()
            runners = result.get("env_runners", {})
            steps = int(runners.get(SAMPLED, global_step)) - global_step
            global_step += steps
            row = {
                "iteration": iteration,
                "env_steps": global_step,
                "seconds": round(time.time() - started, 2),
                **_throughputs(result, steps),
                "episode_len_mean": runners.get("episode_len_mean"),
                "league": result.get("league"),
            }
            progress.write(json.dumps(row) + "\n")
            progress.flush()
            print(json.dumps(row), flush=True)
            iterations.append(row)
            done = iteration == config.iterations or (
                config.time_limit_minutes and time.time() - started >= config.time_limit_minutes * 60
            )
            if done or iteration % config.export_every == 0:
                module = algorithm.get_module(MAIN)
                export_module(
                    module, config, checkpoint_dir / f"step_{global_step:010d}.pt", global_step, iteration
                )
                latest = export_module(module, config, checkpoint_dir / "latest.pt", global_step, iteration)
            if done:
                break
    return {
        "iterations": iterations,
        "global_step": global_step,
        "train_seconds": time.time() - started,
        "checkpoint": str(latest),
    }


def _throughputs(result: dict, steps: int) -> dict:
    """Env steps per second this iteration: overall (sampling + learning) and while sampling."""
    rates = {"env_steps_per_s": round(steps / max(float(result.get("time_this_iter_s", 0.0)), 1e-9), 1)}
    sampling = result.get("timers", {}).get(SAMPLING_TIMER)
    if isinstance(sampling, (int, float)) and sampling > 0:
        rates["sampling_steps_per_s"] = round(steps / float(sampling), 1)
    return rates


def main(argv: list[str] | None = None) -> int:
    parser = config_parser("hive-train-rllib", __doc__, describe_keys(), CONFIG_HELP)
    parser.add_argument(
        "--address",
        help="Ray cluster to join (host:port, ray://host:port or 'auto'); default: start Ray locally",
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="replace the run in runs/<name>/ (its checkpoints and logs are deleted first)",
    )
    args, rest = parser.parse_known_args(argv)
    try:
        require_ray()
    except ImportError:
        print(f"error: {RAY_HINT}", file=sys.stderr)
        return 2
    return exit_code(
        lambda: train(load_config(args.config, parse_overrides(rest)), args.address, overwrite=args.overwrite)
    )


if __name__ == "__main__":
    sys.exit(command(main)())
