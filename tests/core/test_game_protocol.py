"""The game protocol (`hive_envs.core.game.Game`) as both engines implement it, checked on random games."""

from __future__ import annotations

import random

import numpy as np
import pytest

from hive_envs.core.game import Game, OneGameEncoder, result_for
from hive_envs.hive import HiveBatch, HiveGame, HiveOptions
from hive_envs.hoyito import HoyitoBatch, HoyitoGame
from hive_envs.hoyito.encoding import HoyitoEncoding

GAMES = {
    "hive-base": lambda: HiveGame("Base", max_turns=80),
    "hive-mlp": lambda: HiveGame("Base+MLP", max_turns=80),
    "hoyito-2x6": lambda: HoyitoGame(holes_per_row=6),
    "hoyito-2x12": lambda: HoyitoGame(holes_per_row=12, no_capture_limit=50),
}


def replay(game) -> Game:
    if isinstance(game, HiveGame):
        o = game.options
        return HiveGame.from_gamestring(game.record(), o.tournament_opening, o.max_turns, o.repetition_draw)
    return HoyitoGame.from_record(game.record())


def random_game(name: str, seed: int, plies: int | None = None):
    game, rng = GAMES[name](), random.Random(seed)
    while not game.is_terminal and (plies is None or game.ply < plies):
        ids = game.legal_move_ids()
        game.play_id(int(ids[rng.randrange(len(ids))]))
    return game


@pytest.mark.parametrize("name", GAMES)
def test_a_random_game_keeps_every_promise_of_the_protocol(name):
    game, rng = GAMES[name](), random.Random(1)
    assert isinstance(game, Game) and game.result is None and game.ply == 0
    snapshots = []
    while not game.is_terminal:
        ids = game.legal_move_ids()
        assert ids.dtype.kind == "i" and len(ids) > 0 and len(set(ids.tolist())) == len(ids)
        for move in ids.tolist():
            assert game.move_id(game.move_name(move)) == move
        scored, scores = game.greedy_move_scores()
        assert scored.tolist() == ids.tolist() and len(scores) == len(ids)
        assert game.potential(0) == -game.potential(1) and -1 <= game.potential(0) <= 1
        snapshots.append((game.record(), game.to_move, ids.tolist()))
        game.play_id(int(ids[rng.randrange(len(ids))]))
    assert game.result in (1.0, -1.0, 0.0) and len(game.legal_move_ids()) == 0
    assert result_for(game.result, 1) == -game.result
    assert replay(game).record() == game.record()
    other = game.copy()
    for record, to_move, ids in reversed(snapshots):
        game.undo()
        assert (game.record(), game.to_move, game.legal_move_ids().tolist()) == (record, to_move, ids)
    assert other.is_terminal and other.ply == len(snapshots)  # the copy kept its own history
    other.undo()
    assert other.record() == snapshots[-1][0]
    with pytest.raises(ValueError, match="undo"):
        game.undo()


@pytest.mark.parametrize("name", GAMES)
def test_illegal_moves_and_names_are_refused_and_change_nothing(name):
    game = random_game(name, seed=2, plies=9)
    before = game.record()
    legal = set(game.legal_move_ids().tolist())
    illegal = next(m for m in range(-1, 100_000) if m not in legal)
    for bad in (lambda: game.play_id(illegal), lambda: game.move_name(illegal), lambda: game.move_id("x9 y")):
        with pytest.raises(ValueError):
            bad()
    assert game.record() == before


@pytest.mark.parametrize("name", ["hoyito-2x6", "hoyito-2x12"])
def test_hoyito_greedy_scores_are_the_counters_each_move_captures(name):
    game = random_game(name, seed=3, plies=15)
    ids, scores = game.greedy_move_scores()
    for move, score in zip(ids.tolist(), scores.tolist()):
        after = game.copy()
        taken = after.play_id(move)
        assert score == taken == sum(after.captured) - sum(game.captured)


def test_hoyito_record_replays_a_game_started_from_a_position():
    game = HoyitoGame.from_position([0, 5, 4, 4, 4, 4, 4, 4, 4, 4, 3, 4], [4, 0], 0, 3)
    game.play_id(1)
    again = HoyitoGame.from_record(game.record())
    assert again.record() == game.record() and again.state.tolist() == game.state.tolist()
    for bad in ("Hoyito;moves=1", "HoyitoII;holes_per_row=6;moves=1", game.record() + ",99"):
        with pytest.raises(ValueError):
            HoyitoGame.from_record(bad)


@pytest.mark.parametrize("batch_class", [HiveBatch, HoyitoBatch])
def test_a_batch_row_gives_a_game_in_its_position_and_maps_its_moves_to_actions(batch_class):
    batch = batch_class(3)
    rng = np.random.default_rng(4)
    for _ in range(12):
        batch.step((rng.random(batch.action_mask.shape) * batch.action_mask).argmax(axis=1))
    for row in range(3):
        game = batch.game(row)
        actions = sorted(batch.move_to_action(row, m) for m in game.legal_move_ids().tolist())
        assert actions == np.flatnonzero(batch.action_mask[row]).tolist()
        assert game.to_move == batch.to_move[row]
    game = batch.game(0)
    game.play_id(int(game.legal_move_ids()[0]))  # a copy: the batch is not moved
    assert batch.game(0).record() != game.record()
    for bad in (-1, 3, 1.5):
        with pytest.raises(ValueError, match="row"):
            batch.game(bad)
    with pytest.raises(ValueError, match="not legal"):
        batch.move_to_action(0, 10**6)


def test_hive_game_from_a_state_reads_the_options_and_refuses_a_bad_state():
    batch = HiveBatch(1, expansions="MP", max_turns=50)
    game = batch.game(0)
    assert game.options == HiveOptions("MP", max_turns=50) and game.game_type == "Base+MP"
    with pytest.raises(ValueError, match="state"):
        HiveGame.from_state(np.zeros(7, np.int32))


def test_an_encoder_of_one_game_describes_its_games_under_its_options_only():
    """What an agent's view checks before it plays (`hive_envs.agents.views`): the encoder's game name
    and options, and a game it refuses named by its options, else its game name, else its type."""
    encoder, other = HoyitoEncoding(HoyitoGame().options), HoyitoGame(holes_per_row=12)
    assert isinstance(encoder, OneGameEncoder) and encoder.describes(HoyitoGame())
    assert not encoder.describes(other) and not encoder.describes(HiveGame())
    assert encoder.label_of(other) == str(other.options) and "holes_per_row=12" in encoder.label_of(other)
    assert encoder.label_of(object()) == "object"
