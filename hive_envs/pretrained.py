"""The pretrained agents shipped inside the package: their names, files and model cards.

Each agent is a checkpoint in the safe format (`hive_envs.agents.checkpoint`: loading never runs
code, a sha256 of the content is checked) at ``hive_envs/agents/pretrained/NAME.pt``, with its model
card ``NAME.json`` beside it (config, code commit, plies and wall time trained, ladder results;
docs/pretrained.md). This module only locates them and needs neither torch nor the agents, so the
player-spec resolver can name a pretrained agent's file without importing torch:

    from hive_envs.pretrained import pretrained_names, pretrained_path, model_card
    pretrained_path("hive_base")          # Path of the checkpoint (ValueError: unknown name, missing file)

Use them with `hive_envs.agents.load_pretrained("hive_base")` (a policy callable) or the player spec
``pretrained:NAME`` (raw policy) / ``pretrained:NAME@N`` (PUCT search, N simulations), accepted
wherever a player goes (Gym ``opponent=``, evaluate.py, the arena, the UHP engine, the play CLI).
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

PRETRAINED = {
    "hive_base": "Hive, base game (tournament opening): hive_lookahead network, feature set 2",
    "hive_base_searched": "Hive, base game (tournament opening): hive_lookahead network, feature set 2 "
    "with a 3-ply alpha-beta value of each move",
    "hive_board": "Hive, base game (tournament opening): hive_pieces network on the piece observation, "
    "learned from the board alone (no rule features, no rule start, no teacher)",
    "hive_mlp": "Hive with the Mosquito, Ladybug and Pillbug (Base+MLP): hive_lookahead network, feature set 2",
    "hoyito_2x6": "Hoyito II on the standard 2x6 board: hoyito_lookahead network",
    "hoyito_2x12": "Hoyito II on the extended 2x12 board: hoyito_lookahead network",
}
"""Name -> one line saying what it plays."""


def pretrained_names() -> list[str]:
    return list(PRETRAINED)


def pretrained_folder() -> Path:
    """The folder of the shipped files (inside the installed package)."""
    return Path(str(resources.files("hive_envs"))) / "agents" / "pretrained"


def _file(name: str, suffix: str) -> Path:
    if name not in PRETRAINED:
        raise ValueError(
            f"unknown pretrained agent {name!r}; the pretrained agents are {', '.join(PRETRAINED)}"
        )
    path = pretrained_folder() / f"{name}{suffix}"
    if not path.is_file():
        raise ValueError(
            f"pretrained agent {name!r}: its file {str(path)!r} is missing from the installed package "
            f"(reinstall hive_envs)"
        )
    return path


def pretrained_path(name: str) -> Path:
    """The checkpoint file of pretrained agent ``name``; ValueError for an unknown name (listing the
    known ones) or a file missing from the installation."""
    return _file(name, ".pt")


def model_card(name: str) -> dict:
    """The model card of pretrained agent ``name`` (its JSON file, parsed)."""
    path = _file(name, ".json")
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(
            f"pretrained agent {name!r}: cannot read its model card {str(path)!r}: {error}"
        ) from None
