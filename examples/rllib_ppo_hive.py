"""Train Hive (Base) with RLlib's PPO and its default model, as a stock RLlib user would, shaping on.

    pip install 'hive_envs[rllib]'
    python examples/rllib_ppo_hive.py --minutes 15 --out results.json
    python examples/rllib_ppo_hive.py --minutes 15 --no-shaping

The env: ``gym.make("hive_envs/Hive-v0", opponent="random", learner_seat="random",
reward_shaping="queen_margin", shaping_gamma=gamma)``, its 42x24x24 planes flattened and scaled to
[0, 1] beside its action mask (`MaskedFlatObservation`), the Dict layout RLlib's own action-masking
module reads. The module is RLlib's: `ActionMaskingTorchRLModule` from RLlib's examples, which is
`DefaultPPOTorchRLModule` (the catalog's MLP encoder, ``fcnet_hiddens`` 256x256, separate policy and
value heads) with the logits of illegal actions pushed to RLlib's FLOAT_MIN. Nothing of the package's
networks or rule features is used: this is what the env gives a framework's default model. (RLlib's
default CNN filters exist only for a few image sizes, none 24x24, hence the flattening.)

PPO on RLlib's new API stack, sampling in the driver (``num_env_runners=0``, ``--envs`` games per
vector step) and learning there: 2,048 learner steps per iteration, minibatches of 256, 4 epochs,
lr 3e-4, entropy 0.003, gamma 0.95 per learner move (PPO and the shaping, as the SB3 example). RLlib's
defaults (30 epochs, lr 5e-5) would spend the budget on few updates; these are the SB3 example's.

At the end the argmax policy plays ``--eval-games`` games against random and against greedy from the
arena's random openings, each once with each seat (`examples/sb3_evaluation.py`), and the script
prints W/D/L and win rates with 95% Wilson intervals (``--out`` also writes them, with the budget in
learner steps and plies, as JSON).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # examples/ and training/ are not installed

import hive_envs  # noqa: F401  (registers the hive_envs/ ids)
from examples.sb3_evaluation import (
    PlyCounter,
    TrainingClock,
    add_run_arguments,
    add_shaping_arguments,
    evaluate,
    parse_run_arguments,
    plies_played,
    report,
)

ENV_NAME = "hive_envs_hive_masked_flat"


class MaskedFlatObservation(gym.ObservationWrapper):
    """The planes as one float32 vector in [0, 1] beside the action mask: ``Dict(observations=Box(P*C*C),
    action_mask=Box(0, 1, (A,)))``, the layout of RLlib's `ActionMaskingTorchRLModule`."""

    def __init__(self, env: gym.Env):
        super().__init__(env)
        planes = env.observation_space
        self.scale = (1.0 / planes.high.reshape(-1)).astype(np.float32)
        self.observation_space = gym.spaces.Dict(
            {
                "observations": gym.spaces.Box(0.0, 1.0, (planes.high.size,), np.float32),
                "action_mask": gym.spaces.Box(0.0, 1.0, (env.action_space.n,), np.float32),
            }
        )

    def observation(self, planes: np.ndarray) -> dict[str, np.ndarray]:
        return self.of(planes, self.env.unwrapped.action_masks())

    def of(self, planes: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
        return {"observations": planes.reshape(-1) * self.scale, "action_mask": mask.astype(np.float32)}


def make_env(seed: int | None = None, shaping: bool = True, gamma: float = 0.95) -> MaskedFlatObservation:
    options = {"reward_shaping": "queen_margin", "shaping_gamma": gamma} if shaping else {}
    env = gym.make("hive_envs/Hive-v0", opponent="random", learner_seat="random", **options)
    env = MaskedFlatObservation(PlyCounter(env))
    if seed is not None:
        env.reset(seed=seed)
    return env


class ModulePolicy:
    """An RLlib module's argmax over the legal actions, with SB3's ``predict`` signature (for `evaluate`)."""

    def __init__(self, module, env: MaskedFlatObservation):
        self.module, self.env = module, env

    def predict(self, planes, action_masks, deterministic=True):
        from ray.rllib.core.columns import Columns

        obs = self.env.of(planes, action_masks)
        batch = {Columns.OBS: {key: torch.as_tensor(value)[None] for key, value in obs.items()}}
        with torch.no_grad():
            logits = self.module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
        return int(torch.argmax(logits)), None


def build(args, shaping: bool):
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    register_env(ENV_NAME, lambda config: make_env(shaping=config["shaping"], gamma=config["gamma"]))
    config = (
        PPOConfig()
        .environment(ENV_NAME, env_config={"shaping": shaping, "gamma": args.gamma})
        .env_runners(num_env_runners=0, num_envs_per_env_runner=args.envs)
        .rl_module(rl_module_spec=RLModuleSpec(module_class=ActionMaskingTorchRLModule))
        .training(
            gamma=args.gamma,
            lr=3e-4,
            train_batch_size_per_learner=2048,
            minibatch_size=256,
            num_epochs=4,
            entropy_coeff=0.003,
        )
        .debugging(seed=args.seed)
    )
    return config.build_algo()


def plies_sampled(algo) -> int:
    """The plies played in the env runner of the driver (its vector env's `PlyCounter`s)."""
    return plies_played(algo.env_runner.env.unwrapped)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--minutes", type=float, default=15.0, help="wall-time budget of training")
    parser.add_argument("--envs", type=int, default=8, help="games per vector step of the env runner")
    add_shaping_arguments(parser)
    add_run_arguments(parser)
    args = parse_run_arguments(parser, argv)
    if args.minutes <= 0:
        parser.error(f"--minutes must be > 0, got {args.minutes}")
    os.environ.setdefault("RAY_worker_niceness", "0")  # see docs/rllib.md: Ray's niceness 15 starves workers
    import ray

    torch.set_num_threads(args.threads)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        algo = build(args, not args.no_shaping)
        clock, iterations = TrainingClock(), 0
        while clock.elapsed() < 60 * args.minutes:
            algo.train()
            iterations += 1
            print(
                f"{clock.elapsed() / 60:5.1f} min  iteration {iterations:3d}  {plies_sampled(algo):8d} plies",
                flush=True,
            )
        steps = int(algo.metrics.peek(("env_runners", "num_env_steps_sampled_lifetime")))
        trained = clock.finish(steps, plies_sampled(algo), f", {iterations} iterations")
        env = make_env(args.seed)
        policy = ModulePolicy(algo.get_module(), env)
        results = evaluate(policy, env, args.eval_games, args.seed + 1, name="rllib_ppo_default_mlp")
        report(
            args, argv, Path(__file__).name, results,
            budget_minutes=args.minutes, shaping=not args.no_shaping, gamma=args.gamma,
            module="ActionMaskingTorchRLModule (DefaultPPOTorchRLModule, MLP 256x256)",
            ray=ray.__version__, iterations=iterations, **trained,
        )  # fmt: skip
        algo.stop()
    finally:
        ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
