"""One Hive: articulation-point pins agree with the slow remove-and-flood-fill oracle."""

import numpy as np
import pytest

from hive_envs.hive import GAME_TYPES, HiveGame
from hive_envs.hive.engine.movegen import MAX_MOVES, generate_movements, generate_moves, generate_with_pins
from hive_envs.hive.engine.pins import mark_articulation_cells, splits_hive
from hive_envs.hive.engine.state import I_TO_MOVE, PCELL
from hive_envs.hive.engine.workspace import ART, W_STAMP, new_workspace, reserve_stamp
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


@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_pins_marked_once_serve_both_sides_generations(game_type):
    """The evaluation marks the pinned cells once (`reserve_stamp`) and lists both sides' moves with
    them (`generate_with_pins`): the same moves as generations that mark them themselves, also when
    the counters are about to overflow (the reserved marks must survive the restart)."""
    w = new_workspace()
    out = np.empty(MAX_MOVES, dtype=np.int32)
    expected_out = np.empty(MAX_MOVES, dtype=np.int32)
    checked = 0
    for seed in range(2):
        for i, game in enumerate(random_positions(game_type, seed, max_plies=60)):
            s = game.state.copy()
            if i % 7 == 0:  # near the counters' limit
                w[W_STAMP] = (1 << 30) - 1
            pins = reserve_stamp(w)
            mark_articulation_cells(s, w, pins)
            for side in range(2):
                s[I_TO_MOVE] = side
                for placements, generate in ((True, generate_moves), (False, generate_movements)):
                    n = generate_with_pins(s, w, out, placements, pins)
                    expected = generate(s, new_workspace(), expected_out)
                    assert sorted(out[:n]) == sorted(expected_out[:expected]), game.gamestring
                    checked += 1
    assert checked > 100
