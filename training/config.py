"""Training options: one typed dataclass whose fields are the YAML keys.

`load_config(path, overrides)` reads a YAML file, applies `--key value` overrides from the
command line, and rejects unknown keys and values of the wrong type with a message naming
the key. Every field's meaning is in its `doc` metadata (printed by `--help`).
"""

from __future__ import annotations

import dataclasses
import difflib
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml


@dataclass
class TrainConfig:
    # --- run ---
    name: str = field(default="run", metadata={"doc": "run name; outputs go to <runs_dir>/<name>/"})
    runs_dir: str = field(default="runs", metadata={"doc": "directory holding one folder per run"})
    seed: int = field(
        default=1,
        metadata={"doc": "seed of torch, numpy and the games (reproducible on one device and thread count)"},
    )
    device: str = field(
        default="auto", metadata={"doc": "'cpu', 'cuda', or 'auto' (cuda when available, else cpu)"}
    )
    num_threads: int = field(default=0, metadata={"doc": "torch CPU threads; 0 = leave torch's default"})
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
            "doc": "'mlp' (flattened observation), 'hoyito_lookahead' (mlp + two-ply rule features per "
            "action, Hoyito only), 'hexconv' (Hive planes on the hex torus) or 'hive_lookahead' "
            "(hexconv + two-ply rule features per action, Hive only)"
        },
    )
    hidden_sizes: list = field(
        default_factory=lambda: [256, 256], metadata={"doc": "mlp: widths of the hidden layers"}
    )
    conv_channels: int = field(default=64, metadata={"doc": "hexconv, hive_lookahead: channels of the trunk"})
    conv_blocks: int = field(
        default=4, metadata={"doc": "hexconv, hive_lookahead: residual blocks in the trunk (0 = stem only)"}
    )
    # --- budget ---
    total_steps: int = field(
        default=1_000_000, metadata={"doc": "stop after this many env steps (plies over all games)"}
    )
    time_limit_minutes: float = field(
        default=0.0, metadata={"doc": "also stop after this much training wall time; 0 = no limit"}
    )
    # --- rollouts ---
    num_games: int = field(default=128, metadata={"doc": "games played at once in the batch"})
    rollout_steps: int = field(
        default=64, metadata={"doc": "batch steps per rollout (one ply in every game each)"}
    )
    # --- PPO ---
    learning_rate: float = field(default=3e-4, metadata={"doc": "Adam learning rate"})
    anneal_lr: bool = field(
        default=True, metadata={"doc": "decay the learning rate linearly to 0 over total_steps"}
    )
    gamma: float = field(
        default=1.0, metadata={"doc": "discount per own decision (final reward only, so 1.0 is natural)"}
    )
    gae_lambda: float = field(default=0.95, metadata={"doc": "GAE lambda along each seat's own decisions"})
    shaping_coef: float = field(
        default=0.0,
        metadata={
            "doc": "potential-based reward shaping weight (0 = off); the potential is the game's "
            "progress measure (Hive: Queen margin); leaves the objective unchanged (training/selfplay.py)"
        },
    )
    update_epochs: int = field(default=4, metadata={"doc": "passes over each rollout"})
    num_minibatches: int = field(default=4, metadata={"doc": "minibatches per pass"})
    clip_coef: float = field(default=0.2, metadata={"doc": "PPO ratio clip"})
    clip_value: bool = field(default=True, metadata={"doc": "clip the value update as PPO2 does"})
    vf_coef: float = field(default=0.5, metadata={"doc": "value loss weight"})
    ent_coef: float = field(
        default=0.01, metadata={"doc": "entropy bonus weight (entropy over legal actions)"}
    )
    max_grad_norm: float = field(default=0.5, metadata={"doc": "gradient norm clip"})
    norm_adv: bool = field(default=True, metadata={"doc": "normalise advantages per minibatch"})
    # --- opponents ---
    pool_share: float = field(
        default=0.2, metadata={"doc": "share of games played against a past checkpoint (rest: self-play)"}
    )
    pool_size: int = field(
        default=10, metadata={"doc": "past policies kept in the opponent pool (oldest dropped)"}
    )
    pool_add_every: int = field(
        default=10, metadata={"doc": "add the current policy to the pool every this many updates"}
    )
    # --- outputs ---
    checkpoint_every: int = field(
        default=50, metadata={"doc": "write a checkpoint every this many updates (and at the end)"}
    )
    eval_every: int = field(
        default=25, metadata={"doc": "evaluate vs random and greedy every this many updates; 0 = never"}
    )
    eval_games: int = field(
        default=100, metadata={"doc": "games per periodic evaluation (half in each seat)"}
    )
    eval_sample: bool = field(
        default=False,
        metadata={
            "doc": "evaluations sample moves from the policy (as in training) instead of playing argmax; "
            "a deterministic Hive policy can shuffle into 300-ply draws (docs/training.md)"
        },
    )
    final_eval_games: int = field(
        default=400, metadata={"doc": "games per opponent in the evaluation printed at the end; 0 = none"}
    )

    def __post_init__(self) -> None:
        checks = {
            "device": self.device in ("auto", "cpu", "cuda"),
            "network": self.network in ("mlp", "hoyito_lookahead", "hexconv", "hive_lookahead"),
            "conv_channels": self.conv_channels >= 1,
            "conv_blocks": self.conv_blocks >= 0,
            "num_games": self.num_games >= 1,
            "rollout_steps": self.rollout_steps >= 1,
            "total_steps": self.total_steps >= 1,
            "num_minibatches": self.num_minibatches >= 1,
            "update_epochs": self.update_epochs >= 1,
            "pool_share": 0.0 <= self.pool_share < 1.0,
            "pool_size": self.pool_size >= 0,
            "pool_add_every": self.pool_add_every >= 1,
            "checkpoint_every": self.checkpoint_every >= 1,
            "eval_every": self.eval_every >= 0,
            "eval_games": self.eval_games >= 2,
            "final_eval_games": self.final_eval_games >= 0,
            "gamma": 0.0 <= self.gamma <= 1.0,
            "gae_lambda": 0.0 <= self.gae_lambda <= 1.0,
            "shaping_coef": self.shaping_coef >= 0.0,
            "time_limit_minutes": self.time_limit_minutes >= 0,
            "num_threads": self.num_threads >= 0,
            "hidden_sizes": all(isinstance(h, int) and h > 0 for h in self.hidden_sizes),
        }
        reject_invalid(self, checks)

    def network_spec(self) -> dict[str, Any]:
        if self.network == "mlp":
            return {"kind": "mlp", "hidden_sizes": list(self.hidden_sizes)}
        if self.network == "hoyito_lookahead":  # the rule options are added from the game (train.py)
            return {"kind": "hoyito_lookahead", "hidden_sizes": list(self.hidden_sizes)}
        # hive_lookahead: the game options are added from the game (ppo_selfplay.network_spec)
        return {"kind": self.network, "channels": self.conv_channels, "blocks": self.conv_blocks}

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class ConfigKeys:
    """The YAML machinery of one config dataclass: type checks, unknown-key messages, loading, help.

    Serves `TrainConfig` here and `RLlibConfig` (training/rllib/config.py); each field of the
    dataclass is a YAML key with its meaning in the `doc` metadata.
    """

    def __init__(self, cls: type) -> None:
        self.cls = cls
        self.fields = {f.name: f for f in dataclasses.fields(cls)}
        self.types = typing.get_type_hints(cls)

    def doc_of(self, key: str) -> str:
        return self.fields[key].metadata["doc"]

    def check_type(self, key: str, value: Any) -> Any:
        """Return `value` as the field's type, or raise ValueError naming the key."""
        expected = self.types[key]
        ok = (
            (expected is bool and isinstance(value, bool))
            or (expected is int and isinstance(value, int) and not isinstance(value, bool))
            or (expected is float and isinstance(value, (int, float)) and not isinstance(value, bool))
            or (expected in (str, list, dict) and isinstance(value, expected))
        )
        if not ok:
            raise ValueError(
                f"config key {key!r} must be of type {expected.__name__}, got {value!r} ({type(value).__name__})"
            )
        return float(value) if expected is float else value

    def from_dict(self, values: dict[str, Any]) -> Any:
        """Build a config from a dict of YAML keys; unknown keys and wrong types raise ValueError."""
        if not isinstance(values, dict):
            raise ValueError(f"a config must be a mapping of keys to values, got {type(values).__name__}")
        unknown = [key for key in values if key not in self.fields]
        if unknown:
            key = unknown[0]
            close = difflib.get_close_matches(str(key), self.fields, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ValueError(f"unknown config key {key!r}{hint}; known keys: {', '.join(self.fields)}")
        return self.cls(**{key: self.check_type(key, value) for key, value in values.items()})

    def load(self, path: str | Path | None, overrides: dict[str, Any] | None = None) -> Any:
        """The YAML file at `path` (if any) with `overrides` on top, as a checked config."""
        values: dict[str, Any] = {}
        if path is not None:
            path = Path(path)
            if not path.is_file():
                raise ValueError(f"config file {str(path)!r} does not exist")
            try:
                loaded = yaml.safe_load(path.read_text())
            except yaml.YAMLError as error:
                raise ValueError(f"config file {str(path)!r} is not valid YAML: {error}") from None
            if loaded is not None and not isinstance(loaded, dict):
                raise ValueError(f"config file {str(path)!r} must hold a mapping of keys to values")
            values.update(loaded or {})
        values.update(overrides or {})
        return self.from_dict(values)

    def describe(self) -> str:
        """One line per key: name, type, default, doc (for --help)."""
        lines = []
        for name, f in self.fields.items():
            default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc]
            lines.append(f"  {name} ({self.types[name].__name__}, default {default!r}): {f.metadata['doc']}")
        return "\n".join(lines)


