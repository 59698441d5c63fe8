"""The columns of the piece-centred Hive observation (``observation="pieces"``), by name and index.

A piece observation is an int16 array of ``2N + 1`` rows and `FIELDS` columns: a row per tile slot,
whose columns are `PIECE_FIELDS`, then the global row, whose columns are `GLOBAL_FIELDS`. Each name
has its index constant (``P_...`` for a tile row, ``G_...`` for the global row); the meaning of every
field is documented in `hive_envs.hive_v0`, the kernel that writes them is
`hive_envs.hive.piece_encoding`.
"""

from __future__ import annotations

import numpy as np

PIECE_FIELDS = (
    "kind",
    "colour",
    "placed",
    "q",
    "r",
    "height",
    "under",
    "above",
    "pinned",
    "movable",
    "last_moved",
    "neighbour_NE",
    "neighbour_E",
    "neighbour_SE",
    "neighbour_SW",
    "neighbour_W",
    "neighbour_NW",
)
"""The columns of a tile row, in order."""
P_KIND, P_COLOUR, P_PLACED, P_Q, P_R, P_HEIGHT = range(6)
P_UNDER, P_ABOVE, P_PINNED, P_MOVABLE, P_LAST_MOVED = range(6, 11)
P_NEIGHBOURS = 11  # the first of six columns, in the engine's direction order NE E SE SW W NW
FIELDS = len(PIECE_FIELDS)

GLOBAL_FIELDS = (
    "to_move",
    "last_ply_pass",
    "queen_due_own",
    "queen_due_opp",
    "turns_own",
    "turns_opp",
    "ply",
    "plies_left",
    "legal_actions",
    "must_pass",
    "queen_neighbours_own",
    "queen_neighbours_opp",
    "in_hand_own",
    "in_hand_opp",
    "queen_barred_own",
    "queen_barred_opp",
    "tournament_opening",
)
"""The columns of the global row, in order (as many as a tile row has)."""
G_TO_MOVE, G_LAST_PLY_PASS, G_QUEEN_DUE_OWN, G_QUEEN_DUE_OPP, G_TURNS_OWN, G_TURNS_OPP = range(6)
G_PLY, G_PLIES_LEFT, G_LEGAL_ACTIONS, G_MUST_PASS = range(6, 10)
G_QUEEN_NEIGHBOURS_OWN, G_QUEEN_NEIGHBOURS_OPP, G_IN_HAND_OWN, G_IN_HAND_OPP = range(10, 14)
G_QUEEN_BARRED_OWN, G_QUEEN_BARRED_OPP, G_TOURNAMENT_OPENING = range(14, 17)

SATURATED = int(np.iinfo(np.int16).max)
"""Where the counters of the global row stop (32,767)."""

ACTION_FIELDS = ("row", "q", "r")
"""The columns of `HivePiecesEncoding.action_table`: the tile row and the destination's coordinates."""
