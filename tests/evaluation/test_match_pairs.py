"""Pairs of games from one opening with the seats swapped (`hive_envs.evaluation.match`): the
pentanomial count and the score's interval over the pairs."""

import math

import numpy as np
import pytest

from hive_envs.evaluation.match import (
    GameRecord,
    MatchResult,
    format_table,
    game_pairs,
    halves,
    pair_points,
    pair_score_interval,
    paired,
    pairs_line,
    play_games,
    play_games_batched,
    summarise,
)
from hive_envs.hoyito import HoyitoGame
from hive_envs.players import RandomPlayer, SearchLimits


def record(seat, result, opening):
    return GameRecord(seat, result, 10, "", "", opening=list(opening))


def test_pairs_are_the_two_seats_of_one_opening_and_count_by_points():
    records = [
        record(0, 1.0, [1]), record(1, 1.0, [1]),  # won both: 2 points
        record(0, -1.0, [2]), record(1, 1.0, [2]),  # the seat decided: 1 point
        record(0, 0.0, [3]), record(1, 0.0, [3]),  # two draws: 1 point
        record(0, 0.0, [4]), record(1, -1.0, [4]),  # a draw and a loss: 0.5
        record(1, -1.0, [5]), record(0, -1.0, [5]),  # lost both, seat 1 first in the records: 0
        record(0, 1.0, [6]), record(1, 0.0, [6]),  # 1.5
    ]  # fmt: skip
    assert pair_points(records) == [1, 1, 2, 1, 1]
    assert all(first.seat_of_a == 0 and second.seat_of_a == 1 for first, second in game_pairs(records))


def test_forfeited_and_unmatched_games_are_in_no_pair():
    records = [
        record(0, 1.0, [1]), record(1, None, [1]),  # a forfeit breaks the pair
        record(0, 1.0, [2]),  # no game in the other seat
        record(0, -1.0, [3]), record(0, 1.0, [3]), record(1, 1.0, [3]),  # the first seat-0 game pairs
    ]  # fmt: skip
    pairs = game_pairs(records)
    assert [(a.result_for_a, b.result_for_a) for a, b in pairs] == [(-1.0, 1.0)]
    assert pair_points(records) == [0, 0, 1, 0, 0]


def test_pair_interval_is_the_normal_interval_of_the_pairs_scores():
    counts = [3, 5, 70, 12, 10]
    scores = np.repeat([0.0, 0.25, 0.5, 0.75, 1.0], counts)
    low, high = pair_score_interval(counts)
    half = 1.959964 * scores.std(ddof=1) / math.sqrt(scores.size)
    assert math.isclose(low, scores.mean() - half) and math.isclose(high, scores.mean() + half)
    assert pair_score_interval([0, 0, 1, 0, 0]) is None  # one pair has no spread to measure
    assert pair_score_interval([0, 0, 0, 0, 9]) is None  # nor pairs that all scored the same
    assert pair_score_interval([0, 0, 0, 1, 9])[1] == 1.0
    assert pair_score_interval([9, 0, 0, 0, 1])[0] == 0.0  # clipped to [0, 1]


def test_a_book_that_decides_by_seat_gives_a_narrower_interval_than_the_games():
    # 80 openings won by the seat, 20 won twice by A: the games' Wilson interval treats the 200 games
    # as independent, the pairs' interval sees that only 20 openings were won by the player
    records = []
    for k in range(100):
        results = (1.0, 1.0) if k < 20 else (-1.0, 1.0)
        records += [record(0, results[0], [k]), record(1, results[1], [k])]
    result = summarise("a", "b", records)
    assert result.pair_points == [0, 0, 80, 0, 20] and math.isclose(result.score, 0.6)
    low, high = result.pair_score_ci95()
    games_low, games_high = result.score_ci95()
    assert games_low < low < 0.6 < high < games_high
    as_dict = result.to_dict()
    assert as_dict["pair_points"] == [0, 0, 80, 0, 20] and as_dict["pair_score_ci95"] == [low, high]
    assert (
        "100 pairs of games by points 0/0.5/1/1.5/2: 0/0/80/0/20; score over the pairs 0.600"
        in pairs_line(result.pair_points, (low, high))
    )
    assert format_table([result]).splitlines()[-1] == f"a vs b: {pairs_line(result.pair_points, (low, high))}"


def test_counts_alone_have_no_pairs():
    result = MatchResult.from_counts("a", "b", 4, {"wins": [1, 1], "draws": [0, 0], "losses": [1, 1]}, 9.0)
    assert result.pair_points == [] and result.pair_score_ci95() is None
    assert result.to_dict()["pair_score_ci95"] is None
    assert len(format_table([result]).splitlines()) == 3  # header, rule, the row: no pairs line
    swept = summarise("a", "b", [record(seat, 1.0, [k]) for k in range(3) for seat in (0, 1)])
    assert swept.pair_points == [0, 0, 0, 0, 3] and swept.pair_score_ci95() is None
    assert format_table([swept]).splitlines()[-1].endswith("0/0/0/0/3; score over the pairs 1.000 no spread")


@pytest.mark.parametrize("schedule", [paired([[0], [1], [2]]), halves([[0], [1], [2]], 6)])
def test_played_games_carry_their_opening_and_pair_up(schedule):
    records = play_games(RandomPlayer(1), RandomPlayer(2), schedule, HoyitoGame, SearchLimits())
    assert [r.opening for r in records] == [opening for opening, _ in schedule]
    assert sum(summarise("a", "b", records).pair_points) == 3


def test_batched_games_carry_their_opening_and_pair_up():
    schedule = paired([[0], [1], [2]])
    records = play_games_batched(RandomPlayer(1), RandomPlayer(2), schedule, "hoyito", {}, seed=3)
    assert [r.opening for r in records] == [opening for opening, _ in schedule]
    assert sum(summarise("a", "b", records).pair_points) == 3
