"""HiveOptions: the one parser of Hive's game type and rule options."""

import pytest

from hive_envs.hive import EXPANSION_SETS, GAME_TYPES, HiveBatch, HiveGame, HiveOptions
from hive_envs.hive.env import raw_env


def test_every_game_type_round_trips_through_its_expansion_letters():
    assert len(GAME_TYPES) == len(EXPANSION_SETS) == 8
    for letters, game_type in zip(EXPANSION_SETS, GAME_TYPES):
        options = HiveOptions.from_game_type(game_type)
        assert options == HiveOptions(letters) and options.game_type == game_type
        assert HiveGame(game_type).options == options


@pytest.mark.parametrize(
    "kwargs, named",
    [
        ({"expansions": "X"}, "expansions"),
        ({"expansions": "LM"}, "expansions"),
        ({"expansions": None}, "expansions"),
        ({"tournament_opening": 1}, "tournament_opening"),
        ({"repetition_draw": "yes"}, "repetition_draw"),
        ({"max_turns": 0}, "max_turns"),
        ({"max_turns": True}, "max_turns"),
        ({"max_turns": 2.5}, "max_turns"),
    ],
)
def test_bad_options_are_refused_naming_the_option_everywhere(kwargs, named):
    for make in (HiveOptions, raw_env, lambda **kw: HiveBatch(1, **kw)):
        with pytest.raises(ValueError, match=named):
            make(**kwargs)


@pytest.mark.parametrize("text", ["", "base", "Base+", "Base+LM", "Base+X", "Hive", 7])
def test_bad_game_types_are_refused(text):
    with pytest.raises(ValueError, match="game type"):
        HiveOptions.from_game_type(text)
    with pytest.raises(ValueError, match="game type"):
        HiveGame(text)


def test_the_start_state_carries_the_options():
    game = HiveGame.from_options(HiveOptions("ML", tournament_opening=False, max_turns=None))
    assert game.game_type == "Base+ML" and not game.tournament_opening and game.max_turns is None
    assert "wQ" in game.legal_move_names()  # no tournament opening: the Queen may open
    assert HiveGame.from_state(game.state).options == game.options
