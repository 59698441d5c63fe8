"""Matches of the network being trained against the evaluation opponents, as both trainers play them
(periodically during training and at its end, `run.TrainingRun`)."""

from __future__ import annotations

import numpy as np

from hive_envs.agents.search import SearchConfig
from hive_envs.agents.views import view_for
from hive_envs.games import game_entry, new_game
from hive_envs.players import PlayerContext, SearchLimits, make_player
from hive_envs.players.checkpoint import AgentPlayer
from hive_envs.training.arena import distinct_openings, play_game
from hive_envs.training.config import TrainConfig
from hive_envs.training.match import MatchResult, play_match


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

    Played game by game as the arena plays it (`arena.play_game`, the players choosing on games that
    keep their history, which the network's player needs to avoid repeating positions), each pair of
    games from the same random opening of `eval_opening_plies` plies; a game whose definition says
    ``evaluate_in_batch`` (an AEC env, whose games copy a whole env per move) as one batch from the
    same openings, one forward pass a ply for all games (`match.play_match`).
    """
    was_training = network.training
    network.eval()
    view = view_for(config.game, game_options(config))
    me = AgentPlayer(network, view, SearchConfig(simulations=0), sample, seed, "current", config.game)
    results = []
    for opponent in make_players(config, opponents, seed + 1):
        try:
            if game_entry(config.game).evaluate_in_batch:
                openings = distinct_openings(
                    lambda: new_game(config.game, game_options(config)),
                    config.eval_opening_plies,
                    max(games // 2, 1),
                    seed,
                )
                results.append(
                    play_match(config.game, config.game_options, me, opponent, games, seed, openings)
                )
            else:
                results.append(play_games(config, me, opponent, games, seed))
        finally:
            opponent.close()
    network.train(was_training)
    return results


def play_games(config: TrainConfig, me, opponent, games: int, seed: int) -> MatchResult:
    """`games` games of `me` vs `opponent`, half in each seat, game by game (`arena.play_game`): pair k
    plays random opening k of `eval_opening_plies` plies once with each seat."""
    options = game_options(config)
    pairs = max(games // 2, 1)
    openings = distinct_openings(
        lambda: new_game(config.game, options), config.eval_opening_plies, pairs, seed
    )
    counts = {label: [0, 0] for label in ("wins", "draws", "losses")}
    lengths = []
    for k in range(games):
        seat = int(k >= pairs)
        game = new_game(config.game, options)
        for move in openings[k % pairs]:
            game.play_id(move)
        result0, plies = play_game(game, (me, opponent) if seat == 0 else (opponent, me), SearchLimits())[:2]
        outcome = result0 if seat == 0 else -result0
        counts["wins" if outcome > 0 else "losses" if outcome < 0 else "draws"][seat] += 1
        lengths.append(plies)
    return MatchResult.from_counts(me.name, opponent.name, games, counts, float(np.mean(lengths)))
