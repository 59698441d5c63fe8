"""Hoyito II's `GameDefinition` (`hive_envs.core.definition`): what every tool needs to know about it."""

from __future__ import annotations

import dataclasses

from hive_envs.core.definition import GameDefinition
from hive_envs.hoyito.batch import HoyitoBatch
from hive_envs.hoyito.encoding import HoyitoEncoding
from hive_envs.hoyito.engine.alphabeta import HoyitoAlphaBeta
from hive_envs.hoyito.engine.game import POTENTIAL_NAME, HoyitoGame
from hive_envs.hoyito.engine.options import HoyitoOptions


def _from_record(text: str, options: HoyitoOptions) -> HoyitoGame:
    """Replay a record; it carries every option itself, so ``options`` only has to agree with it."""
    game = HoyitoGame.from_record(text)
    if game.options != options:
        raise ValueError(f"Hoyito record {text!r} is a game of {game.options}, not of {options}")
    return game


HOYITO = GameDefinition(
    name="hoyito",
    title="Hoyito II",
    options=HoyitoOptions,
    new_game=HoyitoGame.from_options,
    from_record=_from_record,
    encoder=HoyitoEncoding,
    label=lambda options: f"Hoyito II 2x{options.holes_per_row}",
    seat_names=("South", "North"),
    batch=HoyitoBatch,
    aec_env="hive_envs.hoyito_v0:env",
    aec_id="hive_envs/hoyito-v0",
    gym_envs={"hive_envs/Hoyito-v0": {}, "hive_envs/Hoyito2x12-v0": {"holes_per_row": 12}},
    gym_entry_point="hive_envs.hoyito.gym_env:HoyitoEnv",
    vector_entry_point="hive_envs.hoyito.gym_env:HoyitoVectorEnv",
    searcher=HoyitoAlphaBeta,
    draw_text="hive_envs.hoyito.render:render_numbered",
    draw_picture="hive_envs.hoyito.render:render_rgb",
    web_board="hive_envs.web.boards:hoyito_position",
    score_text=lambda game: " ({}-{})".format(*game.captured),
    ladder=("random", "greedy", "alphabeta:2", "alphabeta:4", "alphabeta:6"),
    eval_opponents=("random", "greedy"),
    potential=POTENTIAL_NAME,
    networks=("hoyito_lookahead",),
    rule_networks=("hoyito_lookahead",),
    network_rules=lambda options: {
        f.name: int(getattr(options, f.name)) for f in dataclasses.fields(options)
    },
)
