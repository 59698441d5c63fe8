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
import sys
from pathlib import Path

import gymnasium as gym
import torch

# examples/ is not installed: `examples.sb3_evaluation` comes from the checkout
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import hive_envs  # noqa: F401  (registers the hive_envs/ ids)
from examples.sb3_evaluation import (
    PlyCounter,
    TrainingClock,
    add_run_arguments,
    evaluate,
    parse_run_arguments,
    plies_played,
    report,
)


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
    parser.add_argument("--holes-per-row", type=int, default=6)
    parser.add_argument("--shaping", action="store_true", help="the env's captured-margin reward shaping")
    add_run_arguments(parser)
    args = parse_run_arguments(parser, argv)
    torch.set_num_threads(args.threads)
    env = PlyCounter(make_env(args.seed, args.holes_per_row, shaping=args.shaping))
    model = build(args.seed, args.holes_per_row, env=env)
    clock = TrainingClock()
    model.learn(total_timesteps=args.steps)
    trained = clock.finish(int(model.num_timesteps), plies_played(model.get_env()))
    results = evaluate(model, make_env(args.seed, args.holes_per_row), args.eval_games, args.seed + 1)
    budget = {"budget_steps": args.steps, "holes_per_row": args.holes_per_row, "shaping": args.shaping}
    report(args, argv, Path(__file__).name, results, **budget, **trained)
    return 0


if __name__ == "__main__":
    sys.exit(main())
