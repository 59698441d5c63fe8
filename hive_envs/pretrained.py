"""The pretrained agents shipped inside the package: their names, kinds, files and model cards.

An agent is one of two kinds (`PRETRAINED`'s ``kind``):

- ``POLICY``: a policy network, a checkpoint in the safe format (`hive_envs.agents.checkpoint`:
  loading never runs code, a sha256 of the content is checked). It plays as
  `hive_envs.agents.load_pretrained("hive_base")` (a policy callable) or the player spec
  ``pretrained:NAME`` (raw policy) / ``pretrained:NAME@N`` (PUCT search, N simulations) /
  ``pretrained:NAME@T=S`` (the same search for S seconds a move);
- ``EVALUATION``: a learned evaluation for a game's alpha-beta search, a learned-evaluation file
  (`hive_envs.agents.eval_checkpoint`, the same guarantees) and no policy: ``load_pretrained``
  refuses it. It plays as the player spec ``pretrained:NAME`` (the alpha-beta with it, to its model
  card's ``default_depth``), ``pretrained:NAME@T=S`` (S seconds a move) or
  ``alphabeta:D,eval=pretrained:NAME`` (any alpha-beta spec).

Either is the file ``hive_envs/agents/pretrained/NAME.pt`` with its model card ``NAME.json`` beside it
(config, code commit, what and how long it trained, measured results; docs/pretrained.md). The specs
are accepted wherever a player goes (Gym ``opponent=``, evaluate.py, the arena, the UHP engine, the
play CLI). This module only locates them and needs neither torch nor the agents, so the player-spec
resolver can name a pretrained agent's file without importing torch:

    from hive_envs.pretrained import pretrained_names, pretrained_path, model_card, POLICY
    pretrained_path("hive_base")          # Path of the file (ValueError: unknown name, missing file)
    pretrained_names(POLICY)              # the policy agents only (what load_pretrained takes)
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import NamedTuple

POLICY = "policy"
"""A policy network: `load_pretrained`, ``pretrained:NAME[@N | @T=S]`` (raw policy or PUCT search)."""
EVALUATION = "evaluation"
"""A learned evaluation for the alpha-beta search: ``pretrained:NAME[@T=S]``, ``eval=pretrained:NAME``."""


class Pretrained(NamedTuple):
    kind: str
    """`POLICY` or `EVALUATION`."""
    description: str
    """One line saying what it plays."""


PRETRAINED = {
    "hive_base": Pretrained(
        POLICY, "Hive, base game (tournament opening): hive_lookahead network, feature set 2"
    ),
    "hive_base_searched": Pretrained(
        POLICY,
        "Hive, base game (tournament opening): hive_lookahead network, feature set 2 with a 3-ply "
        "alpha-beta value of each move",
    ),
    "hive_board": Pretrained(
        POLICY,
        "Hive, base game (tournament opening): hive_pieces network on the piece observation, learned from "
        "the board alone (no rule features, no rule start, no teacher)",
    ),
    "hive_mlp": Pretrained(
        POLICY,
        "Hive with the Mosquito, Ladybug and Pillbug (Base+MLP): hive_lookahead network, feature set 2",
    ),
    "hoyito_2x6": Pretrained(POLICY, "Hoyito II on the standard 2x6 board: hoyito_lookahead network"),
    "hoyito_2x12": Pretrained(POLICY, "Hoyito II on the extended 2x12 board: hoyito_lookahead network"),
    "hive_eval": Pretrained(
        EVALUATION,
        "Hive, base game (tournament opening): a learned evaluation (hive/pieces-v1 features) for the "
        "alpha-beta search, trained on generations of its own self-play",
    ),
}
"""Name -> its kind and one line saying what it plays."""
MAX_BYTES = 5 * 1024 * 1024
"""The largest file a pretrained agent may ship (its export refuses a larger one)."""


def pretrained_names(kind: str | None = None) -> list[str]:
    """The shipped agents' names; with ``kind`` (`POLICY` or `EVALUATION`) those of that kind only."""
    return [name for name, entry in PRETRAINED.items() if kind is None or entry.kind == kind]


def pretrained_kind(name: str) -> str:
    """`POLICY` or `EVALUATION`; ValueError for an unknown name (listing the known ones)."""
    if name not in PRETRAINED:
        raise ValueError(
            f"unknown pretrained agent {name!r}; the pretrained agents are {', '.join(PRETRAINED)}"
        )
    return PRETRAINED[name].kind


def evaluation_usage(name: str) -> str:
    """How an `EVALUATION` agent plays, for error messages."""
    return (
        f"play it with the player spec pretrained:{name} (the alpha-beta search with it, to its model card's "
        f"depth), pretrained:{name}@T=S (S seconds a move) or alphabeta:D,eval=pretrained:{name} (any "
        f"alpha-beta spec)"
    )


def pretrained_folder() -> Path:
    """The folder of the shipped files (inside the installed package)."""
    return Path(str(resources.files("hive_envs"))) / "agents" / "pretrained"


def _file(name: str, suffix: str) -> Path:
    pretrained_kind(name)  # ValueError for an unknown name
    path = pretrained_folder() / f"{name}{suffix}"
    if not path.is_file():
        raise ValueError(
            f"pretrained agent {name!r}: its file {str(path)!r} is missing from the installed package "
            f"(reinstall hive_envs)"
        )
    return path


def pretrained_path(name: str) -> Path:
    """The file of pretrained agent ``name`` (a checkpoint, or a learned evaluation's file); ValueError
    for an unknown name (listing the known ones) or a file missing from the installation."""
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
