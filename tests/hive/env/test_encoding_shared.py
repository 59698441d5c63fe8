"""One `HiveEncoding` shared by many games: it keeps no per-game state (the per-ply frame is derived
from the state each call is given), so games that interleave their encode/decode calls through one
encoding get exactly what each would get from an encoding of its own."""

from __future__ import annotations

import copy
import dataclasses

import numpy as np

from hive_envs.hive import HiveGame
from hive_envs.hive import encoding as E

# Two random games (seeds 0 and 1) whose hives sit in different frames (the first test checks it).
A = (
    "Base;InProgress;White[7];wA1;bG1 /wA1;wB1 wA1-;bS1 /bG1;wS1 wB1\\;bQ bS1\\;wQ wS1/;bS2 bQ/;"
    "wS2 \\wB1;bQ /bS1;wA2 \\wQ;bQ -bS1"
)
B = (
    "Base;InProgress;White[7];wB1;bG1 wB1/;wG1 -wB1;bA1 \\bG1;wQ wB1\\;bQ -bA1;wA1 /wG1;bQ \\bA1;"
    "wB2 -wG1;bB1 /bQ;wA1 -bB1;bB2 bG1-"
)


def _snapshot(encoding: E.HiveEncoding) -> dict:
    return {f.name: copy.deepcopy(getattr(encoding, f.name)) for f in dataclasses.fields(encoding)}


def _frame(encoding: E.HiveEncoding, game: HiveGame) -> list[int]:
    frame = np.zeros(E.FRAME_SIZE, dtype=np.int32)
    E.hive_frame(game.state, encoding.grid, frame)
    return frame.tolist()


def _answers(encoding: E.HiveEncoding, game: HiveGame) -> tuple:
    mask = np.zeros(encoding.num_actions, dtype=np.int8)
    count = encoding.write_mask(game, mask)
    ids, actions = encoding.legal_actions(game)
    decoded = [encoding.action_to_move(game, int(a)) for a in np.flatnonzero(mask)]
    encoded = [encoding.move_to_action(game, int(m)) for m in ids]
    return (
        count,
        mask.tobytes(),
        ids.tolist(),
        actions.tolist(),
        decoded,
        encoded,
        _frame(encoding, game),
    )


def test_two_games_interleaving_through_one_encoding_get_their_own_answers():
    a, b = HiveGame.from_gamestring(A), HiveGame.from_gamestring(B)
    alone = (_answers(E.make_encoding(""), a), _answers(E.make_encoding(""), b))
    assert alone[0][-1] != alone[1][-1], "the two hives must sit in different frames"
    shared = E.make_encoding("")
    before = _snapshot(shared)
    mask = np.zeros(shared.num_actions, dtype=np.int8)
    for game, other, (count, mask_bytes, _, _, decoded, _, _) in ((a, b, alone[0]), (b, a, alone[1])):
        # each call for `game` right after calls for `other`
        for action, move in zip(np.flatnonzero(np.frombuffer(mask_bytes, np.int8)), decoded):
            shared.write_mask(other, mask)
            assert shared.action_to_move(game, int(action)) == move
            shared.legal_actions(other)
            assert shared.move_to_action(game, move) == int(action)
        assert shared.write_mask(game, mask) == count
    assert _answers(shared, a) == alone[0] and _answers(shared, b) == alone[1]
    unchanged = _snapshot(shared)
    assert before.keys() == unchanged.keys()
    for name, value in before.items():
        assert np.array_equal(value, unchanged[name]), f"the encoding's {name} changed"


def test_legal_actions_does_not_read_a_frame_another_call_wrote(monkeypatch):
    """A switch to another game's call inside `legal_actions` (as a thread would make) changes nothing:
    no frame lives between the kernels of one call."""
    a, b = HiveGame.from_gamestring(A), HiveGame.from_gamestring(B)
    encoding = E.make_encoding("")
    expected = encoding.legal_actions(a)[1].tolist()
    mask = np.zeros(encoding.num_actions, dtype=np.int8)
    original = E.actions_of_moves

    def after_another_games_mask(*args):
        encoding.write_mask(b, mask)
        return original(*args)

    monkeypatch.setattr(E, "actions_of_moves", after_another_games_mask)
    assert encoding.legal_actions(a)[1].tolist() == expected


def test_frame_of_is_the_frame_of_the_games_position():
    game, encoding = HiveGame.from_gamestring(A), E.make_encoding("")
    assert encoding.frame_of(game).tolist() == _frame(encoding, game)
    game.play(game.legal_move_names()[0])
    assert encoding.frame_of(game).tolist() == _frame(encoding, game)
