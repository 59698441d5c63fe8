"""Self-play PPO for the games of hive_envs.

    hive-train --config hoyito_2x6 [--key value ...] [--resume | --overwrite]
    hive-train --config experiments/connect_four   # a PettingZoo AEC env (key env)

Read top to bottom:
  1. options: a YAML config (hive_envs/training/config.py lists every key), `--key value` overrides;
  2. a batch of `num_games` games (the game's batched API), one policy-value network;
  3. each update: one rollout of `rollout_steps` plies in every game (self-play, plus a share
     of games against the opponent pool: past policies and any `pool_players` such as
     alphabeta:1), optionally a teacher's move for a share of the learner's decisions, GAE
     along each seat's own decisions, then PPO epochs over the learner's decisions (plus the
     teacher's cross-entropy);
  4. TensorBoard scalars, periodic evaluation vs `eval_opponents` (argmax play from random
     openings), checkpoints every `checkpoint_every` updates and at the end
     (runs/<name>/checkpoints/), resumable; a run folder that already holds a run is refused
     without --resume or --overwrite;
  5. at the end: matches vs `eval_opponents`, argmax play (the headline) and sampled play beside
     it, printed as tables and saved as JSON.
"""

from __future__ import annotations

import copy
import sys
import time

import numpy as np

from hive_envs.extras import command, script_imports

with script_imports(__name__):  # run as a script without an extra: one line, not a traceback
    from hive_envs.evaluation.cli import add_trust_env_module, exit_code, trust_env_modules
    from hive_envs.training.cli import CONFIG_HELP, add_run_flags, config_parser
    from hive_envs.training.config import TrainConfig, describe_keys, load_config
    from hive_envs.training.config_keys import parse_overrides
    from hive_envs.training.eval_matches import make_players
    from hive_envs.training.game_lookup import make_batch
    from hive_envs.training.ppo import ppo_update
    from hive_envs.training.resources import PPO
    from hive_envs.training.run import TrainingRun
    from hive_envs.training.selfplay import SelfPlayCollector, compute_gae
    from hive_envs.training.trust import TRUST_FLAG, check_commands


def train(config: TrainConfig, resume: bool = False, overwrite: bool = False) -> dict:
    """Run (or resume) training; returns a summary with the final evaluation.

    A run folder that already holds a run is refused unless `resume` (continue it) or
    `overwrite` (delete its checkpoints and logs first) is given; every check (the run folder,
    the game, every player spec, the cores and memory the config asks for) runs before anything is
    written or deleted, and the folder is locked from then until the run ends (`run_dir.run_lock`: a
    second run of it is refused)."""
    with TrainingRun(config, resume, overwrite, PPO) as run:
        spaces = make_batch(config.game, 1, config.game_options)  # the spaces and options checkpoints record
        network, optimizer = run.build(spaces)  # the memory a run of num_games needs checked first
        batch = make_batch(config.game, config.num_games, config.game_options)
        pool_players = make_players(config, config.pool_players, config.seed + 31)
        teacher = make_players(config, [config.teacher], config.seed + 37)[0] if config.teacher else None
        eval_opponents = run.evaluation_players()
        pool = run.start()

        opponent = copy.deepcopy(network).eval()
        collector = SelfPlayCollector(
            batch,
            network,
            run.device,
            seed=config.seed + 7919 * run.update,
            potentials=config.shaping_coef > 0,
        )
        shuffle_rng = np.random.default_rng(config.seed + 104729 * run.update)
        steps_per_update = config.num_games * config.rollout_steps
        run.open()
        while run.continues():
            tick = time.time()
            run.anneal_learning_rate()

            # 1. rollout: self-play, plus pool games against one opponent drawn for this rollout (a
            #    player of pool_players or a past policy), and the teacher's labels
            rival = draw_rival(config, pool_players, pool, opponent, shuffle_rng)
            rollout = collector.collect(
                config.rollout_steps,
                rival,
                config.pool_games,
                teacher=teacher,
                teacher_share=config.teacher_share,
            )
            rollout.advantages, rollout.returns = compute_gae(
                rollout, config.gamma, config.gae_lambda, config.shaping_coef
            )

            # 2. PPO update on the learner's decisions
            metrics = ppo_update(network, optimizer, rollout, config, run.device, shuffle_rng)
            run.advance(steps_per_update, tick)

            # 3. logging, opponent pool, evaluation, checkpoints
            metrics.update(collector.pop_stats())
            metrics["charts/pool_size"] = len(pool)
            run.log(metrics, tick)
            if config.pool_size and run.update % config.pool_add_every == 0:
                pool.append({k: v.detach().cpu().clone() for k, v in network.state_dict().items()})
                pool = pool[-config.pool_size :]
            run.evaluate_if_due(eval_opponents)
            run.checkpoint_if_due(pool)
            run.show_progress()
        summary = run.finish(pool)

        for player in [*pool_players, *([teacher] if teacher else [])]:
            player.close()
        return run.final_evaluation(summary, eval_opponents, sampled=config.final_eval_sampled)


def draw_rival(config: TrainConfig, pool_players: list, pool: list, opponent, rng: np.random.Generator):
    """The opponent of this rollout's pool games, or None without pool games: a player of
    `pool_players` (always while the pool of past policies is empty, else with probability
    `pool_player_share`) or `opponent` loaded with a past policy drawn from `pool`."""
    if config.pool_games and pool_players and (not pool or rng.random() < config.pool_player_share):
        return pool_players[rng.integers(len(pool_players))]
    if config.pool_games and pool:
        opponent.load_state_dict(pool[rng.integers(len(pool))])
        return opponent
    return None


def main(argv: list[str] | None = None) -> int:
    parser = config_parser("hive-train", __doc__, describe_keys(), CONFIG_HELP)
    add_run_flags(parser)
    parser.add_argument(
        TRUST_FLAG,
        action="store_true",
        help="let the config file name player specs that run a command (uhp:COMMAND); specs given "
        "as --key value are trusted without it",
    )
    add_trust_env_module(parser)
    args, rest = parser.parse_known_args(argv)

    def run() -> None:
        trust_env_modules(args.trust_env_module)
        overrides = parse_overrides(rest)
        config = load_config(args.config, overrides)
        check_commands(config, overrides, args.trust_commands)
        train(config, resume=args.resume, overwrite=args.overwrite)

    return exit_code(run)


if __name__ == "__main__":
    sys.exit(command(main)())
