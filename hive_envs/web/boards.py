"""What the page draws of a position, as JSON-ready data: the game's own part (its definition's
``web_board``) and what every game's position has.

The page holds no rules: it draws what `position` returns and offers only the moves listed in it. A
game's position (Hive's: `hive_envs.hive.web_board`, Hoyito's: `hive_envs.hoyito.web_board`) carries
its board and each legal move as ``{"name", ...}`` with what the game's drawing script (its
definition's ``web_drawer``) needs to place it, ``turns`` (the moves played, ``[{"number", "side",
"moves": [names]}]``, numbered as the game counts them), ``last_move`` (the name of the last move,
None at the start) and ``reason`` (why a finished game ended). `position` adds ``game`` (the name the
page loads its drawing script by), ``to_move``, ``ply``, ``over``, ``result`` (seat 0's side),
``winner`` (the side's name or None for a draw), ``sides``, ``record`` and ``status`` (one line).
"""

from __future__ import annotations

from hive_envs.core.definition import GameDefinition
from hive_envs.core.game import Game
from hive_envs.games import GAMES, game_entry


def drawn_games() -> dict[str, GameDefinition]:
    """The games the page draws, by name: those with a position (``web_board``) and a script that
    draws it (``web_drawer``); not the PettingZoo AEC adapter, for one."""
    return {
        name: entry
        for name, entry in GAMES.items()
        if entry.ref("web_board") is not None and entry.ref("web_drawer") is not None
    }


def position(game: Game) -> dict:
    """Everything the page shows of ``game`` now (see the module docstring)."""
    definition = game_entry(game.game_name)
    if definition.name not in drawn_games():
        raise ValueError(
            f"the page cannot draw a game of {definition.title} (its definition has no web_board and "
            f"web_drawer)"
        )
    sides = definition.seat_names
    data = definition.web_board(game)
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
