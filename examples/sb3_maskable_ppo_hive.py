"""Train Hive (Base) with SB3-contrib's MaskablePPO, using the env options meant for stock frameworks.

    pip install 'hive_envs[sb3]'
    python examples/sb3_maskable_ppo_hive.py --minutes 20 --out results.json
    python examples/sb3_maskable_ppo_hive.py --steps 100000 --no-shaping
    python examples/sb3_maskable_ppo_hive.py --observation pieces --minutes 20

The env (``--observation planes``, the default): ``gym.make("hive_envs/Hive-v0", opponent="random",
learner_seat="random", rule_features=True, reward_shaping="queen_margin")``. MaskablePPO finds the
legal actions through the env's ``action_masks()``. ``rule_features=True`` puts each legal action's
rule features (Queen-margin change, immediate result, the opponent's best reply;
`hive_envs.hive.feature_observation`) beside the 24x24 planes; ``reward_shaping`` credits progress
toward the opponent's Queen when it happens (the shaped return equals the raw one, so the goal is
unchanged; `hive_envs.hive_v0`).

The policy (`RuleFeaturePolicy`, a MaskableActorCriticPolicy): SB3's NatureCNN needs larger images,
so the planes go through two hex convolutions with torus padding (the package's `HexConv`) and a mean
over the board; each legal action's logit is a small MLP of its rule features and that board summary;
the value reads the board summary, the pooled action features and the position features.

``--observation pieces``: the env's piece-centred observation instead (``observation="pieces"``, one
int16 row per tile and a global row; no rule features), and the package's own network for it
(``hive_pieces``, `hive_envs.hive.agent.pieces_network`) as the whole policy (`PiecesNetworkPolicy`):
its logits and value, no SB3 heads. SB3 hands the int16 rows to the policy as float32 (exact for every
int16; the network reads them back as integers). Rollouts, updates and the evaluation know the legal
actions, so the network scores only those (its listed form); MaskablePPO masks the rest.

PPO: 8 envs x 128 steps per update, minibatches of 256, 4 epochs, lr 3e-3, entropy 0.003 (the
native trainer's Hive settings), gamma 0.95 per learner move for PPO and the shaping: with 0.99 the
argmax policy drew a third of its games against random in a 5-minute probe (it won 99% of its sampled
training games), with 0.95 a win now is worth clearly more than a win later and it finishes them.
Both observations train with these settings, so their figures differ by the input and the policy only.

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
from hive_envs.agents.network_kinds import build_network
from hive_envs.agents.networks import HexConv, action_lists

SHAPING = {"reward_shaping": "queen_margin"}
OBSERVATIONS = {"planes": {"rule_features": True}, "pieces": {"observation": "pieces"}}
"""The env options of each ``--observation``: the planes with their rule features, or the pieces alone."""
PIECES_NETWORK = {"width": 32, "layers": 2, "heads": 1}
"""The ``hive_pieces`` network's options (those of `hive_envs.hive.agent.options.HivePiecesOptions`)."""


