"""What a network player thinks of a position: its top moves with their policy probability, the visits
its search gives each, and the network's value, for the page to list and draw on the board.

A player is a network player when it has the checkpoint player's ``evaluator`` (`NetworkEvaluator`) and
``config_for`` (`hive_envs.players.checkpoint.AgentPlayer`); others (random, greedy, alpha-beta, UHP
engines) think nothing the page can show, and `thoughts_of` returns None for them. The search is run
as the player runs it (`hive_envs.agents.search.search` with the player's own settings), on a copy,
separately from the move choice: the page asks for it only when its "show thoughts" box is ticked.
"""

from __future__ import annotations

from hive_envs.core.game import Game

TOP_MOVES = 8


def thoughts_of(player, game: Game, moves: list[dict], top: int = TOP_MOVES) -> dict | None:
    """``{"player", "value", "simulations", "moves": [{**move, "probability", "visits"}]}`` for a network
    player on ``game`` (played on and left as found), best ``top`` first; None for other players.

    ``moves``: the position's moves as `boards.position` lists them (their drawing data is kept);
    ``value``: the network's value for the player to move, in [-1, 1].
    """
    evaluator = getattr(player, "evaluator", None)
    if evaluator is None or not hasattr(player, "config_for"):
        return None
    from hive_envs.agents.search import search  # torch: loaded already by the network player

    legal, priors, value = evaluator(game)
    config = player.config_for(None)
    visits = [0] * len(legal)
    if config.simulations > 0:
        searched, counts, _ = search(game, evaluator, config)
        by_move = dict(zip(searched.tolist(), counts.tolist()))
        visits = [by_move.get(m, 0) for m in legal.tolist()]
    drawing = {m["name"]: m for m in moves}
    rows = [
        {**drawing.get(game.move_name(m), {"name": game.move_name(m)}), "probability": float(p), "visits": v}
        for m, p, v in zip(legal.tolist(), priors.tolist(), visits)
    ]
    rows.sort(key=lambda row: (-row["visits"], -row["probability"]))
    return {
        "player": player.name,
        "value": float(value),
        "simulations": config.simulations,
        "moves": rows[:top],
    }
