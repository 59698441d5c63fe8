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
hoyito_lookahead network with ``board_values`` (its option ``board_values_games``) carries the table,
fitted when a new run starts (`hive_envs.hoyito.agent.network.new_run`), and its features' search
uses it (`hive_envs.hoyito.agent.features`). What a table is worth as a player: the screen,
`hive_envs.hoyito.agent.board_values_screen`.
"""

from __future__ import annotations

import time

import numpy as np

from hive_envs.hoyito.engine.game import HoyitoGame
from hive_envs.hoyito.search.alphabeta import BOARD_BUCKETS, COUNTER, HoyitoAlphaBeta, check_board_values

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
    boards: list[np.ndarray] = []
    movers: list[int] = []
    margins: list[int] = []
    finals: list[int] = []
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
