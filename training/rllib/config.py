"""Options of RLlib self-play: one typed dataclass whose fields are the YAML keys.

Same conventions and machinery (training/config_keys.py) as `training/config.py` (native PPO):
`load_config(path, overrides)` reads a YAML file plus `--key value` overrides and rejects unknown
keys, wrong types and values outside a key's allowed range with a ValueError naming the key.
Every field's meaning is in its `doc` metadata, its allowed values in `allowed` (`--help`
prints both).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from training.config_keys import (
    FOLDER_NAME,
    NOT_EMPTY,
    SEED,
    ConfigKeys,
    Rule,
    above,
    at_least,
    between,
    check_fields,
    one_of,
    reject,
    zero_or_at_least,
)

GAMES = ("hoyito", "hive")


@dataclass
class RLlibConfig:
    # --- run ---
    name: str = field(
        default="rllib_run",
        metadata={"allowed": FOLDER_NAME, "doc": "run name; outputs go to <runs_dir>/<name>/"},
    )
    runs_dir: str = field(
        default="runs", metadata={"allowed": NOT_EMPTY, "doc": "directory holding one folder per run"}
    )
    seed: int = field(
        default=1, metadata={"allowed": SEED, "doc": "seed of RLlib (env runners, modules) and the league"}
    )
    # --- game ---
    game: str = field(default="hoyito", metadata={"allowed": one_of(*GAMES), "doc": "'hoyito' or 'hive'"})
    game_options: dict = field(
        default_factory=dict, metadata={"doc": "options of the game's env (e.g. holes_per_row: 6)"}
    )
    # --- network (the package's own classes; exported as a state-dict copy) ---
    network: str = field(
        default="mlp",
        metadata={
            "allowed": one_of("mlp", "hoyito_lookahead", "hexconv"),
            "doc": "'mlp', 'hoyito_lookahead' (mlp + two-ply rule features per action, Hoyito only) "
            "or 'hexconv' (Hive planes on the hex torus)",
        },
    )
    hidden_sizes: list[int] = field(
        default_factory=lambda: [128, 128], metadata={"allowed": at_least(1), "doc": "mlp: hidden widths"}
    )
    conv_channels: int = field(
        default=32, metadata={"allowed": at_least(1), "doc": "hexconv: channels of the trunk"}
    )
    conv_blocks: int = field(
        default=2, metadata={"allowed": at_least(0), "doc": "hexconv: residual blocks in the trunk"}
    )
    # --- scale ---
    num_env_runners: int = field(
        default=2,
        metadata={
            "allowed": at_least(0),
            "doc": "parallel env-runner actors (1 CPU each); 0 = sample in the driver",
        },
    )
    num_envs_per_env_runner: int = field(
        default=1, metadata={"allowed": at_least(1), "doc": "games stepped by each env runner"}
    )
    num_learners: int = field(
        default=0,
        metadata={
            "allowed": at_least(0),
            "doc": "learner actors (0 = learn in the driver; >1 = data-parallel DDP)",
        },
    )
    num_gpus_per_learner: float = field(
        default=0.0, metadata={"allowed": at_least(0), "doc": "GPUs per learner (0 = CPU)"}
    )
    # --- budget ---
    iterations: int = field(
        default=100,
        metadata={"allowed": at_least(1), "doc": "stop after this many RLlib training iterations"},
    )
    time_limit_minutes: float = field(
        default=0.0,
        metadata={
            "allowed": at_least(0),
            "doc": "also stop after this much wall time (checked per iteration); 0 = none",
        },
    )
    # --- PPO (RLlib's names) ---
    train_batch_size: int = field(
        default=4000,
        metadata={"allowed": at_least(1), "doc": "env steps (both seats) sampled per training iteration"},
    )
    minibatch_size: int = field(default=500, metadata={"allowed": at_least(1), "doc": "PPO minibatch size"})
    num_epochs: int = field(
        default=4, metadata={"allowed": at_least(1), "doc": "PPO passes over each train batch"}
    )
    lr: float = field(default=1e-3, metadata={"allowed": above(0), "doc": "Adam learning rate"})
    gamma: float = field(
        default=1.0,
        metadata={"allowed": between(0, 1), "doc": "discount per own decision (final reward only)"},
    )
    lambda_: float = field(default=0.95, metadata={"allowed": between(0, 1), "doc": "GAE lambda"})
    clip_param: float = field(default=0.2, metadata={"allowed": above(0), "doc": "PPO ratio clip"})
    entropy_coeff: float = field(
        default=0.01, metadata={"allowed": at_least(0), "doc": "entropy bonus weight"}
    )
    vf_loss_coeff: float = field(default=0.5, metadata={"allowed": at_least(0), "doc": "value loss weight"})
    # --- league ---
    self_play_share: float = field(
        default=0.5,
        metadata={
            "allowed": between(0, 1, high_open=True),
            "doc": "share of games main vs main (both seats learn); the rest main vs a league member",
        },
    )
    win_rate_threshold: float = field(
        default=0.8,
        metadata={
            "allowed": Rule("0 < value <= 1", lambda value: 0 < value <= 1),
            "doc": "main's win rate vs the league (since the last snapshot) that freezes a new snapshot",
        },
    )
    min_league_games: int = field(
        default=200,
        metadata={
            "allowed": at_least(1),
            "doc": "league games since the last snapshot before the threshold is checked",
        },
    )
    max_league_size: int = field(
        default=8,
        metadata={
            "allowed": at_least(1),
            "doc": "frozen snapshots kept (oldest dropped; 'random' always stays)",
        },
    )
    # --- outputs ---
    export_every: int = field(
        default=10,
        metadata={
            "allowed": at_least(1),
            "doc": "export main to our checkpoint format every this many iterations",
        },
    )
    eval_games: int = field(
        default=400,
        metadata={
            "allowed": zero_or_at_least(2),
            "doc": "final evaluate.py match per opponent (random, greedy); 0 = none",
        },
    )

    def __post_init__(self) -> None:
        check_fields(self)
        needs = {"hoyito_lookahead": "hoyito", "hexconv": "hive"}.get(self.network, self.game)
        if needs != self.game:
            reject(
                self,
                "network",
                self.network,
                f"'mlp' or a network for game {self.game!r} (this one needs {needs!r})",
            )
        if self.minibatch_size > self.train_batch_size_per_learner:
            reject(
                self,
                "minibatch_size",
                self.minibatch_size,
                f"<= {self.train_batch_size_per_learner}, the env steps each learner gets per iteration "
                f"(train_batch_size {self.train_batch_size} / {max(1, self.num_learners)} learner(s))",
            )

    @property
    def train_batch_size_per_learner(self) -> int:
        return math.ceil(self.train_batch_size / max(1, self.num_learners))

    def network_spec(self) -> dict[str, Any]:
        """The NetworkSpec saved in checkpoints (`hoyito_lookahead` carries the resolved rules)."""
        if self.network == "mlp":
            return {"kind": "mlp", "hidden_sizes": list(self.hidden_sizes)}
        if self.network == "hoyito_lookahead":
            from hive_envs.hoyito import HoyitoGame

            rules = dataclasses.asdict(HoyitoGame(**self.game_options).options)
            return {
                "kind": "hoyito_lookahead",
                "hidden_sizes": list(self.hidden_sizes),
                "rules": {key: int(value) for key, value in rules.items()},
            }
        return {"kind": "hexconv", "channels": self.conv_channels, "blocks": self.conv_blocks}

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


KEYS = ConfigKeys(RLlibConfig)


def config_from_dict(values: dict[str, Any]) -> RLlibConfig:
    """A config from YAML keys; unknown keys and bad values raise ValueError naming the key."""
    return KEYS.from_dict(values)


def load_config(path: str | Path | None, overrides: dict[str, Any] | None = None) -> RLlibConfig:
    return KEYS.load(path, overrides)


def describe_keys() -> str:
    return KEYS.describe()
