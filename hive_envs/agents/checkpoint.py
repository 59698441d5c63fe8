"""Checkpoint files: network weights plus everything needed to rebuild and check them.

A checkpoint is a `torch.save`d dict (keys below). It is written atomically: to a temporary
file in the same directory, flushed to disk, then renamed over the target, so a crash never
leaves a half-written checkpoint under the final name.

Keys:
  format        "hive_envs.checkpoint" (tells our files from any other .pt)
  format_version  int, bumped when this layout changes
  package_version  hive_envs.__version__ that wrote it
  game          game name ("hoyito", "hive", ...)
  game_options  dict of the game's options (holes_per_row, expansions, ...)
  encoding_version  the observation/action encoding version of the game's env ("v0")
  observation_shape, num_actions   the spaces the network was built for
  network       NetworkSpec (see networks.py)
  model         state_dict of the network
  config        the training config as a plain dict
  global_step   env steps (plies, all games) played by training so far
  update        PPO updates done so far
  train_state   optional: optimizer state, RNG states, opponent pool (for --resume)
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import torch

from hive_envs.agents.networks import build_network

CHECKPOINT_FORMAT = "hive_envs.checkpoint"
CHECKPOINT_FORMAT_VERSION = 1
REQUIRED_KEYS = (
    "format",
    "format_version",
    "game",
    "game_options",
    "encoding_version",
    "observation_shape",
    "num_actions",
    "network",
    "model",
    "global_step",
    "update",
)


def save_checkpoint(path: str | os.PathLike, payload: dict[str, Any]) -> Path:
    """Write `payload` (plus the format tags) to `path` atomically; returns the path."""
    from hive_envs.version import __version__

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "format": CHECKPOINT_FORMAT,
        "format_version": CHECKPOINT_FORMAT_VERSION,
        "package_version": __version__,
        **payload,
    }
    missing = [key for key in REQUIRED_KEYS if key not in data]
    if missing:
        raise ValueError(f"checkpoint payload lacks {missing}")
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            torch.save(data, handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        if os.path.exists(tmp_name):
            os.unlink(tmp_name)
        raise
    return path


def load_checkpoint(
    path: str | os.PathLike,
    *,
    game: str | None = None,
    encoding_version: str | None = None,
    observation_shape: tuple[int, ...] | None = None,
    num_actions: int | None = None,
) -> dict[str, Any]:
    """Read and validate a checkpoint; each given expectation is checked against it.

    Raises ValueError with the path and the reason for a missing file, a file that is not
    one of our checkpoints (corrupt, truncated, foreign), or a mismatch of game, encoding
    version or spaces.
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"checkpoint {str(path)!r} does not exist")
    try:
        data = torch.load(path, map_location="cpu", weights_only=False)
    except Exception as error:  # noqa: BLE001 (torch raises many types for a damaged file)
        raise ValueError(f"checkpoint {str(path)!r} is corrupt or not a torch file: {error}") from None
    if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
        raise ValueError(f"{str(path)!r} is not a hive_envs checkpoint")
    if data.get("format_version") != CHECKPOINT_FORMAT_VERSION:
        raise ValueError(
            f"checkpoint {str(path)!r} has format version {data.get('format_version')}; "
            f"this code reads version {CHECKPOINT_FORMAT_VERSION}"
        )
    missing = [key for key in REQUIRED_KEYS if key not in data]
    if missing:
        raise ValueError(f"checkpoint {str(path)!r} is incomplete: missing {missing}")
    expectations = {
        "game": game,
        "encoding_version": encoding_version,
        "observation_shape": None if observation_shape is None else tuple(observation_shape),
        "num_actions": num_actions,
    }
    for key, expected in expectations.items():
        found = tuple(data[key]) if key == "observation_shape" else data[key]
        if expected is not None and found != expected:
            raise ValueError(
                f"checkpoint {str(path)!r} is for {key}={found!r}, but {key}={expected!r} is needed"
            )
    return data


def network_from_checkpoint(data: dict[str, Any]) -> torch.nn.Module:
    """Rebuild the checkpoint's network with its weights, in eval mode, on the CPU."""
    network = build_network(data["network"], tuple(data["observation_shape"]), int(data["num_actions"]))
    try:
        network.load_state_dict(data["model"])
    except RuntimeError as error:
        raise ValueError(f"checkpoint weights do not fit network {data['network']}: {error}") from None
    return network.eval()
