"""The referee times every move of a game-by-game match (`hive_envs.evaluation.match`)."""

import time

from hive_envs.evaluation.match import paired, play_games, summarise
from hive_envs.hoyito import HoyitoGame
from hive_envs.players import RandomPlayer, SearchLimits

PAUSE_S = 0.01


class SlowRandom(RandomPlayer):
    """A random player that takes at least `PAUSE_S` per move."""

    def choose(self, game, limits=None):
        time.sleep(PAUSE_S)
        return super().choose(game, limits)


def test_each_sides_moves_are_timed_and_summarised_by_side():
    openings = [[], [0]]  # no opening, then one ply played before the players move
    records = play_games(SlowRandom(1), RandomPlayer(2), paired(openings), HoyitoGame, SearchLimits())
    assert len(records) == 4
    for record, (opening, _) in zip(records, paired(openings)):
        assert len(record.move_seconds_a) + len(record.move_seconds_b) == record.plies - len(opening)
        assert len(record.move_seconds_a) > 0 and len(record.move_seconds_b) > 0
        assert min(record.move_seconds_a) >= PAUSE_S  # A is the slow one in both seats
    result = summarise("slow", "random", records)
    a_moves = sum(len(r.move_seconds_a) for r in records)
    assert result.move_seconds["player"]["moves"] == a_moves
    assert result.move_seconds["opponent"]["moves"] == sum(len(r.move_seconds_b) for r in records)
    times = result.move_seconds["player"]
    assert PAUSE_S <= times["median"] <= times["p99"] <= times["max"]
    assert times["max"] == max(s for r in records for s in r.move_seconds_a)
    assert result.to_dict()["move_seconds"] == result.move_seconds