# ---------------------------------------------------------------------------------------------- env
def make_env(
    seed: int, shaping: bool = True, gamma: float = 0.95, opponent="random", observation: str = "planes"
) -> gym.Env:
    options = {**SHAPING, "shaping_gamma": gamma} if shaping else {}
    env = gym.make(
        "hive_envs/Hive-v0", opponent=opponent, learner_seat="random", **OBSERVATIONS[observation], **options
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


class PieceRows(BaseFeaturesExtractor):
    """SB3's features-extractor slot for the piece observation: the rows as SB3 preprocessed them (the
    env's int16 Box becomes float32, which holds every int16 exactly), shape unchanged."""

    def __init__(self, observation_space: gym.spaces.Box):
        super().__init__(observation_space, features_dim=int(np.prod(observation_space.shape)))

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return observations


class PiecesNetworkPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's policy as the package's ``hive_pieces`` network (``self.network``, built by
    `build_network`): the action logits and the value are the network's, with no SB3 heads.

    Given the legal actions (the rollouts, the updates and `predict` with ``action_masks``), the
    network scores only those (`listed_policy` over `action_lists` of the mask, ~60 ids instead of
    12,673) and the other logits are 0, which MaskablePPO's masking replaces; without a mask, every
    action id's logit from the network's dense ``forward``. The two agree on the legal actions.
    """

    def __init__(self, *args, network_options: dict | None = None, **kwargs):
        self.network_options = {**PIECES_NETWORK, **(network_options or {})}
        super().__init__(*args, features_extractor_class=PieceRows, **kwargs)

    def _build(self, lr_schedule) -> None:
        spec = {"kind": "hive_pieces", **self.network_options}
        self.network = build_network(spec, self.observation_space.shape, int(self.action_space.n))
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    def logits_and_values(self, obs: torch.Tensor, action_masks=None) -> tuple[torch.Tensor, torch.Tensor]:
        """(logits (B, A), values (B, 1)) of a batch of observations as SB3 holds them; ``action_masks``
        (B, A) (numpy or torch, any dtype, 0 = illegal) or None (the class docstring)."""
        rows = self.extract_features(obs)
        if action_masks is None:
            logits, values = self.network(rows)
            return logits, values.unsqueeze(-1)
        legal = torch.as_tensor(action_masks, dtype=torch.bool).reshape(len(rows), -1)
        ids = action_lists(legal.cpu().numpy(), rows.device)[0]  # (B, K), padded with A
        listed, values = self.network.listed_policy(rows, ids)
        logits = listed.new_zeros(len(rows), legal.shape[1] + 1).scatter(1, ids, listed)[:, :-1]
        return logits, values.unsqueeze(-1)

    def _distribution(self, logits: torch.Tensor, action_masks):
        distribution = self.action_dist.proba_distribution(action_logits=logits)
        if action_masks is not None:
            distribution.apply_masking(action_masks)
        return distribution

    def forward(self, obs, deterministic: bool = False, action_masks=None):
        logits, values = self.logits_and_values(obs, action_masks)
        distribution = self._distribution(logits, action_masks)
        actions = distribution.get_actions(deterministic=deterministic)
        log_prob = distribution.log_prob(actions)
        return actions.reshape((-1, *self.action_space.shape)), values, log_prob

    def evaluate_actions(self, obs, actions, action_masks=None):
        logits, values = self.logits_and_values(obs, action_masks)
        distribution = self._distribution(logits, action_masks)
        return values, distribution.log_prob(actions), distribution.entropy()

    def get_distribution(self, obs, action_masks=None):
        return self._distribution(self.logits_and_values(obs, action_masks)[0], action_masks)

    def predict_values(self, obs) -> torch.Tensor:
        rows = self.extract_features(obs)
        padding = torch.full((len(rows), 1), int(self.action_space.n), device=rows.device)  # no action listed
        return self.network.listed_policy(rows, padding)[1].unsqueeze(-1)


POLICIES = {"planes": RuleFeaturePolicy, "pieces": PiecesNetworkPolicy}


def build(env, seed: int = 0, n_steps: int = 128, gamma: float = 0.95, observation: str = "planes", **ppo):
    """An untrained MaskablePPO model on ``env`` (a gym env or an SB3 VecEnv) with the policy of its
    ``observation`` (`POLICIES`); ``ppo`` overrides MaskablePPO's other arguments."""
    settings = {"batch_size": 256, "n_epochs": 4, "learning_rate": 3e-3, "ent_coef": 0.003, **ppo}
    return MaskablePPO(
        POLICIES[observation],
        env,
        n_steps=n_steps,
        gamma=gamma,
        gae_lambda=0.95,
        seed=seed,
        verbose=0,
        **settings,
    )


def vector_env(
    num_envs: int, seed: int, shaping: bool, gamma: float, observation: str = "planes"
) -> DummyVecEnv:
    return DummyVecEnv(
        [
            lambda i=i: PlyCounter(make_env(seed + i, shaping, gamma, observation=observation))
            for i in range(num_envs)
        ]
    )


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
    parser.add_argument(
        "--observation",
        choices=tuple(OBSERVATIONS),
        default="planes",
        help="the env's observation: planes with rule features (RuleFeaturePolicy), or pieces alone "
        "(the hive_pieces network as the policy)",
    )
    add_shaping_arguments(parser)
    add_run_arguments(parser)
    args = parse_run_arguments(parser, argv)
    if not args.minutes and not args.steps:
        parser.error("give a budget: --minutes > 0 or --steps")
    torch.set_num_threads(args.threads)
    envs = vector_env(args.envs, args.seed, not args.no_shaping, args.gamma, args.observation)
    model = build(envs, args.seed, gamma=args.gamma, observation=args.observation)
    clock = TrainingClock()
    model.learn(total_timesteps=args.steps or 10**12, callback=budget_callback(args.minutes or None))
    trained = clock.finish(int(model.num_timesteps), plies_played(envs))
    results = evaluate(
        model, make_env(args.seed, observation=args.observation), args.eval_games, args.seed + 1
    )
    budget = {"budget_minutes": args.minutes or None, "budget_steps": args.steps}
    policy = {"observation": args.observation, "policy": type(model.policy).__name__}
    if args.observation == "pieces":
        policy["network"] = {"kind": "hive_pieces", **model.policy.network_options}
    report(
        args,
        argv,
        Path(__file__).name,
        results,
        **budget,
        **policy,
        shaping=not args.no_shaping,
        gamma=args.gamma,
        **trained,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
