"""Learned board values for Hoyito's alpha-beta, fitted to the outcomes of self-play games.

The hand evaluation of `hive_envs.hoyito.search.alphabeta` scores the captured margin and the best
capture the mover has now. What the counters still on the board are worth is left out: relay sowing
makes it a chaotic function of the board that no hand rule says well (hand-written terms screened as
players: docs/experiments/hoyito_expert_iteration.md). So it is learned. `learn_board_values` plays
``games`` self-play games of the hand alpha-beta (`SELF_PLAY_DEPTH` plies, the first 2-6 plies and
`RANDOM_MOVE_SHARE` of the others random, each game with its own tie-break seed), and for every
position fits, by ridge regression, what the mover gained by the end beyond the margin then (final
margin minus margin now, in counters) to a table: one value per hole counted from the mover's first
hole round the board and per count of counters in it (`BOARD_BUCKETS` columns, the last one for that
many or more). Outcomes are noisy (the table explains under a tenth of their variance), but a table
fitted to 2,048 games already plays as well as one fitted to 8,192.

The table enters the search at `VALUE_WEIGHT` of its fitted size (`to_score_units`): half a counter
per counter expected, as the hand evaluation counts the best capture on the board (`THREAT`). A
hoyito_lookahead network with ``board_values`` (config key ``hoyito_board_values_games``) carries
the table and its features' search uses it (`hive_envs.hoyito.agent.features`).

The screen (``python -m hive_envs.training.board_values --depths 6 8 --out FILE``) fits a table and
plays the alpha-beta with it, and without, against ``alphabeta:6`` at each depth, from the arena's
book (4 random plies, each opening with both seats): what a table is worth as a player, before any
network is trained with it.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import time
from multiprocessing import Pool

import numpy as np

from hive_envs.extras import command
from hive_envs.hoyito.engine.game import HoyitoGame
from hive_envs.hoyito.search.alphabeta import BOARD_BUCKETS, COUNTER, HoyitoAlphaBeta, check_board_values
from hive_envs.players import BasePlayer, SearchLimits
from hive_envs.training.arena import distinct_openings
from hive_envs.training.cli import write_report
from hive_envs.training.match import paired, play_games, summarise

SELF_PLAY_DEPTH = 4
"""Plies of the self-play games' alpha-beta."""
RANDOM_MOVE_SHARE = 0.05
"""Share of moves played at random after the opening, so that the positions are not one line."""
VALUE_WEIGHT = 0.5
"""Counters of score per counter the table expects."""
RIDGE = 1.0
"""L2 penalty of the fit (in squared counters), which keeps counts seldom seen near zero."""


def mover_rings(boards: np.ndarray, movers: np.ndarray, holes_per_row: int) -> np.ndarray:
    """(N, 2n) each board's holes from its mover's first hole round the board (the table's rows)."""
    shift = movers.astype(np.int64)[:, None] * holes_per_row
    index = (shift + np.arange(2 * holes_per_row)[None, :]) % (2 * holes_per_row)
    return np.take_along_axis(boards, index, axis=1)


def self_play_positions(
    game_options: dict, games: int, seed: int, depth: int = SELF_PLAY_DEPTH
) -> tuple[np.ndarray, np.ndarray]:
    """(rings (N, 2n) int, gains (N,) float) of every position where a move was chosen in ``games``
    games (module doc): the board from the mover's first hole, and what the mover gained by the end
    beyond the margin then, in counters."""
    rng = np.random.default_rng(seed)
    boards, movers, margins, finals = [], [], [], []
    for _ in range(games):
        game = HoyitoGame(**game_options)
        n = game.holes_per_row
        searcher = HoyitoAlphaBeta(depth=depth, seed=int(rng.integers(1 << 30)))
        opening = int(rng.integers(2, 7))
        start = len(boards)
        while not game.is_terminal:
            mover = game.to_move
            captured = game.captured
            boards.append(game.state[: 2 * n].copy())
            movers.append(mover)
            margins.append(captured[mover] - captured[1 - mover])
            if game.ply < opening or rng.random() < RANDOM_MOVE_SHARE:
                game.play_id(int(rng.choice(game.legal_move_ids())))
            else:
                game.play_id(searcher.choose(game))
        captured = game.captured
        finals.extend(captured[m] - captured[1 - m] for m in movers[start:])
    rings = mover_rings(np.array(boards), np.array(movers), n)
    return rings, np.array(finals, dtype=np.float64) - np.array(margins, dtype=np.float64)


def table_columns(rings: np.ndarray) -> np.ndarray:
    """(N, 2n) the table entry each hole reads, as a flat index ``hole x BOARD_BUCKETS + column``."""
    holes = rings.shape[1]
    return np.arange(holes) * BOARD_BUCKETS + np.minimum(rings, BOARD_BUCKETS - 1)


def fit_board_values(rings: np.ndarray, gains: np.ndarray, ridge: float = RIDGE) -> np.ndarray:
    """(2n, `BOARD_BUCKETS`) the table, in counters, whose row sum best predicts ``gains`` (ridge
    regression with an intercept; the intercept is spread over the rows: every position reads one
    entry of each row, so the sums are the same).

    The design matrix is a one-hot of each hole's count (plus a column of ones), so its normal
    equations are counts: how often two entries are read by one position, and the gains summed per
    entry; they are counted from the entries' indices, without the N x (2n x 16) matrix."""
    width = rings.shape[1] * BOARD_BUCKETS + 1  # the entries and the intercept
    read = np.concatenate([table_columns(rings), np.full((len(rings), 1), width - 1)], axis=1)
    gram = np.zeros((width, width))
    for column in read.T:  # the positions' entries read beside each one of theirs
        gram += np.bincount((column[:, None] * width + read).ravel(), minlength=width * width).reshape(
            width, width
        )
    moments = np.bincount(read.ravel(), weights=np.repeat(gains, read.shape[1]), minlength=width)
    penalty = ridge * np.eye(width)
    penalty[-1, -1] = 0.0  # the intercept is not shrunk
    weights = np.linalg.solve(gram + penalty, moments)
    return weights[:-1].reshape(rings.shape[1], BOARD_BUCKETS) + weights[-1] / rings.shape[1]


def predicted_gains(values: np.ndarray, rings: np.ndarray) -> np.ndarray:
    """(N,) the gain the table ``values`` predicts for each ring: one entry of each row, summed."""
    return values.reshape(-1)[table_columns(rings)].sum(axis=1)


def to_score_units(values: np.ndarray) -> np.ndarray:
    """The table the search adds (int32, score units): ``values`` (counters) x `VALUE_WEIGHT` x `COUNTER`."""
    return check_board_values(np.rint(values * VALUE_WEIGHT * COUNTER).astype(np.int64))


def learn_board_values(game_options: dict, games: int, seed: int) -> tuple[np.ndarray, dict[str, float]]:
    """(the table in score units, a summary: positions, share of the gains' variance the fit
    explains on the positions it was fitted to, seconds) from ``games`` self-play games."""
    started = time.time()
    rings, gains = self_play_positions(game_options, games, seed)
    values = fit_board_values(rings, gains)
    predicted = predicted_gains(values, rings)
    explained = 1.0 - float(np.mean((gains - predicted) ** 2) / max(float(np.var(gains)), 1e-12))
    summary = {
        "positions": float(len(gains)),
        "explained_variance": explained,
        "seconds": time.time() - started,
    }
    return to_score_units(values), summary


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
            "command": "python -m hive_envs.training.board_values "
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
