"""Train Hive (Base) with SB3-contrib's MaskablePPO, using the env options meant for stock frameworks.

    pip install 'hive_envs[sb3]'
    python examples/sb3_maskable_ppo_hive.py --minutes 20 --out results.json
    python examples/sb3_maskable_ppo_hive.py --steps 100000 --no-shaping

The env: ``gym.make("hive_envs/Hive-v0", opponent="random", learner_seat="random",
rule_features=True, reward_shaping="queen_margin")``. MaskablePPO finds the legal actions through the
env's ``action_masks()``. ``rule_features=True`` puts each legal action's rule features (Queen-margin
change, immediate result, the opponent's best reply; `hive_envs.hive.feature_observation`) beside the
24x24 planes; ``reward_shaping`` credits progress toward the opponent's Queen when it happens (the
shaped return equals the raw one, so the goal is unchanged; `hive_envs.hive_v0`).

The policy (`RuleFeaturePolicy`, a MaskableActorCriticPolicy): SB3's NatureCNN needs larger images,
so the planes go through two hex convolutions with torus padding (the package's `HexConv`) and a mean
over the board; each legal action's logit is a small MLP of its rule features and that board summary;
the value reads the board summary, the pooled action features and the position features.

PPO: 8 envs x 128 steps per update, minibatches of 256, 4 epochs, lr 3e-3, entropy 0.003 (the
native trainer's Hive settings), gamma 0.95 per learner move for PPO and the shaping: with 0.99 the
argmax policy drew a third of its games against random in a 5-minute probe (it won 99% of its sampled
training games), with 0.95 a win now is worth clearly more than a win later and it finishes them.

At the end the argmax policy plays 200 games (``--eval-games``) against random and against greedy,
each opening (2 random plies, as the arena) once with each seat, and the script prints W/D/L and the
win rate with its 95% Wilson interval (``--out`` also writes them, with the budget, as JSON).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env import DummyVecEnv
from torch import nn

# examples/ is not installed: `examples.sb3_evaluation` comes from the checkout
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

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
from hive_envs.agents.networks import HexConv

SHAPING = {"reward_shaping": "queen_margin"}


# ---------------------------------------------------------------------------------------------- env
def make_env(seed: int, shaping: bool = True, gamma: float = 0.95, opponent="random") -> gym.Env:
    options = {**SHAPING, "shaping_gamma": gamma} if shaping else {}
    env = gym.make(
        "hive_envs/Hive-v0", opponent=opponent, learner_seat="random", rule_features=True, **options
    )
    env.reset(seed=seed)
    return env


# ------------------------------------------------------------------------------------------- policy
class RuleFeatureExtractor(BaseFeaturesExtractor):
    """The Dict observation -> [one logit per action | value features] (SB3's features extractor slot).

    Logits of illegal actions are 0 here; MaskablePPO masks them out.
    """

    def __init__(self, observation_space: gym.spaces.Dict, channels: int = 8, hidden: int = 64):
        num_actions = int(observation_space["legal_actions"].high.max())  # also the padding index
        super().__init__(observation_space, features_dim=num_actions + hidden)
        self.num_actions, self.value_dim = num_actions, hidden
        planes = observation_space["observation"]
        self.register_buffer("scale", 1.0 / torch.as_tensor(planes.high[:, :1, :1], dtype=torch.float32))
        self.board = nn.Sequential(
            HexConv(planes.shape[0], channels), nn.ReLU(), HexConv(channels, channels), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(channels, hidden), nn.ReLU(),
        )  # fmt: skip
        n_features = observation_space["action_features"].shape[1]
        n_position = observation_space["position_features"].shape[0]
        self.scorer = nn.Sequential(nn.Linear(n_features + hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        nn.init.normal_(self.scorer[-1].weight, std=0.01)  # near-uniform play at the start
        self.value = nn.Sequential(nn.Linear(hidden + 2 * n_features + n_position, hidden), nn.ReLU())

    def forward(self, obs: dict[str, torch.Tensor]) -> torch.Tensor:
        features = obs["action_features"]
        width = max(int((features[..., 0] > 0).sum(1).max()), 1)  # the longest real row of the batch
        features = features[:, :width]
        real = features[..., :1]  # 1 for a legal action, 0 for padding
        board = self.board(obs["observation"] * self.scale)
        per_action = torch.cat([features, board[:, None].expand(-1, width, -1)], dim=-1)
        scores = self.scorer(per_action).squeeze(-1) * real.squeeze(-1)
        actions = obs["legal_actions"][:, :width].long()
        logits = scores.new_zeros(len(scores), self.num_actions + 1).scatter(1, actions, scores)[:, :-1]
        mean = features.sum(1) / real.sum(1).clamp(min=1.0)
        peak = (features - 2.0 * (1.0 - real)).amax(1)  # padding (all zero) never wins the max
        value = self.value(torch.cat([board, mean, peak, obs["position_features"]], dim=1))
        return torch.cat([logits, value], dim=1)


class SplitLatent(nn.Module):
    """SB3's mlp_extractor slot: the extractor's output split into (action logits, value features)."""

    def __init__(self, num_actions: int, value_dim: int):
        super().__init__()
        self.latent_dim_pi, self.latent_dim_vf = num_actions, value_dim

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        return features[:, : self.latent_dim_pi]

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        return features[:, self.latent_dim_pi :]


class RuleFeaturePolicy(MaskableActorCriticPolicy):
    """MaskablePPO's policy with `RuleFeatureExtractor`'s logits as the action logits (no MLP heads)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, features_extractor_class=RuleFeatureExtractor, **kwargs)

    def _build(self, lr_schedule) -> None:
        extractor = self.features_extractor
        self.mlp_extractor = SplitLatent(extractor.num_actions, extractor.value_dim)
        self.action_net = nn.Identity()
        self.value_net = nn.Linear(extractor.value_dim, 1)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)


