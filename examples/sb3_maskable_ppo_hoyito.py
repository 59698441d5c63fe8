"""Train `Hoyito-v0` with SB3-contrib's MaskablePPO through the env's `action_masks()`.

    pip install 'hive_envs[sb3]'
    python examples/sb3_maskable_ppo_hoyito.py --steps 50000
    python examples/sb3_maskable_ppo_hoyito.py --steps 200000 --shaping --out results.json

The Gymnasium env has one learner seat (drawn at random each game here) and the opponent inside
(uniform random). MaskablePPO finds the legal actions by calling the env's `action_masks()` method,
so it never samples an illegal move; nothing else is needed: the policy is SB3's default
`MlpPolicy`. ``--shaping`` turns on the env's opt-in reward shaping on the captured-counter margin
(`hive_envs.hoyito_v0`). At the end the trained policy (argmax over legal moves) plays
``--eval-games`` games against random and against greedy, half from each seat, from the arena's
random openings (`examples/sb3_evaluation.py`), and the script prints W/D/L and win rates with 95%
Wilson intervals.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import gymnasium as gym
import torch

# examples/ is not installed: `examples.sb3_evaluation` comes from the checkout
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import hive_envs  # noqa: F401  (registers the hive_envs/ ids)
from examples.sb3_evaluation import evaluate, write_report
from training.match import format_table


def make_env(seed: int, holes_per_row: int = 6, opponent="random", shaping: bool = False) -> gym.Env:
    options = {"reward_shaping": "captured_margin"} if shaping else {}
    env = gym.make(
        "hive_envs/Hoyito-v0",
        holes_per_row=holes_per_row,
        opponent=opponent,
        learner_seat="random",
        **options,
    )
    env.reset(seed=seed)
    return env


def build(seed: int = 0, holes_per_row: int = 6, n_steps: int = 512, env: gym.Env | None = None):
    """An untrained MaskablePPO model on a Hoyito env (`env`, or a new one vs random)."""
    from sb3_contrib import MaskablePPO

    env = env if env is not None else make_env(seed, holes_per_row)
    return MaskablePPO("MlpPolicy", env, n_steps=n_steps, batch_size=128, seed=seed, verbose=0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--steps", type=int, default=50_000, help="learner steps of training")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--holes-per-row", type=int, default=6)
    parser.add_argument("--shaping", action="store_true", help="the env's captured-margin reward shaping")
    parser.add_argument("--eval-games", type=int, default=200, help="games per opponent (even)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--out", help="write the budget and the results as JSON here")
    args = parser.parse_args(argv)
    if args.eval_games < 2 or args.eval_games % 2:
        parser.error(f"--eval-games must be an even number >= 2, got {args.eval_games}")
    torch.set_num_threads(args.threads)
    load_before = os.getloadavg()
    model = build(
        args.seed, args.holes_per_row, env=make_env(args.seed, args.holes_per_row, shaping=args.shaping)
    )
    started, cpu_started = time.time(), time.process_time()
    model.learn(total_timesteps=args.steps)
    train_s, cpu_s = time.time() - started, time.process_time() - cpu_started
    load_after = os.getloadavg()
    print(
        f"trained {model.num_timesteps} learner steps in {train_s / 60:.1f} min "
        f"({model.num_timesteps / train_s:.1f} steps/s); load average {load_before} -> {load_after}"
    )
    results = evaluate(model, make_env(args.seed, args.holes_per_row), args.eval_games, args.seed + 1)
    print(format_table(results))
    if args.out:
        write_report(
            args.out, Path(__file__).name, sys.argv[1:] if argv is None else argv, results,
            shaping=args.shaping, torch_threads=args.threads, load_average_before=load_before, load_average_after=load_after,
            learner_steps=int(model.num_timesteps), train_seconds=round(train_s, 1),
            train_cpu_seconds=round(cpu_s, 1), learner_steps_per_second=round(model.num_timesteps / train_s, 1),
            learner_steps_per_cpu_second=round(model.num_timesteps / cpu_s, 1),
        )  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
