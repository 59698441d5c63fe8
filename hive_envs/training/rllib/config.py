"""Options of RLlib self-play: one typed dataclass whose fields are the YAML keys.

Same conventions and machinery (hive_envs/training/config_keys.py) as `hive_envs/training/config.py` (native PPO):
`load_config(path, overrides)` reads a YAML file plus `--key value` overrides and rejects unknown
keys, wrong types and values outside a key's allowed range with a ValueError naming the key.
Every field's meaning is in its `doc` metadata, its allowed values in `allowed` (`--help`
prints both).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from hive_envs.agents.network_kinds import network_kind
from hive_envs.games import GAMES as ALL_GAMES
from hive_envs.games import game_entry
from hive_envs.training.config_keys import (
    FOLDER_NAME,
    NOT_EMPTY,
    SEED,
    KeyedConfig,
    Rule,
    above,
    at_least,
    between,
    check_fields,
    key,
    one_of,
    reject,
    zero_or_at_least,
)
from hive_envs.training.game_lookup import network_rules
from hive_envs.training.network_choice import (
    NETWORK,
    check_network,
    check_network_game,
    config_network_spec,
    network_config_keys,
)

GAMES = tuple(name for name, definition in ALL_GAMES.items() if definition.ref("aec_env") is not None)
"""The games with a PettingZoo env (RLlib plays those), as registered when this module is imported."""


@dataclass
class RLlibConfig(KeyedConfig):
    # --- run ---
    name: str = key("rllib_run", "run name; outputs go to <runs_dir>/<name>/", FOLDER_NAME)
    runs_dir: str = key("runs", "directory holding one folder per run", NOT_EMPTY)
    seed: int = key(1, "seed of RLlib (env runners, modules) and the league", SEED)
    # --- game ---
    game: str = key("hoyito", "the game: " + ", ".join(repr(name) for name in GAMES), one_of(*GAMES))
    game_options: dict = key({}, "options of the game's env (e.g. holes_per_row: 6)")
    # --- network (the package's own classes, exported as a state-dict copy; as hive_envs/training/config.py) ---
    network: str = key(
        "mlp",
        "the network kind: 'mlp', 'hexconv' or one of the game's own kinds (its definition's "
        "agents.networks; --help lists them)",
        NETWORK,
    )
    hidden_sizes: list[int] = key([128, 128], "the mlp trunk's hidden widths", at_least(1))
    conv_channels: int = key(32, "the hex-convolution trunk's channels", at_least(1))
    conv_blocks: int = key(2, "the hex-convolution trunk's residual blocks", at_least(0))
    network_options: dict = key(
        {}, "the network kind's own options, checked by its options class; {} = its defaults"
    )
    init_from_rule: bool = key(
        False, "start from the kind's hand-written rule (a network with a rule value; as hive-train's key)"
    )
    # --- scale ---
    num_env_runners: int = key(
        2, "parallel env-runner actors (1 CPU each); 0 = sample in the driver", at_least(0)
    )
    num_envs_per_env_runner: int = key(1, "games stepped by each env runner", at_least(1))
    num_learners: int = key(
        0, "learner actors (0 = learn in the driver; >1 = data-parallel DDP)", at_least(0)
    )
    num_gpus_per_learner: float = key(0.0, "GPUs per learner (0 = CPU)", at_least(0))
    # --- budget ---
    iterations: int = key(100, "stop after this many RLlib training iterations", at_least(1))
    time_limit_minutes: float = key(
        0.0, "also stop after this much wall time (checked per iteration); 0 = none", at_least(0)
    )
    # --- PPO (RLlib's names) ---
    train_batch_size: int = key(4000, "env steps (both seats) sampled per training iteration", at_least(1))
    minibatch_size: int = key(500, "PPO minibatch size", at_least(1))
    num_epochs: int = key(4, "PPO passes over each train batch", at_least(1))
    lr: float = key(1e-3, "Adam learning rate", above(0))
    gamma: float = key(1.0, "discount per own decision (final reward only)", between(0, 1))
    lambda_: float = key(0.95, "GAE lambda", between(0, 1))
    clip_param: float = key(0.2, "PPO ratio clip", above(0))
    entropy_coeff: float = key(0.01, "entropy bonus weight", at_least(0))
    shaping_coef: float = key(
        0.0,
        "potential-based reward shaping weight (0 = off), through the env's reward_shaping option with "
        "the game's potential (Hive: queen_margin, Hoyito: captured_margin) and shaping_gamma = gamma",
        at_least(0),
    )
    vf_loss_coeff: float = key(0.5, "value loss weight", at_least(0))
    # --- league ---
    self_play_share: float = key(
        0.5,
        "share of games main vs main (both seats learn); the rest main vs a league member",
        between(0, 1, high_open=True),
    )
    win_rate_threshold: float = key(
        0.8,
        "main's win rate vs the league (since the last snapshot) that freezes a new snapshot",
        Rule("0 < value <= 1", lambda value: 0 < value <= 1),
    )
    min_league_games: int = key(
        200, "league games since the last snapshot before the threshold is checked", at_least(1)
    )
    max_league_size: int = key(
        8, "frozen snapshots kept (oldest dropped; 'random' always stays)", at_least(1)
    )
    # --- outputs ---
    export_every: int = key(
        10, "export main to our checkpoint format every this many iterations", at_least(1)
    )
    eval_games: int = key(
        400, "final evaluate.py match per opponent (the game's eval_opponents); 0 = none", zero_or_at_least(2)
    )

    def __post_init__(self) -> None:
        check_fields(self)
        check_network_game(self)
        if self.shaping_coef and self.gamma != 1.0:
            reject(
                self,
                "shaping_coef",
                self.shaping_coef,
                "0 when gamma < 1 (the league reads each game's result from the summed shaped rewards, "
                "which telescope to the raw result with gamma = 1 only)",
            )
        if self.minibatch_size > self.train_batch_size_per_learner:
            reject(
                self,
                "minibatch_size",
                self.minibatch_size,
                f"<= {self.train_batch_size_per_learner}, the env steps each learner gets per iteration "
                f"(train_batch_size {self.train_batch_size} / {max(1, self.num_learners)} learner(s))",
            )
        check_network(self)

    @property
    def train_batch_size_per_learner(self) -> int:
        return math.ceil(self.train_batch_size / max(1, self.num_learners))

    def env_options(self) -> dict[str, Any]:
        """The env's keyword options: the game options plus, with `shaping_coef` > 0, the env's opt-in
        reward shaping (checkpoints keep only the game options)."""
        if not self.shaping_coef:
            return dict(self.game_options)
        shaping = {
            "reward_shaping": game_entry(self.game).potential,
            "shaping_coef": self.shaping_coef,
        }
        return {**self.game_options, **shaping, "shaping_gamma": self.gamma}

    def network_spec(self) -> dict[str, Any]:
        """The NetworkSpec saved in checkpoints (a network that simulates moves carries the game's
        rules), the same as native training's for the same keys."""
        spec = config_network_spec(self)
        kind = network_kind(self.network)
        if kind.rules is not None:
            spec["rules"] = network_rules(kind, self.game, self.game_options)
        return spec


KEYS = network_config_keys(RLlibConfig)
config_from_dict, load_config, describe_keys = KEYS.from_dict, KEYS.load, KEYS.describe
"""`config_from_dict(values)`: a config of a dict of YAML keys; `load_config(path, overrides)`: of a
YAML file plus `--key value` overrides (unknown keys and bad values raise ValueError naming the key);
`describe_keys()`: the ``--help`` listing (`network_choice.network_config_keys`)."""
