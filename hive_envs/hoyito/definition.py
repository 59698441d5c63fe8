"""Hoyito II's `GameDefinition` (`hive_envs.core.definition`): what every tool needs to know about it.

Its parts are ``"module:attribute"`` texts and functions that import the engine when called, so that
reading the definition (`import hive_envs` registers its env ids) imports no engine or numba.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from hive_envs.core.definition import AgentKit, EnvParts, Evaluation, GameDefinition, Presentation
from hive_envs.core.network_kind import NetworkKind

if TYPE_CHECKING:
    from hive_envs.hoyito.engine.game import HoyitoGame
    from hive_envs.hoyito.engine.options import HoyitoOptions


def _from_record(text: str, options: HoyitoOptions) -> HoyitoGame:
    """Replay a record; it carries every option itself, so ``options`` only has to agree with it."""
    from hive_envs.hoyito.engine.game import HoyitoGame

    game = HoyitoGame.from_record(text)
    if game.options != options:
        raise ValueError(f"Hoyito record {text!r} is a game of {game.options}, not of {options}")
    return game


def _network_rules(options: HoyitoOptions) -> dict:
    """The rule options a ``hoyito_lookahead`` spec carries (its features simulate moves under them)."""
    return {f.name: int(getattr(options, f.name)) for f in dataclasses.fields(options)}


HOYITO_LOOKAHEAD = NetworkKind(
    name="hoyito_lookahead",
    summary="Hoyito only: the mlp trunk plus each action's rule features (hive_envs/hoyito/agent/)",
    options="hive_envs.hoyito.agent.options:HoyitoLookaheadOptions",
    build="hive_envs.hoyito.agent.network:build",
    rules=_network_rules,
    legal_actions=True,
    new_run="hive_envs.hoyito.agent.network:new_run",
    legacy_keys={
        "hoyito_features": "features",
        "hoyito_search_depth": "search_depth",
        "hoyito_board_values_games": "board_values_games",
    },
)
"""Hoyito's own network kind (`hive_envs.hoyito.agent`)."""

HOYITO = GameDefinition(
    name="hoyito",
    title="Hoyito II",
    options="hive_envs.hoyito.engine.options:HoyitoOptions",
    new_game="hive_envs.hoyito.engine.game:HoyitoGame.from_options",
    from_record=_from_record,
    envs=EnvParts(
        encoder="hive_envs.hoyito.encoding:HoyitoEncoding",
        batch="hive_envs.hoyito.batch:HoyitoBatch",
        aec_env="hive_envs.hoyito_v0:env",
        aec_id="hive_envs/hoyito-v0",
        gym_envs={"hive_envs/Hoyito-v0": {}, "hive_envs/Hoyito2x12-v0": {"holes_per_row": 12}},
        gym_entry_point="hive_envs.hoyito.gym_env:HoyitoEnv",
        vector_entry_point="hive_envs.hoyito.gym_env:HoyitoVectorEnv",
        potential="captured_margin",  # hive_envs.hoyito.engine.game.POTENTIAL_NAME (tested equal)
    ),
    presentation=Presentation(
        label=lambda options: f"Hoyito II 2x{options.holes_per_row}",
        seat_names=("South", "North"),
        draw_text="hive_envs.hoyito.render:render_numbered",
        score_text=lambda game: " ({}-{})".format(*game.captured),
        move_notation="the number of the hole to sow from, as printed around the board",
        draw_picture="hive_envs.hoyito.render:render_rgb",
        web_board="hive_envs.hoyito.web_board:position",
        web_drawer="hive_envs.hoyito.web_board:drawer",
        read_record="hive_envs.hoyito.web_board:read_record",
    ),
    evaluation=Evaluation(
        searcher="hive_envs.hoyito.search.alphabeta:HoyitoAlphaBeta",
        ladder=("random", "greedy", "alphabeta:2", "alphabeta:4", "alphabeta:6"),
        eval_opponents=("random", "greedy"),
    ),
    agents=AgentKit(networks=(HOYITO_LOOKAHEAD,)),
)
