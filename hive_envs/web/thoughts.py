"""What a computer player thought before the move it just played, for the page to list and to draw on
the position before that move.

Read from the player's ``last_search``, the record of the very search that chose the move (no second
search): a network player's `RootSummary` (its policy, the visits and mean values of its search, the
network's value of the position) or an alpha-beta player's `SearchResult` (depth reached, nodes,
score, principal variation). Other players (random, greedy, UHP engines) keep none, and `thoughts_of`
returns None for them.
"""

from __future__ import annotations

import math

from hive_envs.agents.root_summary import RootSummary
from hive_envs.core.alphabeta import SearchResult
from hive_envs.core.game import Game

TOP_MOVES = 8


def thoughts_of(player, before: Game, moves: list[dict], top: int = TOP_MOVES) -> dict | None:
    """What ``player`` thought on ``before`` (the position before its move, left as found), or None.

    ``moves``: the position's moves as `boards.position` lists them (their drawing data is kept in the
    rows). Every answer has ``kind``, ``player``, ``played`` (the move's name), ``elapsed_s`` and
    ``moves`` (rows with the drawing data and ``played``); see `tree_thoughts` and
    `alphabeta_thoughts` for the rest.
    """
    summary = getattr(player, "last_search", None)
    if isinstance(summary, RootSummary):
        return tree_thoughts(player.name, summary, before, moves, top)
    if isinstance(summary, SearchResult):
        return alphabeta_thoughts(player.name, summary, before, moves)
    return None


def tree_thoughts(name: str, summary: RootSummary, before: Game, moves: list[dict], top: int) -> dict:
    """``kind: "tree"``: ``value`` (the network's, for the player to move), ``simulations`` (run for
    this move), ``kept_visits`` (from the previous move's tree), ``visits`` (the root's in all),
    ``time_limit_s`` (None: by simulations) and ``moves``: the ``top`` most visited (then most
    probable) moves, and the move played wherever it ranks, each with ``probability`` (the network's
    policy), ``visits`` and ``value`` (the mean the search backed up through it; None unvisited)."""
    drawing = {m["name"]: m for m in moves}
    rows = []
    for move, p, n, v in zip(
        summary.moves.tolist(), summary.policy.tolist(), summary.visits.tolist(), summary.values.tolist()
    ):
        label = before.move_name(move)
        rows.append(
            {
                **drawing.get(label, {"name": label}),
                "probability": float(p),
                "visits": int(n),
                "value": None if math.isnan(v) else float(v),
                "played": move == summary.move,
            }
        )
    rows.sort(key=lambda row: (-row["visits"], -row["probability"]))
    shown = rows[:top] + [row for row in rows[top:] if row["played"]]
    return {
        "kind": "tree",
        "player": name,
        "played": before.move_name(summary.move),
        "value": summary.value,
        "simulations": summary.simulations,
        "kept_visits": summary.kept_visits,
        "visits": int(summary.visits.sum()),
        "time_limit_s": summary.time_limit_s,
        "elapsed_s": summary.elapsed_s,
        "moves": shown,
    }


def alphabeta_thoughts(name: str, result: SearchResult, before: Game, moves: list[dict]) -> dict:
    """``kind: "alphabeta"``: ``depth`` (of the deepest finished iteration), ``nodes``, ``score`` (for
    the player to move, in the searcher's units), ``proven`` ("win", "loss" or None), ``pv`` (the
    principal variation's move names) and ``moves``: the move played, with its drawing data."""
    game = before.copy()
    pv = []
    for move in result.pv:  # named in turn on the positions it passes through
        if game.is_terminal:
            break
        try:
            pv.append(game.move_name(move))
        except ValueError:  # a table entry from another line: the rest names nothing here
            break
        game.play_id(move)
    played = before.move_name(result.move_id)
    drawing = {m["name"]: m for m in moves}
    return {
        "kind": "alphabeta",
        "player": name,
        "played": played,
        "depth": result.depth_reached,
        "nodes": result.nodes,
        "score": result.score,
        "proven": "win" if result.is_proven_win else "loss" if result.is_proven_loss else None,
        "pv": pv,
        "elapsed_s": result.elapsed_s,
        "moves": [{**drawing.get(played, {"name": played}), "played": True}],
    }