def reject_invalid(config: Any, checks: dict[str, bool]) -> None:
    """Raise ValueError naming the first key whose check failed (called from `__post_init__`)."""
    bad = [key for key, ok in checks.items() if not ok]
    if bad:
        key = bad[0]
        doc = ConfigKeys(type(config)).doc_of(key)
        raise ValueError(f"config key {key!r} has an invalid value {getattr(config, key)!r}: {doc}")


def parse_overrides(args: list[str]) -> dict[str, Any]:
    """`['--key', 'value', ...]` -> {key: value}, each value parsed as YAML (so 3 is an int)."""
    overrides: dict[str, Any] = {}
    i = 0
    while i < len(args):
        arg = args[i]
        if not arg.startswith("--") or i + 1 >= len(args):
            raise ValueError(f"expected '--key value' pairs, got {' '.join(args[i:])!r}")
        key = arg[2:].replace("-", "_")
        try:
            overrides[key] = yaml.safe_load(args[i + 1])
        except yaml.YAMLError as error:
            raise ValueError(f"cannot parse the value of --{key}: {error}") from None
        i += 2
    return overrides


KEYS = ConfigKeys(TrainConfig)
FIELDS = KEYS.fields
TYPES = KEYS.types
doc_of = KEYS.doc_of


def config_from_dict(values: dict[str, Any]) -> TrainConfig:
    """Build a config from a dict of YAML keys; unknown keys and wrong types raise ValueError."""
    return KEYS.from_dict(values)


def load_config(path: str | Path | None, overrides: dict[str, Any] | None = None) -> TrainConfig:
    return KEYS.load(path, overrides)


def describe_keys() -> str:
    """One line per key: name, type, default, doc (for --help)."""
    return KEYS.describe()
