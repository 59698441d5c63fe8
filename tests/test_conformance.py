"""`hive_envs.testing` on the package's games (two Hive game types, Hoyito 2x6 and 2x12) and on the
tests' Nim, and on broken Nims: each kind of disagreement it promises to find, it finds."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from hive_envs.hive.definition import HIVE
from hive_envs.hive.piece_encoding import HivePiecesEncoding, make_pieces_encoding
from hive_envs.hive.piece_layout import P_NEIGHBOURS, P_PINNED
from hive_envs.hoyito.definition import HOYITO
from hive_envs.testing import ConformanceError, check_batch, check_definition, check_protocol
from tests.nim import NIM, NimBatch, NimGame

pytestmark = pytest.mark.usefixtures("nim_registered")


@pytest.mark.parametrize(
    "definition, options",
    [
        (HIVE, {}),
        (HIVE, {"expansions": "MLP", "tournament_opening": False}),
        (HIVE, {"observation": "pieces"}),
        (HIVE, {"expansions": "MLP", "observation": "pieces"}),
        (HOYITO, {}),
        (HOYITO, {"holes_per_row": 12}),
        (NIM, {}),
        (NIM, {"pile": 7, "extra_turn": True}),
    ],
    ids=[
        "hive-base",
        "hive-mlp",
        "hive-base-pieces",
        "hive-mlp-pieces",
        "hoyito-2x6",
        "hoyito-2x12",
        "nim",
        "nim-extra-turn",
    ],
)
def test_the_games_parts_agree(definition, options):
    check_definition(definition, options, seed=1)


class UndoForgetsTheSeat(NimGame):
    def undo(self):
        to_move = self.to_move
        super().undo()
        self.to_move = to_move


class AcceptsFloats(NimGame):
    def play_id(self, move_id):
        super().play_id(int(move_id) if isinstance(move_id, float) else move_id)


class MaskOffByOne(NimBatch):
    def _publish(self, g):
        super()._publish(g)
        self.action_mask[g] = np.roll(self.action_mask[g], 1)


class TakesOneForAnIllegalAction(NimBatch):
    def _prepare_actions(self, a, active):
        legal = self.action_mask[np.arange(self.num_games), np.clip(a, 0, 2)] == 1
        return np.where(legal, a, 0).astype(np.int64)


def not_rgb(game):
    return np.zeros((4, 4), dtype=np.uint8)


def forgets_the_moves(text, options):
    return NimGame(options)


# A broken part of Nim, the check that must find it, and what its ConformanceError must say.
BROKEN = {
    "an undo that does not restore the position": (
        {"new_game": UndoForgetsTheSeat},
        check_protocol,
        "nim protocol: play_id.* then undo",
    ),
    "a move id that should be refused": (
        {"new_game": AcceptsFloats},
        check_protocol,
        r"play_id\(1.5\) was accepted",
    ),
    "a batch mask that disagrees with the encoder": (
        {"batch": MaskOffByOne},
        check_batch,
        r"nim batch: row \d+'s mask is not the encoder's",
    ),
    "a record that does not replay": (
        {"from_record": forgets_the_moves},
        check_protocol,
        "nim record: from_record",
    ),
    "a picture that is not RGB": (
        {"draw_picture": not_rgb},
        check_protocol,
        r"nim drawing: draw_picture gave uint8 \(4, 4\)",
    ),
    "a batch that plays an illegal action instead of refusing it": (
        {"batch": TakesOneForAnIllegalAction},
        check_batch,
        r"nim batch: row 0 accepted the illegal action \d",
    ),
}


@pytest.mark.parametrize("broken", BROKEN)
def test_each_kind_of_disagreement_is_found(broken):
    parts, check, message = BROKEN[broken]
    with pytest.raises(ConformanceError, match=message):
        check(NIM.with_parts(**parts))


# A Hive pieces encoder that errs, and what its ConformanceError must say (the independent reading of
# `hive_envs.hive.piece_audit` finds it, through the encoder's `audit_observation`).
class SwapsTwoNeighbours(HivePiecesEncoding):
    def observe(self, game, seat, out):
        super().observe(game, seat, out)
        out[:-1, [P_NEIGHBOURS, P_NEIGHBOURS + 1]] = out[:-1, [P_NEIGHBOURS + 1, P_NEIGHBOURS]]


class ForgetsThePins(HivePiecesEncoding):
    def observe(self, game, seat, out):
        super().observe(game, seat, out)
        out[:-1, P_PINNED] = 0


def _broken(cls, table=None):
    def encoder(options, observation="planes"):
        right = make_pieces_encoding(options.expansions)
        fields = {f.name: getattr(right, f.name) for f in dataclasses.fields(right)}
        if table is not None:
            fields["action_table"] = table(right.action_table)
        return cls(**fields)

    return HIVE.with_parts(encoder=encoder)


def _destinations_one_cell_east(table):
    moved = table.copy()
    moved[:-1, 1] += 1
    return moved


HIVE_BROKEN = {
    "neighbours in the wrong directions": (_broken(SwapsTwoNeighbours), r"row \w+, field neighbour_(NE|E): "),
    "no pins": (_broken(ForgetsThePins), r"row \w+, field pinned: 0, the game says 1"),
    "an action table off by a cell": (
        _broken(HivePiecesEncoding, _destinations_one_cell_east),
        r"action \d+ \(.*\) is \(row, q, r\) .* in action_table, the move is",
    ),
}


@pytest.mark.parametrize("broken", HIVE_BROKEN)
def test_each_kind_of_piece_observation_error_is_found(broken):
    definition, message = HIVE_BROKEN[broken]
    with pytest.raises(
        ConformanceError, match="hive protocol: seat [01]'s observation disagrees with the game: " + message
    ):
        check_protocol(definition, {"observation": "pieces"}, games=3)
