"""What a network player thinks of a position: its top moves with their policy probability, the visits
its search gives each and the mean value the search found below each, and the network's value of the
position, for the page to list and draw on the board.

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
    """``{"player", "value", "simulations", "moves": [{**move, "probability", "visits", "value"}]}`` for
    a network player on ``game`` (played on and left as found), best ``top`` first; None for others.

    ``moves``: the position's moves as `boards.position` lists them (their drawing data is kept);
    ``value``: the network's value of the position for the player to move, in [-1, 1]; a move's
    ``value``: the mean of the values its search visits backed up, for the same player (None for a
    move the search did not visit, and for every move of the raw policy).
    """
    evaluator = getattr(player, "evaluator", None)
    if evaluator is None or not hasattr(player, "config_for"):
        return None
    from hive_envs.agents.search import search_root  # torch: loaded already by the network player

    legal, priors, value = evaluator(game)
    config = player.config_for(None)
    searched: dict[int, tuple[int, float | None]] = {}
    if config.simulations > 0:
        root = search_root(game, evaluator, config)
        searched = {
            int(m): (int(n), float(w / n) if n else None) for m, n, w in zip(root.moves, root.n, root.w)
        }
    drawing = {m["name"]: m for m in moves}
    rows = []
    for m, p in zip(legal.tolist(), priors.tolist()):
        visits, mean_value = searched.get(m, (0, None))
        name = game.move_name(m)
        rows.append(
            {
                **drawing.get(name, {"name": name}),
                "probability": float(p),
                "visits": visits,
                "value": mean_value,
            }
        )
    rows.sort(key=lambda row: (-row["visits"], -row["probability"]))
    return {
        "player": player.name,
        "value": float(value),
        "simulations": config.simulations,
        "moves": rows[:top],
    }
