"""What the page draws of a position, as JSON-ready data: one function per game (its definition's
``web_board`` names it).

The page holds no rules: it draws what `position` returns and offers only the moves listed in it.

Hive (``kind: "hive"``): ``stacks`` as ``{"q", "r", "pieces": [bottom, ..., top]}`` in the axial
coordinates of `HiveGame.stacks` (pointy-top hexes, ``x = q + r / 2``, ``y = r``: the geometry of
`hive_envs.hive.render`), both ``reserves``, the ``last`` moved piece's cell and the cell it came
from (``last_from``, None after a placement or a pass), and each legal move as
``{"name": UHP string, "piece", "from": [q, r] or None (a placement), "to": [q, r]}`` (a pass has
only its name). Every destination touches a stack, so it is named in the stacks' coordinates by
way of the stack it touches (the engine keeps cells on a torus).

Hoyito (``kind: "hoyito"``): the ``holes`` counts (South's 0..n-1, North's n..2n-1), ``captured``,
the ``last`` hole played, and each legal move as ``{"name": hole number, "hole"}``.

The moves played so far as ``turns``, ``[{"number", "side", "moves": [names]}]``, numbered as the game
counts them: Hive by turns as UHP does (``1. wS1 bG1 2. ...``: White's move and Black's reply, the
number of ``White[2]`` in a GameString); Hoyito by each side's turn, a run of moves by one side
(a capture that empties a hole gives the same side another move, so a turn can hold several).

Both: ``last_move`` (the name of the last move, None at the start), ``to_move``, ``ply``, ``over``, ``result`` (seat 0's side), ``winner`` (the side's name or
None for a draw), ``reason`` (why the game ended), ``sides``, ``record`` and ``status`` (one line).
"""

from __future__ import annotations

from hive_envs.core.game import Game
from hive_envs.core.parts import load
from hive_envs.games import game_entry
from hive_envs.hive.engine.grid import DIRECTIONS, cell_to_qr, qr_to_cell
from hive_envs.hive.engine.moves import PASS_MOVE, move_cell, move_piece
from hive_envs.hive.engine.pieces import PIECE_NAMES
from hive_envs.hive.render import BUG_COLOURS


def hive_end_reason(game) -> str:
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


def hive_position(game) -> dict:
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
        "kind": "hive",
        "stacks": [{"q": q, "r": r, "pieces": names} for (q, r), names in stacks.items()],
        "reserves": [game.reserve(0), game.reserve(1)],
        "last": where.get(last) if last is not None else None,
        "last_from": _came_from(game, last, places),
        "last_move": played[-1] if played else None,
        "turns": [
            {"number": i // 2 + 1, "side": None, "moves": played[i : i + 2]} for i in range(0, len(played), 2)
        ],
        "moves": moves,
        "reason": hive_end_reason(game) if game.is_terminal else None,
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


def hoyito_turns(game) -> list[dict]:
    """The moves played as runs of one side's moves (see the module docstring)."""
    sides = game_entry(game.game_name).seat_names
    replay = game.copy()
    movers = []
    for _ in range(game.ply):  # who moved each ply, last first
        replay.undo()
        movers.append(replay.to_move)
    movers.reverse()
    played = game.record().rpartition("moves=")[2].split(",") if game.ply else []
    turns: list[dict] = []
    for mover, name in zip(movers, played):
        if turns and turns[-1]["side"] == sides[mover]:
            turns[-1]["moves"].append(name)
        else:
            turns.append({"number": len(turns) + 1, "side": sides[mover], "moves": [name]})
    return turns


def hoyito_end_reason(game) -> str:
    if game.plies_without_capture > 0:  # a capture resets the clock; only the stall guard ends with it up
        return "no capture for too long: each side takes the counters on its own row"
    return "four counters or fewer were left: the last capturer took them"


def hoyito_position(game) -> dict:
    played = game.record().rpartition("moves=")[2]
    return {
        "kind": "hoyito",
        "holes_per_row": game.holes_per_row,
        "holes": game.board,
        "captured": list(game.captured),
        "last": int(played.rsplit(",", 1)[-1]) if played else None,
        "last_move": played.rsplit(",", 1)[-1] if played else None,
        "turns": hoyito_turns(game),
        "moves": [{"name": game.move_name(m), "hole": m} for m in game.legal_move_ids().tolist()],
        "reason": hoyito_end_reason(game) if game.is_terminal else None,
    }


def position(game: Game) -> dict:
    """Everything the page shows of ``game`` now (see the module docstring)."""
    definition = game_entry(game.game_name)
    if definition.web_board is None:
        raise ValueError(
            f"the page cannot draw a game of {definition.title} (its definition has no web_board)"
        )
    sides = definition.seat_names
    data = load(definition.web_board)(game)
    result = game.result
    winner = None if result is None or result == 0 else sides[0 if result > 0 else 1]
    if result is None:
        status = f"{sides[game.to_move]} to move, ply {game.ply}"
    else:
        status = f"{'draw' if winner is None else winner + ' wins'}: {data['reason']} after {game.ply} plies"
    data.update(
        game=game.game_name,
        sides=list(sides),
        to_move=game.to_move,
        ply=game.ply,
        over=game.is_terminal,
        result=result,
        winner=winner,
        record=game.record(),
        status=status,
    )
    return data
