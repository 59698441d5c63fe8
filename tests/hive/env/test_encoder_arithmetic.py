"""The encoders' fast arithmetic equals its definition: frame coordinates without a division, and
an observation written without first zeroing the planes that are written whole."""

from __future__ import annotations

import numpy as np
import pytest

from hive_envs.hive import encoding as E
from hive_envs.hive.engine.grid import GRID_SIZE, NUM_CELLS

from .positions import random_positions


@pytest.mark.parametrize("grid", [24, 26, 28, 30])
def test_frame_coordinates_equal_the_modulo_definition_for_every_value_origin_and_span(grid):
    frame = np.zeros(E.FRAME_SIZE, np.int32)
    for lo in range(GRID_SIZE):
        for span in range(1, GRID_SIZE + 1):
            off = grid // 2 - (span - 1) // 2
            frame[:] = (lo, off, (lo * 7) % GRID_SIZE, off)
            for cell in range(0, NUM_CELLS, 7):
                q, r = divmod(cell, GRID_SIZE)
                fq = ((q - lo + 1) % GRID_SIZE - 1 + off) % grid
                fr = ((r - frame[2] + 1) % GRID_SIZE - 1 + off) % grid
                assert E.cell_to_frame(cell, frame, grid) == fq * grid + fr


@pytest.mark.parametrize("expansions", ["", "MLP"])
def test_observation_overwrites_every_byte_of_a_dirty_buffer(expansions):
    enc = E.make_encoding(expansions)
    for i, env in enumerate(random_positions(expansions, games=1, seed=4, max_turns=120)):
        if i % 5:
            continue
        s = env.game.state
        for seat in (0, 1):
            clean = np.zeros(enc.observation_shape, np.uint8)
            dirty = np.full(enc.observation_shape, 0xAB, np.uint8)
            for out in (clean, dirty):
                E.encode_observation(s, seat, enc.grid, enc.tiles_per_colour, enc.slot_of, enc.kinds, out)
            assert np.array_equal(clean, dirty)
            framed = np.full(enc.observation_shape, 0xCD, np.uint8)
            frame = np.zeros(E.FRAME_SIZE, np.int32)
            E.hive_frame(s, enc.grid, frame)
            E.encode_observation_in_frame(
                s, seat, frame, enc.grid, enc.tiles_per_colour, enc.slot_of, enc.kinds, framed
            )
            assert np.array_equal(clean, framed)
