"""Self-play PPO for the games of hive_envs.

    python training/ppo_selfplay.py --config configs/hoyito_2x6.yaml [--key value ...] [--resume | --overwrite]
    python training/ppo_selfplay.py --config configs/connect_four.yaml   # a PettingZoo AEC env (key env)

Read top to bottom:
  1. options: a YAML config (training/config.py lists every key), `--key value` overrides;
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

import contextlib
import copy
import json
import os
import random
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import torch
from torch.utils.tensorboard import SummaryWriter
from tqdm import tqdm

from hive_envs.agents.checkpoint import load_checkpoint, load_weights, save_checkpoint
from hive_envs.agents.networks import build_network
from hive_envs.agents.search import SearchConfig
from hive_envs.agents.views import view_for
from hive_envs.games import game_entry, new_game
from hive_envs.players import PlayerContext, SearchLimits, make_player
from hive_envs.players.checkpoint import AgentPlayer
from training.arena import distinct_openings, play_game
from training.budget import TimeBudget, expected_final_step
from training.cli import add_trust_env_module, config_parser, exit_code, trust_env_modules
from training.config import TrainConfig, describe_keys, load_config
from training.config_keys import parse_overrides
from training.games import carries_rules, encoding_version, lookahead_rules, make_batch
from training.match import MatchResult, format_table, play_match
from training.ppo import ppo_update
from training.provenance import git_commit, machine
from training.run_dir import check_run_dir, prepare_run_dir, run_lock
from training.selfplay import SelfPlayCollector, compute_gae
from training.trust import TRUST_FLAG, check_commands


def pick_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise ValueError("config key 'device' is 'cuda' but no CUDA device is available")
    return torch.device(name)


def network_spec(config: TrainConfig, batch) -> dict:
    """The config's network spec, plus the game's rule options for the network that simulates moves."""
    spec = config.network_spec()
    if carries_rules(spec["kind"]):
        spec["rules"] = lookahead_rules(spec["kind"], getattr(batch, "game_name", None), batch.options)
    return spec


def run_dir_of(config: TrainConfig) -> Path:
    return Path(config.runs_dir) / config.name


def make_players(config: TrainConfig, specs: list[str], seed: int) -> list:
    """The players of `specs` for the config's game (ValueError naming a bad spec)."""
    return [make_player(spec, PlayerContext(config.game, seed + i)) for i, spec in enumerate(specs)]


def evaluation_opponents(config: TrainConfig, batch) -> list[str]:
    """`eval_opponents` without greedy for a game that has no greedy player."""
    has_greedy = hasattr(batch, "greedy_actions")
    return [spec for spec in config.eval_opponents if spec != "greedy" or has_greedy]


def game_options(config: TrainConfig) -> dict:
    """The config's game options without the batch's own setting (`parallel`)."""
    return {k: v for k, v in config.game_options.items() if k != "parallel"}


