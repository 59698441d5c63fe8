"""What the web page (`hive_envs.web`) draws of a Hoyito position, and the script that draws it.

Hoyito's presentation parts for the page (`hive_envs.hoyito.definition`): ``web_board`` = `position`,
``web_drawer`` = `drawer` (the JavaScript of ``web_board.js`` beside this module, which the page loads
by the game's name), ``read_record`` = `read_record`.

`position`: the ``holes`` counts (South's 0..n-1, North's n..2n-1), ``captured``, the ``last`` hole
played, each legal move as ``{"name": hole number, "hole"}``, and the moves played as ``turns``, one
per run of one side's moves (a capture that empties a hole gives the same side another move, so a
turn can hold several). `hive_envs.web.boards.position` adds what every game's position has.
"""

from __future__ import annotations

from importlib import resources

from hive_envs.hoyito.definition import HOYITO
from hive_envs.hoyito.engine.game import HoyitoGame

RECORD_PREFIX = "HoyitoII;"
"""How a Hoyito record (`HoyitoGame.record`) starts: ``HoyitoII;holes_per_row=6;...;moves=2,11``."""


def turns(game) -> list[dict]:
    """The moves played as runs of one side's moves (see the module docstring)."""
    sides = HOYITO.seat_names
    replay = game.copy()
    movers = []
    for _ in range(game.ply):  # who moved each ply, last first
        replay.undo()
        movers.append(replay.to_move)
    movers.reverse()
    played = game.record().rpartition("moves=")[2].split(",") if game.ply else []
    runs: list[dict] = []
    for mover, name in zip(movers, played):
        if runs and runs[-1]["side"] == sides[mover]:
            runs[-1]["moves"].append(name)
        else:
            runs.append({"number": len(runs) + 1, "side": sides[mover], "moves": [name]})
    return runs


def end_reason(game) -> str:
    """Why a finished Hoyito game ended."""
    if game.plies_without_capture > 0:  # a capture resets the clock; only the stall guard ends with it up
        return "no capture for too long: each side takes the counters on its own row"
    return "four counters or fewer were left: the last capturer took them"


def position(game) -> dict:
    """Everything the page draws of a Hoyito position (the module docstring)."""
    played = game.record().rpartition("moves=")[2]
    return {
        "holes_per_row": game.holes_per_row,
        "holes": game.board,
        "captured": list(game.captured),
        "last": int(played.rsplit(",", 1)[-1]) if played else None,
        "last_move": played.rsplit(",", 1)[-1] if played else None,
        "turns": turns(game),
        "moves": [{"name": game.move_name(m), "hole": m} for m in game.legal_move_ids().tolist()],
        "reason": end_reason(game) if game.is_terminal else None,
    }


def drawer() -> str:
    """The page's drawing of Hoyito positions: the script ``web_board.js`` beside this module."""
    return resources.files(__package__).joinpath("web_board.js").read_text(encoding="utf-8")


def read_record(text: str, options: dict) -> HoyitoGame | None:
    """The game a Hoyito record describes (it carries every option itself, so ``options`` is not
    read); None for a text that is no Hoyito record; ValueError for one the rules refuse."""
    return HoyitoGame.from_record(text) if text.startswith(RECORD_PREFIX) else None
