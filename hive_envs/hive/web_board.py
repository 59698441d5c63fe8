"""What the web page (`hive_envs.web`) draws of a Hive position, and the script that draws it.

Hive's presentation parts for the page (`hive_envs.hive.definition`): ``web_board`` = `position`,
``web_drawer`` = `drawer` (the JavaScript of ``web_board.js`` beside this module, which the page loads
by the game's name), ``read_record`` = `read_record`. The page holds no rules: it draws what
`position` returns and offers only the moves listed in it.

`position`: ``stacks`` as ``{"q", "r", "pieces": [bottom, ..., top]}`` in the axial coordinates of
`HiveGame.stacks` (pointy-top hexes, ``x = q + r / 2``, ``y = r``: the geometry of
`hive_envs.hive.render`), both ``reserves``, the ``last`` moved piece's cell and the cell it came from
(``last_from``, None after a placement or a pass), each legal move as ``{"name": UHP string, "piece",
"from": [q, r] or None (a placement), "to": [q, r]}`` (a pass has only its name), the bugs' ``colours``,
and the moves played as ``turns`` numbered as UHP does (``1. wS1 bG1 2. ...``: White's move and
Black's reply, the number of ``White[2]`` in a GameString). Every destination touches a stack, so it
is named in the stacks' coordinates by way of the stack it touches (the engine keeps cells on a
torus). `hive_envs.web.boards.position` adds what every game's position has.
"""

from __future__ import annotations

from importlib import resources

from hive_envs.hive.engine.game import HiveGame
from hive_envs.hive.engine.grid import DIRECTIONS, cell_to_qr, qr_to_cell
from hive_envs.hive.engine.moves import PASS_MOVE, move_cell, move_piece
from hive_envs.hive.engine.pieces import PIECE_NAMES
from hive_envs.hive.render import BUG_COLOURS

GAME_TYPE_START = "Base"
"""How a GameString starts: its game type (``Base``, ``Base+MLP``, ...)."""
RECORD_OPTIONS = ("tournament_opening", "max_turns", "repetition_draw")
"""The rules a GameString does not carry, which a replay takes from the report that holds it."""


def end_reason(game) -> str:
    """Why a finished Hive game ended, in the order the rules check (`hive.engine.rules`)."""
    white, black = game.queen_neighbours(0) == 6, game.queen_neighbours(1) == 6
    if white and black:
        return "both Queens surrounded"
    if white or black:
        return f"{'White' if white else 'Black'}'s Queen surrounded"
    if game.passes_in_a_row >= 2:
        return "both players passed"
    if game.max_turns and game.ply >= game.max_turns:
        return f"turn cap ({game.max_turns} plies)"
    return "third repetition of a position"


def position(game) -> dict:
    """Everything the page draws of a Hive position (the module docstring)."""
    stacks = game.stacks()
    places = {qr_to_cell(q, r): (q, r) for q, r in stacks}
    for q, r in stacks:  # the empty cells touching the hive, where every destination lies
        for dq, dr in DIRECTIONS:
            places.setdefault(qr_to_cell(q + dq, r + dr), (q + dq, r + dr))
    where = {names[-1]: list(cell) for cell, names in stacks.items()}
    moves = []
    for move in game.legal_move_ids().tolist():
        if move == PASS_MOVE:
            moves.append({"name": game.move_name(move)})
            continue
        piece, cell = PIECE_NAMES[move_piece(move)], move_cell(move)
        to = places.get(cell) or cell_to_qr(cell)  # only the first placement touches no stack
        moves.append({"name": game.move_name(move), "piece": piece, "from": where.get(piece), "to": list(to)})
    last = game.last_moved
    played = game.record().split(";")[3:]
    return {
        "stacks": [{"q": q, "r": r, "pieces": names} for (q, r), names in stacks.items()],
        "reserves": [game.reserve(0), game.reserve(1)],
        "last": where.get(last) if last is not None else None,
        "last_from": _came_from(game, last, places),
        "last_move": played[-1] if played else None,
        "turns": [
            {"number": i // 2 + 1, "side": None, "moves": played[i : i + 2]} for i in range(0, len(played), 2)
        ],
        "moves": moves,
        "reason": end_reason(game) if game.is_terminal else None,
        "colours": {bug: "#{:02x}{:02x}{:02x}".format(*rgb) for bug, rgb in BUG_COLOURS.items()},
    }


def _came_from(game, piece: str | None, places: dict[int, tuple[int, int]]) -> list[int] | None:
    """The cell ``piece`` (moved on the last ply) stood on before, in the coordinates of ``places``
    (the cells of the stacks now and of their neighbours, where a vacated cell always is); None for
    a placement, a pass or the start."""
    if piece is None or game.ply == 0:
        return None
    before = game.copy()
    before.undo()
    for (q, r), names in before.stacks().items():
        if names[-1] == piece:
            cell = qr_to_cell(q, r)
            return list(places.get(cell) or cell_to_qr(cell))
    return None


def drawer() -> str:
    """The page's drawing of Hive positions: the script ``web_board.js`` beside this module."""
    return resources.files(__package__).joinpath("web_board.js").read_text(encoding="utf-8")


def read_record(text: str, options: dict) -> HiveGame | None:
    """The game a UHP GameString describes (its first field is its game type: ``Base+MLP;...``), played
    under the rules of ``options`` it does not carry (`RECORD_OPTIONS`); None for a text that is no
    GameString; ValueError for one the rules refuse."""
    if not text.startswith(GAME_TYPE_START):
        return None
    rules = {k: v for k, v in options.items() if k in RECORD_OPTIONS}
    return HiveGame.from_gamestring(text, **rules)
