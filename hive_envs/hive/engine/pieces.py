"""Piece numbering of the Hive engine.

``piece_id = colour * 14 + slot`` with colour 0 White / 1 Black and the slots, in order::

    slot  0  1  2  3  4  5  6  7  8  9  10 11 12 13
          Q  S1 S2 B1 B2 G1 G2 G3 A1 A2 A3 M  L  P

So ids 0..13 are wQ..wP and 14..27 are bQ..bP. Pieces absent from the game type (M, L, P without
their expansion) simply never leave the reserve and never appear in moves.
"""

import numpy as np

NUM_PIECE_SLOTS = 14
NUM_PIECES = 2 * NUM_PIECE_SLOTS
WHITE, BLACK = 0, 1

SLOT_NAMES = ("Q", "S1", "S2", "B1", "B2", "G1", "G2", "G3", "A1", "A2", "A3", "M", "L", "P")
PIECE_NAMES = tuple(c + s for c in "wb" for s in SLOT_NAMES)
PIECE_IDS = {name: i for i, name in enumerate(PIECE_NAMES)}

# Bug kinds (what a piece moves as).
QUEEN, SPIDER, BEETLE, GRASSHOPPER, ANT, MOSQUITO, LADYBUG, PILLBUG = range(8)
BUG_LETTERS = "QSBGAMLP"
SLOT_KIND = np.array([0, 1, 1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 6, 7], dtype=np.int32)
PIECE_KIND = np.concatenate([SLOT_KIND, SLOT_KIND]).astype(np.int32)
"""``PIECE_KIND[piece_id]``: the bug kind (QUEEN..PILLBUG) of a piece."""
KIND_FIRST_SLOT = np.array([0, 1, 3, 5, 8, 11, 12, 13], dtype=np.int32)
KIND_COUNT = np.array([1, 2, 2, 3, 3, 1, 1, 1], dtype=np.int32)

EXPANSION_KINDS = {"M": MOSQUITO, "L": LADYBUG, "P": PILLBUG}


def piece_colour(piece: int) -> int:
    return piece // NUM_PIECE_SLOTS


def kinds_mask(expansions: str) -> int:
    """Bit mask over bug kinds present in a game with these expansion letters."""
    mask = (1 << QUEEN) | (1 << SPIDER) | (1 << BEETLE) | (1 << GRASSHOPPER) | (1 << ANT)
    for letter in expansions:
        mask |= 1 << EXPANSION_KINDS[letter]
    return mask
