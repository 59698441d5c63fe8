"""`hive_envs.testing` on the package's games (two Hive game types, Hoyito 2x6 and 2x12) and on the
tests' Nim, and on broken Nims: each kind of disagreement it promises to find, it finds."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from hive_envs.hive.definition import HIVE
from hive_envs.hoyito.definition import HOYITO
from hive_envs.testing import ConformanceError, check_batch, check_definition, check_protocol
from tests.nim import NIM, NimBatch, NimGame

pytestmark = pytest.mark.usefixtures("nim_registered")


@pytest.mark.parametrize(
    "definition, options",
    [
        (HIVE, {}),
        (HIVE, {"expansions": "MLP", "tournament_opening": False}),
        (HOYITO, {}),
        (HOYITO, {"holes_per_row": 12}),
        (NIM, {}),
        (NIM, {"pile": 7, "extra_turn": True}),
    ],
    ids=["hive-base", "hive-mlp", "hoyito-2x6", "hoyito-2x12", "nim", "nim-extra-turn"],
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
        check(dataclasses.replace(NIM, **parts))
