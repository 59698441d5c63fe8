"""Hive's `GameDefinition` (`hive_envs.core.definition`): what every tool needs to know about Hive."""

from __future__ import annotations

from hive_envs.core.definition import GameDefinition, MatchMetric
from hive_envs.hive.batch import HiveBatch
from hive_envs.hive.encoding import make_encoding
from hive_envs.hive.engine.alphabeta import HiveAlphaBeta
from hive_envs.hive.engine.game import HiveGame
from hive_envs.hive.engine.heuristics import POTENTIAL_NAME
from hive_envs.hive.engine.options import EXPANSION_SETS, HiveOptions


def _from_record(text: str, options: HiveOptions) -> HiveGame:
    """Replay a GameString (it names the game type) under the options' other rules."""
    return HiveGame.from_gamestring(
        text,
        tournament_opening=options.tournament_opening,
        max_turns=options.max_turns,
        repetition_draw=options.repetition_draw,
    )


def _network_rules(options: HiveOptions) -> dict:
    return {
        "expansions": options.expansions,
        "tournament_opening": options.tournament_opening,
        "max_turns": options.max_turns,
    }


QUEEN_MARGIN = MatchMetric(
    "queen_margin_for_a",
    "final Queen margin (neighbours of the opponent's Queen - of the player's)",
    lambda game, seat: game.queen_margin(seat),
)
"""The occupied cells around the opponent's Queen minus those around A's own in the final position:
a finer measure than W/D/L when weak players draw at the turn limit."""

HIVE = GameDefinition(
    name="hive",
    title="Hive",
    options=HiveOptions,
    new_game=HiveGame.from_options,
    from_record=_from_record,
    encoder=lambda options: make_encoding(options.expansions),
    label=lambda options: f"Hive {options.game_type}",
    seat_names=("White", "Black"),
    batch=HiveBatch,
    aec_env="hive_envs.hive_v0:env",
    aec_id="hive_envs/hive-v0",
    gym_envs={
        "hive_envs/Hive-v0": {},
        **{f"hive_envs/Hive{letters}-v0": {"expansions": letters} for letters in EXPANSION_SETS if letters},
    },
    gym_entry_point="hive_envs.hive.gym_env:HiveEnv",
    vector_entry_point="hive_envs.hive.vector_env:HiveVectorEnv",
    searcher=HiveAlphaBeta,
    draw_text="hive_envs.hive.render:render_ansi",
    draw_picture="hive_envs.hive.render:render_rgb",
    web_board="hive_envs.web.boards:hive_position",
    ladder=("random", "greedy", "alphabeta:1", "alphabeta:2", "alphabeta:3"),
    eval_opponents=("random",),
    metrics=(QUEEN_MARGIN,),
    fresh_moves="hive_envs.agents.history:fresh_moves",
    uhp=True,
    potential=POTENTIAL_NAME,
    networks=("hexconv", "hive_lookahead"),
    rule_networks=("hive_lookahead",),
    network_rules=_network_rules,
)
