"""The alpha-beta's learned board values (`hive_envs.hoyito.search.alphabeta`): the evaluation they
add, the search without them unchanged, and the tables refused."""

import numpy as np
import pytest

from hive_envs.hoyito import HoyitoAlphaBeta, HoyitoGame
from hive_envs.hoyito.search.alphabeta import (
    BOARD_BUCKETS,
    MAX_BOARD_VALUE,
    NO_BOARD_VALUES,
    check_board_values,
    evaluate,
)


def random_positions(count, seed, holes_per_row=6):
    rng = np.random.default_rng(seed)
    games = []
    while len(games) < count:
        game = HoyitoGame(holes_per_row=holes_per_row)
        for _ in range(int(rng.integers(0, 60))):
            if game.is_terminal:
                break
            game.play_id(int(rng.choice(game.legal_move_ids())))
        if not game.is_terminal:
            games.append(game)
    return games


def random_table(seed, rows=12):
    return np.random.default_rng(seed).integers(-200, 200, size=(rows, BOARD_BUCKETS)).astype(np.int32)


def test_the_table_adds_one_entry_per_hole_counted_from_the_movers_first_hole():
    table = random_table(1)
    for game in random_positions(200, seed=2):
        s, o = game.state, game.options
        n, mover = o.holes_per_row, game.to_move
        scratch = np.empty_like(s)
        hand = evaluate(s, n, o.max_laps, o.no_capture_limit, scratch, NO_BOARD_VALUES)
        ring = [s[(mover * n + j) % (2 * n)] for j in range(2 * n)]  # the mover's row first, in sowing order
        added = sum(int(table[j, min(count, BOARD_BUCKETS - 1)]) for j, count in enumerate(ring))
        assert evaluate(s, n, o.max_laps, o.no_capture_limit, scratch, table) == hand + added


def test_a_zero_table_searches_as_the_hand_evaluation():
    zeros = np.zeros((12, BOARD_BUCKETS), dtype=np.int32)
    for game in random_positions(30, seed=3):
        plain = HoyitoAlphaBeta(depth=5).search(game)
        tabled = HoyitoAlphaBeta(depth=5, board_values=zeros).search(game)
        assert (tabled.move_id, tabled.score, tabled.pv) == (plain.move_id, plain.score, plain.pv)


def test_a_table_changes_the_search():
    """A table that rewards counters in the opponent's row changes some choices (else the search
    would not read it)."""
    table = np.zeros((12, BOARD_BUCKETS), dtype=np.int32)
    table[6:, :] = np.arange(BOARD_BUCKETS) * 40
    games = random_positions(40, seed=4)
    plain = [HoyitoAlphaBeta(depth=3).choose(g) for g in games]
    tabled = [HoyitoAlphaBeta(depth=3, board_values=table).choose(g) for g in games]
    assert plain != tabled


@pytest.mark.parametrize(
    "table, message",
    [
        (np.zeros((12, 15), dtype=np.int32), "shape"),
        (np.zeros((11, BOARD_BUCKETS), dtype=np.int32), "shape"),
        (np.zeros((2, BOARD_BUCKETS), dtype=np.int32), "shape"),
        (np.zeros(12 * BOARD_BUCKETS, dtype=np.int32), "shape"),
        (np.full((12, BOARD_BUCKETS), 0.5), "integers"),
        (np.full((12, BOARD_BUCKETS), MAX_BOARD_VALUE + 1), "integers"),
    ],
)
def test_bad_tables_are_refused(table, message):
    with pytest.raises(ValueError, match=message):
        check_board_values(table)
    with pytest.raises(ValueError, match=message):
        HoyitoAlphaBeta(depth=2, board_values=table)


def test_a_table_for_another_board_is_refused_and_the_game_is_unchanged():
    game = random_positions(1, seed=5)[0]
    before = game.state.copy()
    searcher = HoyitoAlphaBeta(depth=2, board_values=random_table(6, rows=24))  # a 2x12 table
    with pytest.raises(ValueError, match="24 rows, a game with 6 holes a row needs 12"):
        searcher.search(game)
    assert np.array_equal(game.state, before)
