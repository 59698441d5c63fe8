"""Training options: one typed dataclass whose fields are the YAML keys.

`load_config(path, overrides)` reads a YAML file, applies `--key value` overrides from the
command line, and rejects unknown keys, values of the wrong type and values outside a key's
allowed range with a ValueError naming the key (machinery: training/config_keys.py). Every
field's meaning is in its `doc` metadata and its allowed values in `allowed` (both printed by
`--help`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from training.config_keys import (
    FOLDER_NAME,
    NOT_EMPTY,
    SEED,
    ConfigKeys,
    above,
    at_least,
    between,
    check_fields,
    one_of,
    reject,
    zero_or_at_least,
)

NETWORKS = ("mlp", "hoyito_lookahead", "hexconv", "hive_lookahead")


@dataclass
class TrainConfig:
    # --- run ---
    name: str = field(
        default="run", metadata={"allowed": FOLDER_NAME, "doc": "run name; outputs go to <runs_dir>/<name>/"}
    )
    runs_dir: str = field(
        default="runs", metadata={"allowed": NOT_EMPTY, "doc": "directory holding one folder per run"}
    )
    seed: int = field(
        default=1,
        metadata={
            "allowed": SEED,
            "doc": "seed of torch, numpy and the games (reproducible on one device and thread count)",
        },
    )
    device: str = field(
        default="auto",
        metadata={
            "allowed": one_of("auto", "cpu", "cuda"),
            "doc": "'cpu', 'cuda', or 'auto' (cuda when available, else cpu)",
        },
    )
    num_threads: int = field(
        default=0, metadata={"allowed": at_least(0), "doc": "torch CPU threads; 0 = leave torch's default"}
    )
    # --- game ---
    game: str = field(
        default="hoyito",
        metadata={"doc": "'hoyito', 'hive', or 'module:Class' of any class with the batch API"},
    )
    game_options: dict = field(
        default_factory=dict,
        metadata={"doc": "options of the game (e.g. holes_per_row: 6), as the env takes them"},
    )
    # --- network ---
    network: str = field(
        default="mlp",
        metadata={
            "allowed": one_of(*NETWORKS),
            "doc": "'mlp' (flattened observation), 'hoyito_lookahead' (mlp + two-ply rule features per "
            "action, Hoyito only), 'hexconv' (Hive planes on the hex torus) or 'hive_lookahead' "
            "(hexconv + two-ply rule features per action, Hive only)",
        },
    )
    hidden_sizes: list[int] = field(
        default_factory=lambda: [256, 256],
        metadata={"allowed": at_least(1), "doc": "mlp: widths of the hidden layers"},
    )
    conv_channels: int = field(
        default=64, metadata={"allowed": at_least(1), "doc": "hexconv, hive_lookahead: channels of the trunk"}
    )
    conv_blocks: int = field(
        default=4,
        metadata={
            "allowed": at_least(0),
            "doc": "hexconv, hive_lookahead: residual blocks in the trunk (0 = stem only)",
        },
    )
    # --- budget ---
    total_steps: int = field(
        default=1_000_000,
        metadata={"allowed": at_least(1), "doc": "stop after this many env steps (plies over all games)"},
    )
    time_limit_minutes: float = field(
        default=0.0,
        metadata={
            "allowed": at_least(0),
            "doc": "also stop after this much training wall time; 0 = no limit",
        },
    )
    # --- rollouts ---
    num_games: int = field(
        default=128, metadata={"allowed": at_least(1), "doc": "games played at once in the batch"}
    )
    rollout_steps: int = field(
        default=64,
        metadata={"allowed": at_least(1), "doc": "batch steps per rollout (one ply in every game each)"},
    )
    # --- PPO ---
    learning_rate: float = field(default=3e-4, metadata={"allowed": above(0), "doc": "Adam learning rate"})
    anneal_lr: bool = field(
        default=True, metadata={"doc": "decay the learning rate linearly to 0 over total_steps"}
    )
    gamma: float = field(
        default=1.0,
        metadata={
            "allowed": between(0, 1),
            "doc": "discount per own decision (final reward only, so 1.0 is natural)",
        },
    )
    gae_lambda: float = field(
        default=0.95, metadata={"allowed": between(0, 1), "doc": "GAE lambda along each seat's own decisions"}
    )
    shaping_coef: float = field(
        default=0.0,
        metadata={
            "allowed": at_least(0),
            "doc": "potential-based reward shaping weight (0 = off); the potential is the game's "
            "progress measure (Hive: Queen margin); leaves the objective unchanged (training/selfplay.py)",
        },
    )
    update_epochs: int = field(
        default=4, metadata={"allowed": at_least(1), "doc": "passes over each rollout"}
    )
    num_minibatches: int = field(default=4, metadata={"allowed": at_least(1), "doc": "minibatches per pass"})
    clip_coef: float = field(default=0.2, metadata={"allowed": above(0), "doc": "PPO ratio clip"})
    clip_value: bool = field(default=True, metadata={"doc": "clip the value update as PPO2 does"})
    vf_coef: float = field(default=0.5, metadata={"allowed": at_least(0), "doc": "value loss weight"})
    ent_coef: float = field(
        default=0.01,
        metadata={"allowed": at_least(0), "doc": "entropy bonus weight (entropy over legal actions)"},
    )
    max_grad_norm: float = field(default=0.5, metadata={"allowed": above(0), "doc": "gradient norm clip"})
    norm_adv: bool = field(default=True, metadata={"doc": "normalise advantages per minibatch"})
    # --- opponents ---
    pool_share: float = field(
        default=0.2,
        metadata={
            "allowed": between(0, 1, high_open=True),
            "doc": "share of games played against a past checkpoint (rest: self-play)",
        },
    )
    pool_size: int = field(
        default=10,
        metadata={"allowed": at_least(0), "doc": "past policies kept in the opponent pool (oldest dropped)"},
    )
    pool_add_every: int = field(
        default=10,
        metadata={
            "allowed": at_least(1),
            "doc": "add the current policy to the pool every this many updates",
        },
    )
    # --- outputs ---
    checkpoint_every: int = field(
        default=50,
        metadata={
            "allowed": at_least(1),
            "doc": "write a checkpoint every this many updates (and at the end)",
        },
    )
    eval_every: int = field(
        default=25,
        metadata={
            "allowed": at_least(0),
            "doc": "evaluate vs random and greedy every this many updates; 0 = never",
        },
    )
    eval_games: int = field(
        default=100,
        metadata={"allowed": at_least(2), "doc": "games per periodic evaluation (half in each seat)"},
    )
    eval_sample: bool = field(
        default=False,
        metadata={
            "doc": "evaluations sample moves from the policy (as in training) instead of playing argmax; "
            "a deterministic Hive policy can shuffle into 300-ply draws (docs/training.md)"
        },
    )
    final_eval_games: int = field(
        default=400,
        metadata={
            "allowed": zero_or_at_least(2),
            "doc": "games per opponent in the evaluation printed at the end; 0 = none",
        },
    )

    def __post_init__(self) -> None:
        check_fields(self)
        if self.num_minibatches > self.min_trained_decisions:
            reject(
                self,
                "num_minibatches",
                self.num_minibatches,
                f"<= {self.min_trained_decisions}, the fewest decisions an update trains on: "
                f"{self.num_games - self.pool_games} self-play games x rollout_steps {self.rollout_steps}",
            )

    @property
    def pool_games(self) -> int:
        """Games of each rollout played against a past policy from the pool (when it has one)."""
        return round(self.pool_share * self.num_games)

    @property
    def min_trained_decisions(self) -> int:
        """Every decision of a self-play game is trained (pool games add the learner's only)."""
        return (self.num_games - self.pool_games) * self.rollout_steps

    def network_spec(self) -> dict[str, Any]:
        if self.network == "mlp":
            return {"kind": "mlp", "hidden_sizes": list(self.hidden_sizes)}
        if self.network == "hoyito_lookahead":  # the rule options are added from the game (train.py)
            return {"kind": "hoyito_lookahead", "hidden_sizes": list(self.hidden_sizes)}
        # hive_lookahead: the game options are added from the game (ppo_selfplay.network_spec)
        return {"kind": self.network, "channels": self.conv_channels, "blocks": self.conv_blocks}

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


KEYS = ConfigKeys(TrainConfig)


def config_from_dict(values: dict[str, Any]) -> TrainConfig:
    """Build a config from a dict of YAML keys; unknown keys and bad values raise ValueError."""
    return KEYS.from_dict(values)


def load_config(path: str | Path | None, overrides: dict[str, Any] | None = None) -> TrainConfig:
    return KEYS.load(path, overrides)


def describe_keys() -> str:
    """One line per key: name, type, default, allowed values, doc (for --help)."""
    return KEYS.describe()
