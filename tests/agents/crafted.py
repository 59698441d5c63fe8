"""Crafted checkpoint files whose unpickling would run a shell command (creating a marker file).

They carry our format tags, so only the loader's refusal to unpickle foreign objects stands
between them and the command.
"""

from __future__ import annotations

import os
import pickle
import shlex
from pathlib import Path

import torch

#: torch's zip format, its legacy format, bare pickles of protocol 2 and 5
KINDS = ("zip", "legacy", "pickle2", "pickle5")


class RunsCommand:
    """Unpickling this calls os.system(command)."""

    def __init__(self, command: str):
        self.command = command

    def __reduce__(self):
        return (os.system, (self.command,))


def write_crafted_checkpoint(path: Path, marker: Path, kind: str = "zip") -> Path:
    """A '.pt' at `path` that looks like ours and, if unpickled unsafely, creates `marker`."""
    payload = {
        "format": "hive_envs.checkpoint",
        "format_version": 1,
        "game": "hoyito",
        "game_options": {},
        "encoding_version": "v0",
        "observation_shape": (16,),
        "num_actions": 6,
        "network": {"kind": "mlp", "hidden_sizes": [8]},
        "model": {"exploit": RunsCommand(f"touch {shlex.quote(str(marker))}")},
        "global_step": 0,
        "update": 0,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "zip":
        torch.save(payload, path)
    elif kind == "legacy":
        torch.save(payload, path, _use_new_zipfile_serialization=False)
    else:
        path.write_bytes(pickle.dumps(payload, protocol=int(kind[-1])))
    return path
