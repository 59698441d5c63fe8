"""Matches of the network being trained against the evaluation opponents, as both trainers play them
(periodically during training and at its end, `run.TrainingRun`)."""

from __future__ import annotations

import functools

from hive_envs.agents.search import SearchConfig
from hive_envs.agents.views import view_for
from hive_envs.evaluation.arena import distinct_openings
from hive_envs.evaluation.match import halves, play_games, play_games_batched, summarise
from hive_envs.games import game_entry, new_game
from hive_envs.players import PlayerContext, SearchLimits, make_player
from hive_envs.players.checkpoint import AgentPlayer
from hive_envs.training.config import TrainConfig


def make_players(config: TrainConfig, specs: list[str], seed: int) -> list:
    """The players of `specs` for the config's game (ValueError naming a bad spec)."""
    return [make_player(spec, PlayerContext(config.game, seed + i)) for i, spec in enumerate(specs)]


def evaluation_opponents(config: TrainConfig, batch) -> list[str]:
    """`eval_opponents` without greedy for a game that has no greedy player."""
    has_greedy = hasattr(batch, "greedy_actions")
    return [spec for spec in config.eval_opponents if spec != "greedy" or has_greedy]


def game_options(config: TrainConfig) -> dict:
    """The config's game options without the batch's own setting (`parallel`)."""
    return {k: v for k, v in config.game_options.items() if k != "parallel"}


def evaluate_now(
    config: TrainConfig, network, opponents: list[str], games: int, seed: int, sample: bool
) -> list:
    """Matches of the current network (argmax play, or sampled) vs each opponent spec.

    Played by the match runner (`evaluation.match`), the first half of the games with the network in
    seat 0, game k from random opening k of `eval_opening_plies` plies (`match.halves`): game by game
    as the arena plays (the players choosing on games that keep their history, which the network's
    player needs to avoid repeating positions), or, for a game whose definition says
    ``evaluate_in_batch`` (an AEC env, whose games copy a whole env per move), in one batch, one
    forward pass a ply for all games.
    """
    was_training = network.training
    network.eval()
    options = game_options(config)
    view = view_for(config.game, options)
    me = AgentPlayer(network, view, SearchConfig(simulations=0), sample, seed, "current", config.game)
    openings = distinct_openings(
        lambda: new_game(config.game, options), config.eval_opening_plies, max(games // 2, 1), seed
    )
    schedule = halves(openings, games)
    results = []
    for opponent in make_players(config, opponents, seed + 1):
        try:
            if game_entry(config.game).evaluate_in_batch:
                records = play_games_batched(me, opponent, schedule, config.game, config.game_options, seed)
            else:
                new = functools.partial(new_game, config.game, options)
                records = play_games(me, opponent, schedule, new, SearchLimits())
            results.append(summarise(me.name, opponent.name, records))
        finally:
            opponent.close()
    network.train(was_training)
    return results
