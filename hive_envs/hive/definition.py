"""Hive's `GameDefinition` (`hive_envs.core.definition`): what every tool needs to know about Hive.

Its parts are ``"module:attribute"`` texts and functions that import the engine when called, so that
reading the definition (`import hive_envs` registers its env ids) imports no engine or numba.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hive_envs.core.definition import (
    AgentKit,
    EnvParts,
    Evaluation,
    GameDefinition,
    MatchMetric,
    Presentation,
)
from hive_envs.core.network_kind import NetworkKind

if TYPE_CHECKING:
    from hive_envs.hive.engine.game import HiveGame
    from hive_envs.hive.engine.options import HiveOptions

_EXPANSION_SETS = ("", "M", "L", "P", "ML", "MP", "LP", "MLP")
"""`hive_envs.hive.engine.options.EXPANSION_SETS`, written out for the env ids (as is the potential's
name below): reading them there would load the engine. A test keeps them equal."""


def _from_record(text: str, options: HiveOptions) -> HiveGame:
    """Replay a GameString (it names the game type) under the options' other rules."""
    from hive_envs.hive.engine.game import HiveGame

    return HiveGame.from_gamestring(
        text,
        tournament_opening=options.tournament_opening,
        max_turns=options.max_turns,
        repetition_draw=options.repetition_draw,
    )


def _encoder(options: HiveOptions, observation: str = "planes"):
    from hive_envs.hive.observations import make_hive_encoding

    return make_hive_encoding(options.expansions, observation)


def _network_rules(options: HiveOptions) -> dict:
    """The game options a ``hive_lookahead`` spec carries (its features decode observations under them)."""
    return {
        "expansions": options.expansions,
        "tournament_opening": options.tournament_opening,
        "max_turns": options.max_turns,
    }


HIVE_LOOKAHEAD = NetworkKind(
    name="hive_lookahead",
    summary="Hive only: the hexconv trunk plus each legal action's rule features (hive_envs/hive/agent/)",
    options="hive_envs.hive.agent.options:HiveLookaheadOptions",
    build="hive_envs.hive.agent.network:build",
    rules=_network_rules,
    legal_actions=True,
    batch_evaluator="hive_envs.hive.agent.evaluator:HiveStateEvaluator",
    legacy_keys={"hive_features": "features", "hive_search_depth": "search_depth"},
)
"""Hive's network over its rule features (`hive_envs.hive.agent`)."""

HIVE_PIECES = NetworkKind(
    name="hive_pieces",
    summary=(
        "Hive only, observation 'pieces': message passing and attention over the tile rows, each legal "
        "action scored from its tile and its destination's neighbours (hive_envs/hive/agent/)"
    ),
    options="hive_envs.hive.agent.options:HivePiecesOptions",
    build="hive_envs.hive.agent.pieces_network:build",
    legal_actions=True,  # from the lists of legal actions the trainers and searches give it
)
"""Hive's network over the piece observation alone: no rule features, no search."""

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
    options="hive_envs.hive.engine.options:HiveOptions",
    new_game="hive_envs.hive.engine.game:HiveGame.from_options",
    from_record=_from_record,
    envs=EnvParts(
        encoder=_encoder,
        env_options=("observation",),  # planes or pieces (hive_envs.hive.observations)
        batch="hive_envs.hive.batch:HiveBatch",
        aec_env="hive_envs.hive_v0:env",
        aec_id="hive_envs/hive-v0",
        gym_envs={
            "hive_envs/Hive-v0": {},
            **{
                f"hive_envs/Hive{letters}-v0": {"expansions": letters}
                for letters in _EXPANSION_SETS
                if letters
            },
        },
        gym_entry_point="hive_envs.hive.gym_env:HiveEnv",
        vector_entry_point="hive_envs.hive.vector_env:HiveVectorEnv",
        potential="queen_margin",  # hive_envs.hive.engine.heuristics.POTENTIAL_NAME (tested equal)
    ),
    presentation=Presentation(
        label=lambda options: f"Hive {options.game_type}",
        seat_names=("White", "Black"),
        draw_text="hive_envs.hive.render:render_ansi",
        move_notation=(
            "UHP move strings. A piece is its colour (w, b), bug (Q Queen, A Ant, B Beetle, "
            "G Grasshopper, S Spider, M Mosquito, L Ladybug, P Pillbug) and number if it has one: wQ, bS1, "
            "wA3. The game's first move is the piece alone (wS1); every other names the piece and its "
            "destination beside a piece X on the board: -X west of X, X- east, \\X north-west, X/ "
            "north-east, /X south-west, X\\ south-east (bG1 -wS1, wQ wS1/); the piece then X alone climbs "
            "on top of X (wB1 bQ); pass when nothing else is legal"
        ),
        draw_picture="hive_envs.hive.render:render_rgb",
        web_board="hive_envs.hive.web_board:position",
        web_drawer="hive_envs.hive.web_board:drawer",
        read_record="hive_envs.hive.web_board:read_record",
    ),
    evaluation=Evaluation(
        searcher="hive_envs.hive.search.alphabeta:HiveAlphaBeta",
        ladder=("random", "greedy", "alphabeta:1", "alphabeta:2", "alphabeta:3"),
        eval_opponents=("random",),
        metrics=(QUEEN_MARGIN,),
        uhp=True,
    ),
    agents=AgentKit(
        networks=(HIVE_LOOKAHEAD, HIVE_PIECES), fresh_moves="hive_envs.hive.agent.history:fresh_moves"
    ),
)
