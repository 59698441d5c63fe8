"""One name per concept (the glossary of docs/architecture.md): the names earlier versions documented
still answer, the same as the new name, and warn (DeprecationWarning) naming the new one."""

from __future__ import annotations

import numpy as np
import pytest

from hive_envs.hive import HiveGame
from hive_envs.hoyito import HoyitoGame


def _hive_midgame() -> HiveGame:
    return HiveGame.from_gamestring("Base;InProgress;Black[2];wS1;bG1 -wS1;wA1 wS1/")


@pytest.mark.parametrize(
    "old, new",
    [
        (lambda g: g.valid_move_ids(), lambda g: g.legal_move_ids()),
        (lambda g: g.valid_moves(), lambda g: g.legal_move_names()),
        (
            lambda g: g.move_id_to_uhp(int(g.legal_move_ids()[2])),
            lambda g: g.move_name(int(g.legal_move_ids()[2])),
        ),
        (lambda g: g.uhp_to_move_id("bQ -bG1"), lambda g: g.move_id("bQ -bG1")),
        (lambda g: g.turn_number, lambda g: g.ply),
    ],
    ids=["valid_move_ids", "valid_moves", "move_id_to_uhp", "uhp_to_move_id", "turn_number"],
)
def test_old_hive_names_warn_and_answer_as_the_new_ones(old, new):
    game = _hive_midgame()
    with pytest.warns(DeprecationWarning, match="HiveGame.* is deprecated; use HiveGame"):
        answer = old(game)
    assert np.array_equal(answer, new(game))


def test_old_hoyito_names_warn_and_answer_as_the_new_ones():
    game = HoyitoGame()
    with pytest.warns(DeprecationWarning, match="use HoyitoGame.legal_move_ids"):
        assert game.legal_moves() == game.legal_move_ids().tolist() == [0, 1, 2, 3, 4, 5]
    other = game.copy()
    with pytest.warns(DeprecationWarning, match=r"use HoyitoGame.play_id\(hole\)"):
        taken = game.play(2)
    assert taken == other.play_id(2) and game.state.tolist() == other.state.tolist()


@pytest.mark.parametrize("game", [HiveGame(), HoyitoGame()], ids=["hive", "hoyito"])
def test_play_takes_the_games_notation_and_play_id_a_move_id(game):
    """Both games: ``play(name)`` for a move as users write it, ``play_id(move_id)`` for a move id."""
    by_name, by_id = game.copy(), game.copy()
    for name in game.legal_move_names():
        by_name.play(name)
        by_id.play_id(game.move_id(name))
        assert by_name.record() == by_id.record()
        by_name.undo(), by_id.undo()


def test_hoyito_play_refuses_text_that_names_no_legal_hole_and_leaves_the_game_unchanged():
    game = HoyitoGame()
    before = game.state.copy()
    for text in ("7", "x", "1_0"):
        with pytest.raises(ValueError, match=f"move {text}|'{text}'"):
            game.play(text)
    assert np.array_equal(game.state, before)


def test_hive_encodings_obs_shape_is_its_observation_shape():
    from hive_envs.hive.encoding import make_encoding

    encoding = make_encoding("MLP")
    with pytest.warns(DeprecationWarning, match="use HiveEncoding.observation_shape"):
        assert encoding.obs_shape == encoding.observation_shape == (encoding.num_planes, 30, 30)
