"""`AEC`: the game definition of any PettingZoo AEC env (`hive_envs.core.aec_game`, `aec_batch`).

Its options are the env's name and keyword options (`AecOptions`: only names a file may give, see
`hive_envs.core.aec_source`), so one definition stands for every AEC env: configs set ``env:`` (the
trainer turns it into this game), checkpoints record it, and evaluation, the arena and the players
work on it as on any game. It has a batch (`AecBatch`, for training) but no searcher, drawing,
ladder beyond random, nor env ids of its own (the env it wraps has those).
"""

from __future__ import annotations

import re

from hive_envs.core.aec_game import AecEncoder, AecGame, replay
from hive_envs.core.aec_source import AecOptions
from hive_envs.core.definition import EnvParts, Evaluation, GameDefinition, Presentation

_RECORD = re.compile(r"(?P<label>.*) seed=(?P<seed>None|-?[0-9]+) actions=(?P<actions>[0-9 ]*)")


def from_record(text: str, options: AecOptions) -> AecGame:
    """Replay `AecGame.record` text (``LABEL seed=S actions=A1 A2 ...``) under ``options``; ValueError
    for a record of another env or a malformed one, or an action the env refuses."""
    match = _RECORD.fullmatch(str(text).strip())
    if match is None:
        raise ValueError(f"not an AEC game record (LABEL seed=S actions=...): {str(text)[:80]!r}")
    if match["label"] != options.label:
        raise ValueError(f"the record is a game of {match['label']!r}, not of {options.label!r}")
    seed = None if match["seed"] == "None" else int(match["seed"])
    return replay(options, seed, [int(a) for a in match["actions"].split()])


AEC = GameDefinition(
    name="aec",
    title="PettingZoo AEC env",
    options=AecOptions,
    new_game=AecGame.from_options,
    from_record=from_record,
    envs=EnvParts(encoder=AecEncoder, batch="hive_envs.core.aec_batch:AecBatch"),
    presentation=Presentation(label=lambda options: options.label, seat_names=("player_0", "player_1")),
    evaluation=Evaluation(ladder=("random",), eval_opponents=("random",), evaluate_in_batch=True),
)
