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


def test_an_undo_that_does_not_restore_the_position_is_found():
    broken = dataclasses.replace(NIM, new_game=UndoForgetsTheSeat)
    with pytest.raises(ConformanceError, match="nim protocol: play_id.* then undo"):
        check_protocol(broken)


def test_a_move_id_that_should_be_refused_is_found():
    broken = dataclasses.replace(NIM, new_game=AcceptsFloats)
    with pytest.raises(ConformanceError, match=r"play_id\(1.5\) was accepted"):
        check_protocol(broken)


def test_a_batch_mask_that_disagrees_with_the_encoder_is_found():
    broken = dataclasses.replace(NIM, batch=MaskOffByOne)
    with pytest.raises(ConformanceError, match=r"nim batch: row \d+'s mask is not the encoder's"):
        check_batch(broken)


def test_a_record_that_does_not_replay_is_found():
    broken = dataclasses.replace(NIM, from_record=lambda text, options: NimGame(options))
    with pytest.raises(ConformanceError, match="nim record: from_record"):
        check_protocol(broken)


def test_a_picture_that_is_not_rgb_is_found():
    broken = dataclasses.replace(NIM, draw_picture=lambda game: np.zeros((4, 4), dtype=np.uint8))
    with pytest.raises(ConformanceError, match=r"nim drawing: draw_picture gave uint8 \(4, 4\)"):
        check_protocol(broken)


def test_a_batch_that_plays_an_illegal_action_instead_of_refusing_it_is_found():
    broken = dataclasses.replace(NIM, batch=TakesOneForAnIllegalAction)
    with pytest.raises(ConformanceError, match=r"nim batch: row 0 accepted the illegal action \d"):
        check_batch(broken)