def evaluate_now(
    config: TrainConfig, network, opponents: list[str], games: int, seed: int, sample: bool
) -> list:
    """Matches of the current network (argmax play, or sampled) vs each opponent spec.

    Played game by game as the arena plays it (`arena.play_game`, the players choosing on games that
    keep their history, which the network's player needs to avoid repeating positions), each pair of
    games from the same random opening of `eval_opening_plies` plies; a game whose definition says
    ``evaluate_in_batch`` (an AEC env, whose games copy a whole env per move) as one batch from the
    same openings, one forward pass a ply for all games (`match.play_match`).
    """
    was_training = network.training
    network.eval()
    view = view_for(config.game, game_options(config))
    me = AgentPlayer(network, view, SearchConfig(simulations=0), sample, seed, "current", config.game)
    results = []
    for opponent in make_players(config, opponents, seed + 1):
        try:
            if game_entry(config.game).evaluate_in_batch:
                openings = distinct_openings(
                    lambda: new_game(config.game, game_options(config)),
                    config.eval_opening_plies,
                    max(games // 2, 1),
                    seed,
                )
                results.append(
                    play_match(config.game, config.game_options, me, opponent, games, seed, openings)
                )
            else:
                results.append(play_games(config, me, opponent, games, seed))
        finally:
            opponent.close()
    network.train(was_training)
    return results


def play_games(config: TrainConfig, me, opponent, games: int, seed: int) -> MatchResult:
    """`games` games of `me` vs `opponent`, half in each seat, game by game (`arena.play_game`): pair k
    plays random opening k of `eval_opening_plies` plies once with each seat."""
    options = game_options(config)
    pairs = max(games // 2, 1)
    openings = distinct_openings(
        lambda: new_game(config.game, options), config.eval_opening_plies, pairs, seed
    )
    counts = {label: [0, 0] for label in ("wins", "draws", "losses")}
    lengths = []
    for k in range(games):
        seat = int(k >= pairs)
        game = new_game(config.game, options)
        for move in openings[k % pairs]:
            game.play_id(move)
        result0, plies = play_game(game, (me, opponent) if seat == 0 else (opponent, me), SearchLimits())[:2]
        outcome = result0 if seat == 0 else -result0
        counts["wins" if outcome > 0 else "losses" if outcome < 0 else "draws"][seat] += 1
        lengths.append(plies)
    return MatchResult.from_counts(me.name, opponent.name, games, counts, float(np.mean(lengths)))


def checkpoint_payload(
    config, batch, network, optimizer, global_step, update, pool, elapsed, segments=()
) -> dict:
    """A checkpoint's content; `segments`: `training_segments` (one per run of the script that
    trained it, see `start_segment`), kept by --resume and copied into model cards."""
    return {
        "game": config.game,
        "game_options": dict(config.game_options),
        "encoding_version": encoding_version(batch),
        "observation_shape": tuple(batch.observation_shape),
        "num_actions": int(batch.num_actions),
        "network": network_spec(config, batch),
        "model": {k: v.detach().cpu() for k, v in network.state_dict().items()},
        "config": config.to_dict(),
        "search": config.search(),
        "global_step": global_step,
        "update": update,
        "train_state": {"optimizer": optimizer.state_dict(), "pool": pool, "elapsed_s": elapsed},
        "training_segments": [dict(segment) for segment in segments],
    }


def start_segment(global_step: int, elapsed: float) -> dict:
    """A record of this run of the script: the code's commit (and whether the tree had uncommitted
    changes), when and where it started, the plies and seconds it started from, the load average;
    its ends are filled in at each checkpoint (`end_step`, `end_seconds`, `end_load_average`)."""
    commit, dirty = git_commit()
    return {
        "code_commit": commit,
        "code_dirty": dirty,
        "started_utc": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S"),
        "cpu": machine()["cpu_model"],
        "cpus": os.cpu_count(),
        "start_step": global_step,
        "start_seconds": round(elapsed, 1),
        "start_load_average": list(os.getloadavg()),
    }


def resume_from(path: Path, data: dict, network, optimizer) -> tuple[list, float]:
    """Load a checkpoint's weights and train_state into `network` and `optimizer`; returns
    (opponent pool, elapsed seconds). ValueError naming `path` for a checkpoint that cannot."""
    state = data.get("train_state")
    if state is None:
        raise ValueError(
            f"cannot resume {str(path)!r}: it has no train_state (optimizer state and opponent pool; "
            f"checkpoints exported by rllib_selfplay.py have none); start a new run instead "
            f"(another --name, or --overwrite)"
        )
    missing = [key for key in ("optimizer", "pool", "elapsed_s") if key not in state]
    if missing:
        raise ValueError(f"cannot resume {str(path)!r}: its train_state lacks {missing}")
    load_weights(network, data)
    opponent = copy.deepcopy(network)
    try:
        optimizer.load_state_dict(state["optimizer"])
        for snapshot in state["pool"]:
            opponent.load_state_dict(snapshot)
    except (KeyError, TypeError, ValueError, RuntimeError) as error:
        raise ValueError(
            f"cannot resume {str(path)!r}: its train_state does not fit the network: {error}"
        ) from None
    return list(state["pool"]), float(state["elapsed_s"])


def train(config: TrainConfig, resume: bool = False, overwrite: bool = False) -> dict:
    """Run (or resume) training; returns a summary with the final evaluation.

    A run folder that already holds a run is refused unless `resume` (continue it) or
    `overwrite` (delete its checkpoints and logs first) is given; every check (the run folder,
    the game, every player spec) runs before anything is written or deleted, and the folder is
    locked from then until the run ends (`run_dir.run_lock`: a second run of it is refused)."""
    with contextlib.ExitStack() as cleanup:
        return _train(config, resume, overwrite, cleanup)


def _train(config: TrainConfig, resume: bool, overwrite: bool, cleanup: contextlib.ExitStack) -> dict:
    run_dir = run_dir_of(config)
    checkpoint_dir = run_dir / "checkpoints"
    check_run_dir(run_dir, resume=resume, overwrite=overwrite)
    if config.num_threads:
        torch.set_num_threads(config.num_threads)
    device = pick_device(config.device)
    random.seed(config.seed)
    np.random.seed(config.seed)
    torch.manual_seed(config.seed)

    batch = make_batch(config.game, config.num_games, config.game_options)
    network = build_network(
        network_spec(config, batch), tuple(batch.observation_shape), batch.num_actions
    ).to(device)
    if config.init_from_rule:
        network.init_from_rule()
    optimizer = torch.optim.Adam(network.parameters(), lr=config.learning_rate, eps=1e-5)
    global_step, update, elapsed, pool, segments = 0, 0, 0.0, [], []
    pool_players = make_players(config, config.pool_players, config.seed + 31)
    teacher = make_players(config, [config.teacher], config.seed + 37)[0] if config.teacher else None
    eval_opponents = evaluation_opponents(config, batch)
    for player in make_players(config, eval_opponents, config.seed + 1):  # a bad spec fails now
        player.close()

    if resume:
        latest = checkpoint_dir / "latest.pt"
        data = load_checkpoint(
            latest,
            game=config.game,
            encoding_version=encoding_version(batch),
            observation_shape=tuple(batch.observation_shape),
            num_actions=batch.num_actions,
        )
        if data["game_options"] != dict(config.game_options) or data["network"] != network_spec(
            config, batch
        ):
            raise ValueError(
                f"cannot resume {str(latest)!r}: it was trained with game_options={data['game_options']} "
                f"network={data['network']}, the config asks for game_options={config.game_options} "
                f"network={network_spec(config, batch)}"
            )
        pool, elapsed = resume_from(latest, data, network, optimizer)
        global_step, update = data["global_step"], data["update"]
        segments = list(data.get("training_segments", []))
    segments.append(start_segment(global_step, elapsed))

    opponent = copy.deepcopy(network).eval()
    pool_games = config.pool_games
    collector = SelfPlayCollector(
        batch, network, device, seed=config.seed + 7919 * update, potentials=config.shaping_coef > 0
    )
    shuffle_rng = np.random.default_rng(config.seed + 104729 * update)
    cleanup.enter_context(run_lock(run_dir))
    check_run_dir(run_dir, resume=resume, overwrite=overwrite)  # again, now that no twin can write
    prepare_run_dir(run_dir, overwrite=overwrite)
    writer = SummaryWriter(str(run_dir))
    steps_per_update = config.num_games * config.rollout_steps
    budget = TimeBudget(config.time_limit_minutes * 60.0)
    latest_eval: dict[str, float] = {}

    def save() -> None:
        segments[-1].update(
            end_step=global_step, end_seconds=round(elapsed, 1), end_load_average=list(os.getloadavg())
        )
        payload = checkpoint_payload(
            config, batch, network, optimizer, global_step, update, pool, elapsed, segments
        )
        save_checkpoint(checkpoint_dir / f"step_{global_step:010d}.pt", payload)
        save_checkpoint(checkpoint_dir / "latest.pt", payload)

    bar = tqdm(
        total=expected_final_step(global_step, elapsed, config.total_steps, budget.limit_s),
        initial=min(global_step, config.total_steps),
        unit="step",
        dynamic_ncols=True,
        mininterval=2.0,
    )
    started = time.time() - elapsed
    while global_step < config.total_steps and budget.fits(elapsed, "update"):
        tick = time.time()
        if config.anneal_lr:
            optimizer.param_groups[0]["lr"] = config.learning_rate * max(
                0.0, 1 - global_step / config.total_steps
            )

        # 1. rollout: self-play, plus pool games against one opponent drawn for this rollout (a
        #    player of pool_players or a past policy), and the teacher's labels
        rival = None
        if pool_games and pool_players and (not pool or shuffle_rng.random() < config.pool_player_share):
            rival = pool_players[shuffle_rng.integers(len(pool_players))]
        elif pool_games and pool:
            opponent.load_state_dict(pool[shuffle_rng.integers(len(pool))])
            rival = opponent
        rollout = collector.collect(
            config.rollout_steps, rival, pool_games, teacher=teacher, teacher_share=config.teacher_share
        )
        rollout.advantages, rollout.returns = compute_gae(
            rollout, config.gamma, config.gae_lambda, config.shaping_coef
        )

        # 2. PPO update on the learner's decisions
        metrics = ppo_update(network, optimizer, rollout, config, device, shuffle_rng)
        global_step += steps_per_update
        update += 1
        elapsed = time.time() - started
        budget.record("update", time.time() - tick)

        # 3. logging, opponent pool, evaluation, checkpoints
        metrics.update(collector.pop_stats())
        metrics["charts/learning_rate"] = optimizer.param_groups[0]["lr"]
        metrics["charts/steps_per_second"] = steps_per_update / max(time.time() - tick, 1e-9)
        metrics["charts/pool_size"] = len(pool)
        for key, value in metrics.items():
            writer.add_scalar(key, value, global_step)
        if config.pool_size and update % config.pool_add_every == 0:
            pool.append({k: v.detach().cpu().clone() for k, v in network.state_dict().items()})
            pool = pool[-config.pool_size :]
        if config.eval_every and update % config.eval_every == 0 and budget.fits(elapsed, "evaluation"):
            evaluation_started = time.time()
            for result in evaluate_now(
                config, network, eval_opponents, config.eval_games, config.seed + update, config.eval_sample
            ):
                latest_eval[result.opponent] = result.win_rate
                writer.add_scalar(f"eval/vs_{result.opponent}/win_rate", result.win_rate, global_step)
                writer.add_scalar(f"eval/vs_{result.opponent}/score", result.score, global_step)
                writer.add_scalar(f"eval/vs_{result.opponent}/game_length", result.mean_length, global_step)
            elapsed = time.time() - started
            budget.record("evaluation", time.time() - evaluation_started)
        if update % config.checkpoint_every == 0:
            save()
        bar.total = expected_final_step(global_step, elapsed, config.total_steps, budget.limit_s)
        bar.update(min(global_step, config.total_steps) - bar.n)
        bar.set_postfix(
            sps=f"{global_step / max(elapsed, 1e-9):.0f}",
            **{f"vs_{k}": f"{v:.2f}" for k, v in latest_eval.items()},
        )
    bar.close()
    save()
    writer.close()

    summary = {
        "run_dir": str(run_dir),
        "global_step": global_step,
        "update": update,
        "train_seconds": elapsed,
    }
    for player in [*pool_players, *([teacher] if teacher else [])]:
        player.close()
    if config.final_eval_games:
        print(f"\nTrained {global_step} steps ({update} updates) in {elapsed / 60:.1f} min.")
        seed = config.seed + 1_000_003
        plays = [("argmax", False)] + ([("sampled", True)] if config.final_eval_sampled else [])
        for play, sample in plays:
            results = evaluate_now(config, network, eval_opponents, config.final_eval_games, seed, sample)
            summary["final_eval" if play == "argmax" else "final_eval_sampled"] = [
                r.to_dict() for r in results
            ]
            print(
                f"Evaluation of the final policy, {play} play, each pair of games from a random opening of "
                f"{config.eval_opening_plies} plies:"
            )
            print(format_table(results))
        (run_dir / "final_eval.json").write_text(json.dumps(summary, indent=2))
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = config_parser(__doc__, describe_keys(), "YAML file of config keys")
    parser.add_argument("--resume", action="store_true", help="continue runs/<name>/checkpoints/latest.pt")
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="replace the run in runs/<name>/ (its checkpoints and logs are deleted first)",
    )
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
    sys.exit(main())
