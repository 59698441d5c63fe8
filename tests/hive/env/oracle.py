"""A slow, obviously-correct Python encoder: the test oracle of `hive_envs.hive.encoding`.

It reads a game only through the public inspection API (`stacks()`, `reserve()`, `last_moved`,
`ply`, `to_move`, the GameString) and rebuilds the documented layout by plain loops:
the hive is unwrapped off the engine's torus by a flood fill over neighbours, and framed from
its unwrapped bounding box.
"""

from __future__ import annotations

import numpy as np

from hive_envs.hive.engine.grid import GRID_SIZE

DIRS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))  # NE E SE SW W NW
SUFFIX = {"/": 0, "-": 1, "\\": 2}
PREFIX = {"/": 3, "-": 4, "\\": 5}
KIND_LETTERS = "QSBGAMLP"
KIND_COUNTS = {"Q": 1, "S": 2, "B": 2, "G": 3, "A": 3, "M": 1, "L": 1, "P": 1}


def torus(q, r):
    return (q % GRID_SIZE, r % GRID_SIZE)


def unwrapped(stacks):
    """{torus cell: plane (q, r)} by a flood fill from the first cell (the hive is connected)."""
    cells = {torus(*c) for c in stacks}
    if not cells:
        return {}
    start = min(cells)
    out = {start: start}
    todo = [start]
    while todo:
        c = todo.pop()
        for dq, dr in DIRS:
            n = torus(c[0] + dq, c[1] + dr)
            if n in cells and n not in out:
                out[n] = (out[c][0] + dq, out[c][1] + dr)
                todo.append(n)
    assert len(out) == len(cells), "hive not connected"
    return out


class Frame:
    """Maps torus cells of interest (hive and neighbours) to frame cells, as documented."""

    def __init__(self, stacks, grid):
        plane = unwrapped(stacks) or {(0, 0): (0, 0)}
        qs = [p[0] for p in plane.values()]
        rs = [p[1] for p in plane.values()]
        q0 = min(qs) + (max(qs) - min(qs)) // 2
        r0 = min(rs) + (max(rs) - min(rs)) // 2
        self.cells = {}
        for base, (pq, pr) in plane.items():
            for dq, dr in ((0, 0), *DIRS):
                fq = (pq + dq - q0 + grid // 2) % grid
                fr = (pr + dr - r0 + grid // 2) % grid
                cell = torus(base[0] + dq, base[1] + dr)
                assert self.cells.setdefault(cell, fq * grid + fr) == fq * grid + fr
        assert len(set(self.cells.values())) == len(self.cells), "two cells share a frame cell"

    def frame_cell(self, q, r):
        """Frame cell index of torus cell (q, r), which must be in or next to the hive."""
        return self.cells[torus(q, r)]


def locate(stacks):
    """{piece name: torus cell} of every piece in play."""
    return {name: torus(*cell) for cell, names in stacks.items() for name in names}


def destination(move, where):
    """(piece name, torus cell) of a UHP move string; ``where`` = `locate` of the position before it."""
    parts = move.split()
    if len(parts) == 1:
        return parts[0], (0, 0)
    piece, ref = parts
    if ref[0] in PREFIX:
        d, name = PREFIX[ref[0]], ref[1:]
    elif ref[-1] in SUFFIX:
        d, name = SUFFIX[ref[-1]], ref[:-1]
    else:
        return piece, where[ref]
    q, r = where[name]
    return piece, torus(q + DIRS[d][0], r + DIRS[d][1])


def slot_names(expansions):
    return ["Q", "S1", "S2", "B1", "B2", "G1", "G2", "G3", "A1", "A2", "A3"] + list(expansions)


def action_of(move, game, expansions, grid, frame, where):
    """Action index of a UHP move string by the documented formula (`Frame` / `locate` of ``game``)."""
    n = len(slot_names(expansions))
    if move == "pass":
        return 2 * n * grid * grid
    piece, cell = destination(move, where)
    mover = "wb"[int(game.to_move)]
    rel = 0 if piece[0] == mover else 1
    slot = slot_names(expansions).index(piece[1:])
    return (rel * n + slot) * grid * grid + frame.frame_cell(*cell)


def observation(game, seat, expansions, grid):
    """The documented observation planes of ``game`` seen by ``seat``."""
    slots = slot_names(expansions)
    n = len(slots)
    kinds = [k for k in KIND_LETTERS if k in "QSBGA" + expansions]
    planes = 2 * n + 2 * len(kinds) + 10
    obs = np.zeros((planes, grid, grid), dtype=np.uint8)
    stacks = game.stacks()
    frame = Frame(stacks, grid)
    own = "wb"[seat]
    for (q, r), names in stacks.items():
        f = frame.frame_cell(q, r)
        fq, fr = divmod(f, grid)
        for level, name in enumerate(names):
            rel = 0 if name[0] == own else 1
            obs[rel * n + slots.index(name[1:]), fq, fr] = level + 1
        obs[2 * n + (0 if names[-1][0] == own else 1), fq, fr] = 1
        if names[-1] == game.last_moved:
            obs[2 * n + 2, fq, fr] = 1
    base = 2 * n + 3
    for side, colour in enumerate((seat, 1 - seat)):
        in_reserve = [name[1] for name in game.reserve(colour)]
        for k, letter in enumerate(kinds):
            obs[base + side * len(kinds) + k] = in_reserve.count(letter)
    t = base + 2 * len(kinds)
    ply = int(game.ply)
    moves = game.gamestring.split(";")[3:]
    assert len(moves) == ply
    obs[t] = int(int(game.to_move) == seat)
    obs[t + 1] = int(bool(moves) and moves[-1] == "pass")
    for side, colour in enumerate((seat, 1 - seat)):
        turns = len(moves[colour::2])
        queen_out = ("wb"[colour] + "Q") in game.reserve(colour)
        obs[t + 2 + side] = int(queen_out and turns == 3)
    obs[t + 4] = ply % 256
    obs[t + 5] = ply // 256
    cap = game.max_turns
    obs[t + 6] = 255 if cap is None else max(0, min(255, cap - ply))
    return obs
