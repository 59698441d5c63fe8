"""One Hive: articulation-point pins agree with the slow remove-and-flood-fill oracle."""

import pytest

from hive_envs.hive import GAME_TYPES, HiveGame
from hive_envs.hive.engine.pins import mark_articulation_cells, splits_hive
from hive_envs.hive.engine.state import PCELL
from hive_envs.hive.engine.workspace import ART, new_workspace
from tests.hive.random_games import random_positions


def _occupied_cells(state):
    return sorted({int(c) for c in state[PCELL : PCELL + 28] if c >= 0})


@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_articulation_cells_equal_flood_fill_oracle_over_random_games(game_type):
    w = new_workspace()
    stamp = 0
    checked = 0
    for seed in range(3):
        for game in random_positions(game_type, seed, max_plies=90):
            s = game.state.copy()
            stamp += 1
            mark_articulation_cells(s, w, stamp)
            for cell in _occupied_cells(s):
                assert (w[ART + cell] == stamp) == splits_hive(s, w, cell), (game.gamestring, cell)
                checked += 1
    assert checked > 500


def test_pinned_piece_has_no_moves_but_leaf_does():
    # wS1 sits between wQ and the black pieces: removing it splits the hive.
    game = HiveGame.from_gamestring("Base;InProgress;White[3];wS1;bS1 wS1/;wQ /wS1;bQ bS1/")
    movers = {m.split()[0] for m in game.legal_move_names()}
    assert "wQ" in movers
    assert "wS1" not in movers


def test_piece_on_top_of_stack_is_never_pinned():
    # wB1 sits on wS1, whose cell joins wQ/bA1 to the black pieces: the beetle may still step off.
    game = HiveGame.from_gamestring(
        "Base;InProgress;White[6];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 /wQ;bB1 bQ\\;wB1 wQ;bA1 bB1/;wB1 wS1;bA1 -wQ"
    )
    s = game.state.copy()
    assert splits_hive(s, new_workspace(), int(s[PCELL + 0 * 14 + 1]))  # wS1's cell is a cut cell
    beetle_moves = sorted(m for m in game.legal_move_names() if m.startswith("wB1"))
    assert beetle_moves == ["wB1 /bS1", "wB1 /wS1", "wB1 \\bS1", "wB1 \\wS1", "wB1 bS1", "wB1 wQ"]
