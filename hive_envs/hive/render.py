"""Pictures of a Hive position: a text board (`ansi`), an RGB image (`rgb_array`), PNG files.

Everything here reads a `HiveGame` through its public inspection API (`stacks()`, `reserve()`,
`last_moved`, `to_move`, `ply`, `outcome`) and draws the hive in unwrapped axial
coordinates: the engine keeps cells on a torus, so the hive is first cut out of the torus along
the widest empty band of each axis (`hive_envs.hive.encoding.unwrap_cells`).

Hexagons are pointy-top; axial ``(q, r)`` maps to the plane as ``x = q + r / 2``, ``y = r``
(UHP "east" is ``q + 1``, "south-east" is ``r + 1``)::

        NW (q, r-1)   NE (q+1, r-1)
    W (q-1, r)   [q, r]   E (q+1, r)
        SW (q-1, r+1)  SE (q, r+1)

`save_png(gamestring, path)` writes the picture of any UHP GameString (used for the README); from a
shell: ``python -m hive_envs.hive.render GAMESTRING OUT.png``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from hive_envs.hive.encoding import unwrap_cells
from hive_envs.hive.engine.game import HiveGame

#: Fill colour of a tile per bug letter (the letter itself is drawn in the owner's contrast colour).
BUG_COLOURS = {
    "Q": (230, 180, 30),
    "S": (150, 90, 40),
    "B": (120, 80, 170),
    "G": (60, 160, 70),
    "A": (40, 110, 200),
    "M": (130, 130, 130),
    "L": (210, 50, 50),
    "P": (40, 170, 170),
}
_OWNER_FILL = {"w": (245, 240, 225), "b": (40, 40, 40)}
_OWNER_INK = {"w": (20, 20, 20), "b": (245, 245, 245)}
_LAST_MOVE = (255, 0, 200)  # magenta: no bug uses it
_BADGE = (200, 30, 30)
_BACKGROUND = (205, 215, 200)
_EMPTY_EDGE = (170, 180, 165)
_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


@dataclass(frozen=True)
class BoardView:
    """What a picture shows: stacks in unwrapped axial coordinates and the side information."""

    stacks: dict[tuple[int, int], list[str]]
    reserves: tuple[list[str], list[str]]
    last_moved_cell: tuple[int, int] | None
    header: str

    @property
    def empty_neighbours(self) -> set[tuple[int, int]]:
        """Empty cells touching the hive (where the next pieces can go)."""
        out = set()
        for q, r in self.stacks:
            for dq, dr in _DIRECTIONS:
                cell = (q + dq, r + dr)
                if cell not in self.stacks:
                    out.add(cell)
        return out


def board_view(game) -> BoardView:
    """Collect what a picture of ``game`` shows, with the hive unwrapped off the engine's torus."""
    raw = game.stacks()
    unwrapped = unwrap_cells(list(raw))
    stacks = {unwrapped[cell]: list(names) for cell, names in raw.items()}
    last_cell = None
    last = game.last_moved
    if last is not None:
        for cell, names in stacks.items():
            if names[-1] == last:
                last_cell = cell
    reserves = (list(game.reserve(0)), list(game.reserve(1)))
    if game.outcome is not None:
        header = f"{game.outcome} after {game.ply} plies"
    else:
        side = "White" if int(game.to_move) == 0 else "Black"
        header = f"{side} to move, ply {game.ply}"
    return BoardView(stacks, reserves, last_cell, header)


