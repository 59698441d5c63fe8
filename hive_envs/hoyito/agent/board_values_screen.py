"""The screen of learned board values (`hive_envs.hoyito.agent.board_values`): a fitted table as a player.

    python -m hive_envs.hoyito.agent.board_values_screen --depths 6 8 --out FILE

fits a table and plays the alpha-beta with it, and without, against ``alphabeta:6`` at each depth,
from the arena's book (4 random plies, each opening with both seats): what a table is worth as a
player, before any network is trained with it (docs/experiments/hoyito_board_values.md).
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from multiprocessing import Pool

import numpy as np

from hive_envs.evaluation.arena import distinct_openings
from hive_envs.evaluation.match import paired, play_games, summarise
from hive_envs.evaluation.results_files import write_report
from hive_envs.extras import command
from hive_envs.hoyito.agent.board_values import learn_board_values
from hive_envs.hoyito.engine.game import HoyitoGame
from hive_envs.hoyito.search.alphabeta import HoyitoAlphaBeta
from hive_envs.players import BasePlayer, SearchLimits


def player_name(depth: int, board_values: np.ndarray | None) -> str:
    return f"alphabeta:{depth}" + ("+board_values" if board_values is not None else "")


class TableSearchPlayer(BasePlayer):
    """``alphabeta:D`` with a board-values table (None: the hand evaluation, as ``alphabeta:D``)."""

    def __init__(self, depth: int, board_values: np.ndarray | None):
        super().__init__(player_name(depth, board_values))
        self.searcher = HoyitoAlphaBeta(depth=depth, board_values=board_values)

    def choose(self, game, limits: SearchLimits | None = None) -> int:
        return self.searcher.choose(game)


def _screen_games(schedule, depth: int, board_values, opponent_depth: int, game_options: dict):
    player = TableSearchPlayer(depth, board_values)
    opponent = TableSearchPlayer(opponent_depth, None)
    return play_games(player, opponent, schedule, lambda: HoyitoGame(**game_options), SearchLimits())


def screen(
    board_values: np.ndarray | None,
    depth: int,
    pairs: int,
    workers: int,
    game_options: dict,
    opponent_depth: int = 6,
) -> dict:
    """A table's alpha-beta of ``depth`` plies against the hand ``alphabeta:opponent_depth``: the
    arena's result dict (W/D/L by seat, score and its 95% interval), ``pairs`` openings x both seats."""
    openings = distinct_openings(lambda: HoyitoGame(**game_options), 4, pairs, 0)
    schedule = paired(openings)
    chunks = [schedule[k::workers] for k in range(workers)]
    play = functools.partial(
        _screen_games, depth=depth, board_values=board_values, opponent_depth=opponent_depth,
        game_options=game_options,
    )  # fmt: skip
    with Pool(workers) as pool:
        parts = pool.map(play, chunks)
    records = [record for part in parts for record in part]
    return summarise(player_name(depth, board_values), f"alphabeta:{opponent_depth}", records).to_dict()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--holes-per-row", type=int, default=6)
    parser.add_argument("--games", type=int, default=2048, help="self-play games the table is fitted to")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--depths", type=int, nargs="+", default=[6], help="plies of the screened searches")
    parser.add_argument("--pairs", type=int, default=400, help="openings, each played with both seats")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", help="write the table, the fit and the matches here (JSON)")
    args = parser.parse_args(argv)
    for flag in ("holes_per_row", "games", "pairs", "workers"):
        if getattr(args, flag) < 1:
            parser.error(f"--{flag.replace('_', '-')} must be at least 1")
    if not all(1 <= depth <= 20 for depth in args.depths):
        parser.error("--depths must be within 1..20")
    options = {"holes_per_row": args.holes_per_row}
    table, summary = learn_board_values(options, args.games, args.seed)
    print(
        f"fitted to {summary['positions']:.0f} positions of {args.games} games in {summary['seconds']:.1f} s"
    )
    matches = []
    for depth in args.depths:
        for values in (table, None):
            result = screen(values, depth, args.pairs, args.workers, options)
            low, high = result["score_ci95"]
            print(
                f"{result['player']} vs {result['opponent']}: {result['score']:.3f} [{low:.3f}, {high:.3f}]"
            )
            matches.append(result)
    if args.out:
        report = {
            "command": "python -m hive_envs.hoyito.agent.board_values_screen "
            + " ".join(sys.argv[1:] if argv is None else argv),
            "load_average_at_end": list(os.getloadavg()),
            "fit": summary,
            "board_values": table.tolist(),
            "matches": matches,
        }
        write_report(args.out, report)
    return 0


if __name__ == "__main__":
    sys.exit(command(main)())
