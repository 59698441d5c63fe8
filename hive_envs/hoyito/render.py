"""Text and picture renderings of a Hoyito II position (South at the bottom, as in the rules)."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from hive_envs.hoyito.engine.game import HoyitoGame

PIT = 56  # pit diameter in pixels
GAP = 10
MARGIN = 16
STORE_W = 90
BG = (205, 160, 105)
PIT_FILL = (140, 95, 55)
TEXT = (255, 255, 255)
DARK = (40, 25, 10)
HIGHLIGHT = (250, 220, 60)
SIDE_NAMES = ("South (player_0)", "North (player_1)")


def render_text(game: HoyitoGame) -> str:
    """Two rows of counts (North on top, reading right to left in hole order), totals, turn."""
    n, board = game.holes_per_row, game.board
    north = " ".join(f"{c:3d}" for c in reversed(board[n:]))
    south = " ".join(f"{c:3d}" for c in board[:n])
    c0, c1 = game.captured
    if game.is_terminal:
        w = game.winner
        status = "game over: " + ("draw" if w == -1 or w is None else f"{SIDE_NAMES[w]} wins")
    else:
        status = f"to move: {SIDE_NAMES[game.to_move]}"
    return (
        f"North captured {c1:3d} | {north}\n"
        f"South captured {c0:3d} | {south}\n"
        f"{status}; plies without capture: {game.plies_without_capture}"
    )


def render_numbered(game: HoyitoGame) -> str:
    """`render_text`'s two rows with the absolute hole numbers (the moves one types) around them."""
    n = game.holes_per_row
    lines = render_text(game).splitlines()
    pad = " " * len("North captured   0 | ")
    north = pad + " ".join(f"{h:>3d}" for h in range(2 * n - 1, n - 1, -1))
    south = pad + " ".join(f"{h:>3d}" for h in range(n))
    return "\n".join(
        [north + "   <- North's hole numbers", *lines[:2], south + "   <- South's hole numbers", lines[2]]
    )


def render_rgb(game: HoyitoGame) -> np.ndarray:
    """A picture: two rows of pits with their counts, each side's captured pile, whose turn."""
    n, board = game.holes_per_row, game.board
    width = 2 * MARGIN + 2 * STORE_W + n * PIT + (n - 1) * GAP
    height = 2 * MARGIN + 2 * PIT + GAP + 24
    img = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(img)
    top = MARGIN + 24
    for row in (0, 1):  # row 0 = North (top), drawn right to left in hole order
        y = top + row * (PIT + GAP)
        for col in range(n):
            hole = (2 * n - 1 - col) if row == 0 else col
            x = MARGIN + STORE_W + col * (PIT + GAP)
            draw.ellipse((x, y, x + PIT, y + PIT), fill=PIT_FILL, outline=DARK, width=2)
            _centered(draw, x + PIT / 2, y + PIT / 2, str(board[hole]), TEXT)
    c0, c1 = game.captured
    for side, total in ((1, c1), (0, c0)):
        x = MARGIN if side == 1 else width - MARGIN - STORE_W + 10
        y = top + (0 if side == 1 else PIT + GAP)
        mover = not game.is_terminal and game.to_move == side
        draw.rounded_rectangle(
            (x, y, x + STORE_W - 10, y + PIT), 8, fill=PIT_FILL, outline=HIGHLIGHT if mover else DARK, width=3
        )
        _centered(draw, x + (STORE_W - 10) / 2, y + PIT / 2, f"{'NS'[1 - side]}: {total}", TEXT)
    if game.is_terminal:
        w = game.winner
        status = "game over: " + ("draw" if w == -1 or w is None else f"{SIDE_NAMES[w]} wins")
    else:
        status = f"to move: {SIDE_NAMES[game.to_move]}"
    _centered(draw, width / 2, MARGIN + 6, status, DARK)
    return np.asarray(img, dtype=np.uint8)


def _centered(draw: ImageDraw.ImageDraw, cx: float, cy: float, text: str, fill) -> None:
    left, top, right, bottom = draw.textbbox((0, 0), text)
    draw.text((cx - (right - left) / 2, cy - (bottom - top) / 2 - top), text, fill=fill)
