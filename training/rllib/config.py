"""Options of RLlib self-play: one typed dataclass whose fields are the YAML keys.

Same conventions and machinery (`ConfigKeys`) as `training/config.py` (native PPO): `load_config(path, overrides)` reads a
YAML file plus `--key value` overrides and rejects unknown keys, wrong types and bad values with
a ValueError naming the key. Every field's meaning is in its `doc` metadata (`--help` prints it).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from training.config import ConfigKeys, reject_invalid

GAMES = ("hoyito", "hive")


@dataclass
class RLlibConfig:
    # --- run ---
    name: str = field(default="rllib_run", metadata={"doc": "run name; outputs go to <runs_dir>/<name>/"})
    runs_dir: str = field(default="runs", metadata={"doc": "directory holding one folder per run"})
    seed: int = field(default=1, metadata={"doc": "seed of RLlib (env runners, modules) and the league"})
    # --- game ---
    game: str = field(default="hoyito", metadata={"doc": "'hoyito' or 'hive'"})
    game_options: dict = field(
        default_factory=dict, metadata={"doc": "options of the game's env (e.g. holes_per_row: 6)"}
    )
    # --- network (the package's own classes; exported as a state-dict copy) ---
    network: str = field(
        default="mlp",
        metadata={
            "doc": "'mlp', 'hoyito_lookahead' (mlp + two-ply rule features per action, Hoyito only) "
            "or 'hexconv' (Hive planes on the hex torus)"
        },
    )
    hidden_sizes: list = field(default_factory=lambda: [128, 128], metadata={"doc": "mlp: hidden widths"})
    conv_channels: int = field(default=32, metadata={"doc": "hexconv: channels of the trunk"})
    conv_blocks: int = field(default=2, metadata={"doc": "hexconv: residual blocks in the trunk"})
    # --- scale ---
    num_env_runners: int = field(
        default=2, metadata={"doc": "parallel env-runner actors (1 CPU each); 0 = sample in the driver"}
    )
    num_envs_per_env_runner: int = field(default=1, metadata={"doc": "games stepped by each env runner"})
    num_learners: int = field(
        default=0, metadata={"doc": "learner actors (0 = learn in the driver; >1 = data-parallel DDP)"}
    )
    num_gpus_per_learner: float = field(default=0.0, metadata={"doc": "GPUs per learner (0 = CPU)"})
    # --- budget ---
    iterations: int = field(default=100, metadata={"doc": "stop after this many RLlib training iterations"})
    time_limit_minutes: float = field(
        default=0.0, metadata={"doc": "also stop after this much wall time (checked per iteration); 0 = none"}
    )
    # --- PPO (RLlib's names) ---
    train_batch_size: int = field(
        default=4000, metadata={"doc": "env steps (both seats) sampled per training iteration"}
    )
    minibatch_size: int = field(default=500, metadata={"doc": "PPO minibatch size"})
    num_epochs: int = field(default=4, metadata={"doc": "PPO passes over each train batch"})
    lr: float = field(default=1e-3, metadata={"doc": "Adam learning rate"})
    gamma: float = field(default=1.0, metadata={"doc": "discount per own decision (final reward only)"})
    lambda_: float = field(default=0.95, metadata={"doc": "GAE lambda"})
    clip_param: float = field(default=0.2, metadata={"doc": "PPO ratio clip"})
    entropy_coeff: float = field(default=0.01, metadata={"doc": "entropy bonus weight"})
    vf_loss_coeff: float = field(default=0.5, metadata={"doc": "value loss weight"})
    # --- league ---
    self_play_share: float = field(
        default=0.5,
        metadata={"doc": "share of games main vs main (both seats learn); the rest main vs a league member"},
    )
    win_rate_threshold: float = field(
        default=0.8,
        metadata={
            "doc": "main's win rate vs the league (since the last snapshot) that freezes a new snapshot"
        },
    )
    min_league_games: int = field(
        default=200, metadata={"doc": "league games since the last snapshot before the threshold is checked"}
    )
    max_league_size: int = field(
        default=8, metadata={"doc": "frozen snapshots kept (oldest dropped; 'random' always stays)"}
    )
    # --- outputs ---
    export_every: int = field(
        default=10, metadata={"doc": "export main to our checkpoint format every this many iterations"}
    )
    eval_games: int = field(
        default=400, metadata={"doc": "final evaluate.py match per opponent (random, greedy); 0 = none"}
    )

    def __post_init__(self) -> None:
        checks = {
            "game": self.game in GAMES,
            "network": self.network in ("mlp", "hoyito_lookahead", "hexconv")
            and (self.network != "hoyito_lookahead" or self.game == "hoyito"),
            "hidden_sizes": all(isinstance(h, int) and h > 0 for h in self.hidden_sizes),
            "conv_channels": self.conv_channels >= 1,
            "conv_blocks": self.conv_blocks >= 0,
            "num_env_runners": self.num_env_runners >= 0,
            "num_envs_per_env_runner": self.num_envs_per_env_runner >= 1,
            "num_learners": self.num_learners >= 0,
            "num_gpus_per_learner": self.num_gpus_per_learner >= 0,
            "iterations": self.iterations >= 1,
            "time_limit_minutes": self.time_limit_minutes >= 0,
            "train_batch_size": self.train_batch_size >= 1,
            "minibatch_size": 1 <= self.minibatch_size <= self.train_batch_size,
            "num_epochs": self.num_epochs >= 1,
            "lr": self.lr > 0,
            "gamma": 0.0 <= self.gamma <= 1.0,
            "lambda_": 0.0 <= self.lambda_ <= 1.0,
            "clip_param": self.clip_param > 0,
            "self_play_share": 0.0 <= self.self_play_share < 1.0,
            "win_rate_threshold": 0.0 < self.win_rate_threshold <= 1.0,
            "min_league_games": self.min_league_games >= 1,
            "max_league_size": self.max_league_size >= 1,
            "export_every": self.export_every >= 1,
            "eval_games": self.eval_games == 0 or self.eval_games >= 2,
        }
        reject_invalid(self, checks)

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
FIELDS = KEYS.fields
TYPES = KEYS.types
doc_of = KEYS.doc_of


def config_from_dict(values: dict[str, Any]) -> RLlibConfig:
    """A config from YAML keys; unknown keys and wrong types raise ValueError naming the key."""
    return KEYS.from_dict(values)


def load_config(path: str | Path | None, overrides: dict[str, Any] | None = None) -> RLlibConfig:
    return KEYS.load(path, overrides)


def describe_keys() -> str:
    return KEYS.describe()