def render_ansi(game) -> str:
    """A text picture: one 6-character column pair per hex, rows offset by half a hex.

    A cell shows its top tile (``wQ``, ``bB1``); ``+`` after it marks a stack (listed below the
    board, bottom to top), ``*`` the last-moved tile, ``.`` an empty cell next to the hive.
    """
    view = board_view(game)
    lines = [view.header]
    cells = dict(view.stacks)
    empties = view.empty_neighbours if cells else set()
    if cells:
        every = list(cells) + list(empties)
        col_min = min(2 * q + r for q, r in every)
        col_max = max(2 * q + r for q, r in every)
        r_min = min(r for _, r in every)
        r_max = max(r for _, r in every)
        for r in range(r_min, r_max + 1):
            row = [" "] * (3 * (col_max - col_min) + 4)
            for q, rr in every:
                if rr != r:
                    continue
                x = 3 * (2 * q + r - col_min)
                if (q, r) in cells:
                    names = cells[(q, r)]
                    label = names[-1].ljust(3)
                    stacked = "+" if len(names) > 1 else " "
                    mark = "*" if (q, r) == view.last_moved_cell else stacked
                    text = label + mark
                else:
                    text = " .  "
                row[x : x + 4] = list(text)
            lines.append("".join(row).rstrip())
        for cell, names in sorted(cells.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            if len(names) > 1:
                lines.append(f"stack {' < '.join(names)}")
    else:
        lines.append("(empty hive)")
    lines.append("White reserve: " + (" ".join(view.reserves[0]) or "-"))
    lines.append("Black reserve: " + (" ".join(view.reserves[1]) or "-"))
    return "\n".join(lines) + "\n"


def _font(size: int):
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1 has one fixed-size default font
        return ImageFont.load_default()


def _hexagon(cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    return [
        (cx + radius * math.cos(math.radians(60 * k - 30)), cy + radius * math.sin(math.radians(60 * k - 30)))
        for k in range(6)
    ]


def render_rgb(game, width: int = 640, height: int = 640) -> np.ndarray:
    """An RGB picture (``height x width x 3`` uint8) of the hive and both reserves.

    Tiles are hexagons filled in the owner's colour with a band in the bug's colour, the bug letter
    (and number) in the middle, the stack height as a small figure when above one; the last-moved tile
    has a magenta rim. The hexagon size adapts so that the whole hive fits; the image size is fixed.
    """
    view = board_view(game)
    image = Image.new("RGB", (width, height), _BACKGROUND)
    draw = ImageDraw.Draw(image)
    band = max(24, height // 12)
    draw.text((8, 4), view.header, fill=(0, 0, 0), font=_font(max(12, band // 2)))
    _draw_reserve(draw, view.reserves[1], "Black", 8, band - 4, width, band)
    _draw_reserve(draw, view.reserves[0], "White", 8, height - band - 4, width, band)

    cells = list(view.stacks) + list(view.empty_neighbours)
    if not cells:
        cells = [(0, 0)]
    xs = [q + r / 2 for q, r in cells]
    ys = [r * 1.5 / math.sqrt(3) for _, r in cells]
    top, bottom = 2 * band, height - 2 * band
    span_x = max(xs) - min(xs) + 1
    span_y = max(ys) - min(ys) + 2 / math.sqrt(3)
    unit = min((width - 16) / span_x, (bottom - top) / span_y)  # distance between neighbour centres
    radius = unit / math.sqrt(3)
    ox = width / 2 - unit * (max(xs) + min(xs)) / 2
    oy = (top + bottom) / 2 - unit * (max(ys) + min(ys)) / 2
    letter_font = _font(max(8, int(radius * 0.7)))
    small_font = _font(max(7, int(radius * 0.3)))

    def centre(cell: tuple[int, int]) -> tuple[float, float]:
        q, r = cell
        return ox + unit * (q + r / 2), oy + unit * r * 1.5 / math.sqrt(3)

    for cell in view.empty_neighbours:
        draw.polygon(_hexagon(*centre(cell), radius * 0.95), outline=_EMPTY_EDGE)
    for cell, names in view.stacks.items():
        cx, cy = centre(cell)
        top_name = names[-1]
        owner, bug = top_name[0], top_name[1]
        last = cell == view.last_moved_cell
        if last:
            draw.polygon(_hexagon(cx, cy, radius * 1.02), fill=_LAST_MOVE)
        draw.polygon(
            _hexagon(cx, cy, radius * 0.88 if last else 0.95 * radius),
            fill=BUG_COLOURS[bug],
            outline=(90, 90, 90),
            width=2,
        )
        draw.polygon(_hexagon(cx, cy, radius * 0.72), fill=_OWNER_FILL[owner])
        draw.text(
            (cx, cy - radius * 0.08), top_name[1:], fill=_OWNER_INK[owner], font=letter_font, anchor="mm"
        )
        if len(names) > 1:  # height badge, and the tiles beneath (top first) in small print
            bx, by, br = cx + radius * 0.45, cy - radius * 0.4, radius * 0.22
            draw.ellipse((bx - br, by - br, bx + br, by + br), fill=_BADGE)
            draw.text((bx, by), str(len(names)), fill=(255, 255, 255), font=small_font, anchor="mm")
            beneath = " ".join(reversed(names[:-1]))
            draw.text((cx, cy + radius * 0.45), beneath, fill=_OWNER_INK[owner], font=small_font, anchor="mm")
    return np.asarray(image, dtype=np.uint8)


def _draw_reserve(draw, names: list[str], side: str, x: float, y: float, width: int, band: int) -> None:
    font = _font(max(10, band // 2))
    draw.text((x, y + band // 4), f"{side}:", fill=(0, 0, 0), font=font)
    px: float = x + 2 * band + 20
    step = min(max(band, 28), (width - px - 4) / max(1, len(names)))
    for name in names:
        cx, cy = px + step / 2, y + band / 2 + 4
        draw.polygon(_hexagon(cx, cy, step / 2), fill=BUG_COLOURS[name[1]])
        draw.polygon(_hexagon(cx, cy, step / 2.8), fill=_OWNER_FILL[name[0]])
        draw.text(
            (cx, cy), name[1:], fill=_OWNER_INK[name[0]], font=_font(max(8, int(step // 3))), anchor="mm"
        )
        px += step


def save_png(gamestring: str, path: str, width: int = 640, height: int = 640) -> None:
    """Write a PNG picture of the position a UHP GameString (or GameTypeString) describes."""
    game = HiveGame.from_gamestring(gamestring)
    Image.fromarray(render_rgb(game, width, height)).save(path)


MIN_SIZE, MAX_SIZE = 64, 4096  #: --size range of the command line (4096² RGB is 48 MiB)


def main(argv=None) -> int:
    """``python -m hive_envs.hive.render GAMESTRING OUT.png``: write the picture of a position.

    A bad GameString, size or output path is reported on one line (``error: ...``) with exit code 2.
    """
    import argparse
    import sys

    parser = argparse.ArgumentParser(description="Write a PNG picture of a Hive position.")
    parser.add_argument(
        "gamestring", help='UHP GameString or GameTypeString, e.g. "Base;InProgress;White[2];wS1;bS1 wS1-"'
    )
    parser.add_argument("path", help="output PNG file")
    parser.add_argument(
        "--size", type=int, default=640, help=f"width and height in pixels ({MIN_SIZE} to {MAX_SIZE})"
    )
    args = parser.parse_args(argv)
    try:
        if not MIN_SIZE <= args.size <= MAX_SIZE:
            raise ValueError(f"--size must be in [{MIN_SIZE}, {MAX_SIZE}], got {args.size}")
        game = HiveGame.from_gamestring(args.gamestring)
    except ValueError as error:
        print(f"error: {' '.join(str(error).split())}", file=sys.stderr)
        return 2
    try:
        Image.fromarray(render_rgb(game, args.size, args.size)).save(args.path)
    except (OSError, ValueError) as error:  # PIL: ValueError for an unknown file extension
        print(f"error: cannot write {args.path!r}: {' '.join(str(error).split())}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
