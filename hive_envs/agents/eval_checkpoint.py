"""Learned-evaluation files: a network the alpha-beta reads at its leaves, with the guarantees of
`hive_envs.agents.checkpoint` (the agents' files).

Safety and integrity as there: a `torch.save`d dict of tensors and plain values only, read with
`torch.load(weights_only=True)` after its archive's records are bounded by the file's size and the
sha256 of its bytes (recorded in the zip archive's comment at save) is checked
(`hive_envs.agents.checkpoint_file`); the values' structure is bounded before anything walks them
(`hive_envs.agents.plain_values`); written atomically (a temporary file renamed over the target).
Every failure is a ValueError naming the file and the reason: a missing, corrupt, truncated or foreign
file, a checksum mismatch, missing or ill-typed keys, weights that are not finite or do not fit the
game's features.

Keys:
  format          "hive_envs.eval_checkpoint"; format_version 1; package_version
  game            str, the game ("hive"); game_options: dict
  features        str, the feature set the network reads (`LearnedFeatures.name`, "hive/pieces-v1")
  evaluation      dict name -> tensor: the compiled form's arrays (`hive_envs.core.learned_eval.ARRAY_NAMES`)
  model           dict name -> tensor: the trainer's torch module (`hive_envs.training.eval_network`);
                  empty in a file shipped with the package (`hive_envs.training.pretrained_eval`)
  network         dict: its sizes ({"width": H, "hidden": L})
  generation      int, the generations trained; positions: int, the positions trained on
  config          optional dict: the training config
  train_state     optional dict (--resume): optimizer state, elapsed seconds, each generation's data
                  record
``evaluation`` is what a search reads (`learned_network_of`); ``model`` is what training continues
from; the trainer writes both from one module (`eval_network.export`), and a test checks that the two
score 1,000 positions alike.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import torch

from hive_envs.agents.checkpoint import (  # the agents' files' writer and checks, shared, not copied
    _safe_torch_load,
    check_bounded,
    check_key_types,
    verified_digest,
    write_signed,
)
from hive_envs.core.learned_eval import ARRAY_NAMES, LearnedFeatures, LearnedNetwork, learned_network
from hive_envs.core.short_repr import short_repr

EVAL_CHECKPOINT_FORMAT = "hive_envs.eval_checkpoint"
EVAL_CHECKPOINT_VERSION = 1
REQUIRED_KEYS = {
    "format": (str,),
    "format_version": (int,),
    "game": (str,),
    "game_options": (dict,),
    "features": (str,),
    "evaluation": (dict,),
    "model": (dict,),
    "network": (dict,),
    "generation": (int,),
    "positions": (int,),
}
OPTIONAL_KEYS = {"package_version": (str,), "config": (dict,), "train_state": (dict,)}


def save_eval_checkpoint(path: str | os.PathLike, payload: dict[str, Any]) -> Path:
    """Write ``payload`` (plus the format tags, and its sha256 in the file) to ``path`` atomically;
    ValueError, before writing anything, for a payload that lacks a key or holds anything but tensors
    and plain values."""
    from hive_envs.version import __version__

    path = Path(path)
    tags = {
        "format": EVAL_CHECKPOINT_FORMAT,
        "format_version": EVAL_CHECKPOINT_VERSION,
        "package_version": __version__,
    }
    data = {**tags, **{key: value for key, value in payload.items() if key not in tags}}
    _check_keys(data, "payload")
    return write_signed(path, data)


def load_eval_checkpoint(
    path: str | os.PathLike, *, game: str | None = None, features: LearnedFeatures | None = None
) -> dict[str, Any]:
    """Read, verify and validate a learned-evaluation file (module docstring); with ``game`` and
    ``features``, also that it is for them. Never runs code from the file."""
    path = Path(path)
    name = repr(str(path))
    recorded = verified_digest(path, f"learned evaluation {name}")
    if recorded is None:
        raise ValueError(f"learned evaluation {name} is corrupt or not ours: it has no sha256 in its archive")
    data = _safe_torch_load(path, name)
    if not isinstance(data, dict) or data.get("format") != EVAL_CHECKPOINT_FORMAT:
        raise ValueError(f"{name} is not a hive_envs learned evaluation (format {EVAL_CHECKPOINT_FORMAT!r})")
    if data.get("format_version") != EVAL_CHECKPOINT_VERSION:
        raise ValueError(
            f"learned evaluation {name} has format version {short_repr(data.get('format_version'))}; this "
            f"hive_envs reads version {EVAL_CHECKPOINT_VERSION}"
        )
    check_bounded(data, path, f"learned evaluation {name} is not valid")
    _check_keys(data, name)
    for group in ("evaluation", "model"):
        for key, tensor in data[group].items():
            if tensor.is_floating_point() and not bool(torch.isfinite(tensor).all()):
                raise ValueError(
                    f"learned evaluation {name}: {group} {short_repr(key)} holds NaN or infinite values"
                )
    if game is not None and data["game"] != game:
        raise ValueError(f"learned evaluation {name} is for {short_repr(data['game'])}, not {game}")
    if features is not None and data["features"] != features.name:
        raise ValueError(
            f"learned evaluation {name} reads the features {short_repr(data['features'])}; this search "
            f"computes {features.name!r}"
        )
    data["sha256"] = recorded
    return data


def learned_network_of(data: dict[str, Any], features: LearnedFeatures, name: str = "file") -> LearnedNetwork:
    """The compiled network of a loaded file (`load_eval_checkpoint`), checked against ``features``."""
    arrays = {key: tensor.numpy() for key, tensor in data["evaluation"].items() if key in ARRAY_NAMES}
    try:
        return learned_network(arrays, features.num_features, features.num_dense)
    except ValueError as error:
        raise ValueError(f"learned evaluation {name}: {error}") from None


def _check_keys(data: dict[str, Any], name: str) -> None:
    check_key_types(data, REQUIRED_KEYS, OPTIONAL_KEYS, f"learned evaluation {name}")
    for group in ("evaluation", "model"):
        if not all(isinstance(tensor, torch.Tensor) for tensor in data[group].values()):
            raise ValueError(f"learned evaluation {name}: {group!r} holds something other than tensors")
