"""The learned-evaluation trainer's options (`hive_envs.training.eval_training`): one typed dataclass
whose fields are the YAML keys, checked as `TrainConfig`'s are (hive_envs/training/config_keys.py).

    config = load_config("experiments/hive_eval", {"generations": 2})     # a config of the package, or a file
"""

from __future__ import annotations

from dataclasses import dataclass

from hive_envs.training.config import GAME
from hive_envs.training.config_keys import (
    FOLDER_NAME,
    NOT_EMPTY,
    SEED,
    ConfigKeys,
    KeyedConfig,
    above,
    at_least,
    between,
    check_fields,
    key,
    reject,
)


@dataclass
class EvalTrainConfig(KeyedConfig):
    # --- run ---
    name: str = key("eval", "run name; outputs go to <runs_dir>/<name>/", FOLDER_NAME)
    runs_dir: str = key("runs", "directory holding one folder per run", NOT_EMPTY)
    seed: int = key(1, "seed of torch, numpy and the self-play games", SEED)
    num_threads: int = key(1, "torch CPU threads for the training steps (0 = torch's default)", at_least(0))
    time_limit_minutes: float = key(
        0.0,
        "wall-time budget over every --resume of the run: a generation starts only if the longest one so "
        "far would end within it; 0 = no limit",
        at_least(0),
    )
    # --- game ---
    game: str = key("hive", "the game (its alpha-beta searcher must have a learned evaluation)", GAME)
    game_options: dict = key({}, "options of the game (e.g. expansions: MLP), as its envs take them")
    # --- network (hive_envs/training/eval_network.py) ---
    width: int = key(32, "units of the feature layer per perspective (H)", between(1, 256))
    hidden: int = key(32, "units of the hidden layer (L)", between(1, 256))
    # --- self-play (hive_envs/training/eval_selfplay.py) ---
    generations: int = key(
        10,
        "generations to train: each plays games_per_generation games with the last generation's "
        "network (the first: the hand evaluation) and trains the next network on them",
        at_least(1),
    )
    games_per_generation: int = key(200, "self-play games a generation plays", at_least(2))
    play_depth: int = key(3, "plies the self-play search looks ahead (alphabeta:D)", between(1, 12))
    opening_plies_min: int = key(2, "each game opens with a number of random plies from this", at_least(0))
    opening_plies_max: int = key(8, "... to this", at_least(0))
    workers: int = key(2, "processes playing the self-play games (1: the trainer's own)", at_least(1))
    # --- targets (hive_envs/training/eval_targets.py) ---
    score_weight: float = key(
        0.7,
        "the target's share of the search's score (as a win probability); the rest is the game's result",
        between(0, 1),
    )
    # --- training ---
    window_generations: int = key(
        3,
        "a generation trains on the data of this many generations, its own and the ones before",
        at_least(1),
    )
    epochs: int = key(4, "passes over the window's training positions per generation", at_least(1))
    batch_size: int = key(1024, "positions per gradient step", at_least(1))
    learning_rate: float = key(1e-3, "Adam learning rate", above(0))
    validation_share: float = key(
        0.1, "share of each generation's games held out to measure the loss", between(0, 0.5)
    )
    # --- evaluation (one point of the learning curve per generation) ---
    eval_games: int = key(
        0,
        "after each generation, games (even) of its network's search against the hand evaluation's, "
        "both seats, from paired random openings; 0 = none",
        at_least(0),
    )
    eval_depth: int = key(
        3, "plies of both sides' searches in those games (with eval_move_time 0)", between(1, 12)
    )
    eval_move_time: float = key(
        0.0, "seconds per move of both sides in those games instead of eval_depth; 0 = by depth", at_least(0)
    )
    eval_opening_plies: int = key(4, "random plies opening each pair of evaluation games", at_least(0))

    def __post_init__(self) -> None:
        check_fields(self)
        if self.opening_plies_max < self.opening_plies_min:
            reject(
                self,
                "opening_plies_max",
                self.opening_plies_max,
                f">= opening_plies_min ({self.opening_plies_min})",
            )
        if self.eval_games % 2:
            reject(self, "eval_games", self.eval_games, "an even number (each opening with both seats)")


KEYS = ConfigKeys(EvalTrainConfig)
config_from_dict, load_config, describe_keys = KEYS.from_dict, KEYS.load, KEYS.describe
"""`load_config(path, overrides)`: a YAML file (or a config of the package by name) plus `--key value`
overrides, unknown keys and bad values refused with a ValueError naming the key."""
