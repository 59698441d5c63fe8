"""What the page draws of a position (`hive_envs.web.boards`): where the last moved piece came from and
went to, and the moves played numbered as the game counts turns."""

from __future__ import annotations

from hive_envs.hive import HiveGame
from hive_envs.hoyito.engine.game import HoyitoGame
from hive_envs.web.boards import position

OPENING = "Base;InProgress;White[3];wS1;bS1 -wS1;wQ wS1/;bQ -bS1"


def top_cells(game) -> dict[str, list[int]]:
    return {names[-1]: [q, r] for (q, r), names in game.stacks().items()}


def test_a_moved_pieces_origin_and_destination_are_both_given():
    game = HiveGame.from_gamestring(OPENING)
    origin = top_cells(game)["wQ"]
    game.play("wQ wS1-")
    drawn = position(game)
    assert drawn["last"] == top_cells(game)["wQ"] and drawn["last_from"] == origin
    assert drawn["last_from"] != drawn["last"]


def test_a_placement_and_the_start_have_no_origin():
    game = HiveGame.from_gamestring(OPENING)
    assert position(game)["last_from"] is None and position(game)["last"] == top_cells(game)["bQ"]
    assert position(HiveGame())["last_from"] is None and position(HiveGame())["last"] is None


def test_hive_moves_are_numbered_by_turn_as_a_gamestring_counts_them():
    game = HiveGame.from_gamestring(OPENING)
    game.play("wQ wS1-")
    turns = position(game)["turns"]
    assert turns == [
        {"number": 1, "side": None, "moves": ["wS1", "bS1 -wS1"]},
        {"number": 2, "side": None, "moves": ["wQ wS1/", "bQ -bS1"]},
        {"number": 3, "side": None, "moves": ["wQ wS1-"]},
    ]
    assert game.record().split(";")[2] == "Black[3]"  # the GameString's turn: the same number
    assert position(HiveGame())["turns"] == []


def test_hoyito_moves_are_numbered_by_each_sides_turn_with_its_extra_moves():
    game = HoyitoGame()
    movers = []
    while len(movers) < 30 and not game.is_terminal:
        movers.append(game.to_move)
        game.play_id(int(game.legal_move_ids()[-1]))
    turns = position(game)["turns"]
    runs = [[movers[0]]]
    for mover in movers[1:]:
        runs[-1].append(mover) if mover == runs[-1][-1] else runs.append([mover])
    assert [len(turn["moves"]) for turn in turns] == [len(run) for run in runs]
    assert any(len(run) > 1 for run in runs)  # a capture gave a side another move in these plies
    assert [turn["side"] for turn in turns] == [("South", "North")[run[0]] for run in runs]
    assert [turn["number"] for turn in turns] == list(range(1, len(runs) + 1))
    played = game.record().rpartition("moves=")[2].split(",")
    assert [name for turn in turns for name in turn["moves"]] == played