def build(env, seed: int = 0, n_steps: int = 128, gamma: float = 0.95, **ppo):
    """An untrained MaskablePPO model with `RuleFeaturePolicy` on ``env`` (a gym env or an SB3 VecEnv);
    ``ppo`` overrides MaskablePPO's other arguments."""
    settings = {"batch_size": 256, "n_epochs": 4, "learning_rate": 3e-3, "ent_coef": 0.003, **ppo}
    return MaskablePPO(
        RuleFeaturePolicy,
        env,
        n_steps=n_steps,
        gamma=gamma,
        gae_lambda=0.95,
        seed=seed,
        verbose=0,
        **settings,
    )


def vector_env(num_envs: int, seed: int, shaping: bool, gamma: float) -> DummyVecEnv:
    return DummyVecEnv([lambda i=i: PlyCounter(make_env(seed + i, shaping, gamma)) for i in range(num_envs)])


def budget_callback(minutes: float | None, log_every_s: float = 60.0):
    """Stops `learn` after ``minutes`` of wall time; prints the training win rate (raw results of the
    episodes finished since the last line) once a minute."""

    class Budget(BaseCallback):
        def _on_training_start(self) -> None:
            self.start = self.last_log = time.time()
            self.results: list[float] = []

        def _on_step(self) -> bool:
            for done, info, reward in zip(self.locals["dones"], self.locals["infos"], self.locals["rewards"]):
                if done:
                    self.results.append(info.get("raw_reward", reward))
            now = time.time()
            if now - self.last_log >= log_every_s and self.results:
                wins = np.mean(np.array(self.results) > 0)
                print(
                    f"{(now - self.start) / 60:5.1f} min  {self.num_timesteps:8d} steps  "
                    f"{self.num_timesteps / (now - self.start):6.1f} steps/s  training games {len(self.results):4d} "
                    f"won {wins:.2f}", flush=True,
                )  # fmt: skip
                self.last_log, self.results = now, []
            return minutes is None or now - self.start < 60 * minutes

    return Budget()


# ---------------------------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--minutes", type=float, default=20.0, help="wall-time budget of training (0 = none)")
    parser.add_argument("--steps", type=int, default=None, help="learner steps of training (default: no cap)")
    parser.add_argument("--envs", type=int, default=8, help="envs stepped together (one policy batch)")
    add_shaping_arguments(parser)
    add_run_arguments(parser)
    args = parse_run_arguments(parser, argv)
    if not args.minutes and not args.steps:
        parser.error("give a budget: --minutes > 0 or --steps")
    torch.set_num_threads(args.threads)
    envs = vector_env(args.envs, args.seed, not args.no_shaping, args.gamma)
    model = build(envs, args.seed, gamma=args.gamma)
    clock = TrainingClock()
    model.learn(total_timesteps=args.steps or 10**12, callback=budget_callback(args.minutes or None))
    trained = clock.finish(int(model.num_timesteps), plies_played(envs))
    results = evaluate(model, make_env(args.seed), args.eval_games, args.seed + 1)
    budget = {"budget_minutes": args.minutes or None, "budget_steps": args.steps}
    report(
        args,
        argv,
        Path(__file__).name,
        results,
        **budget,
        shaping=not args.no_shaping,
        gamma=args.gamma,
        **trained,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
