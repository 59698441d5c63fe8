"""One test per rule of docs/rules/hoyito_ii.md, each on a hand-worked board.

Boards are written in absolute hole order (South 0..n-1, then North n..2n-1); the sketch
comments draw them as on the table, North on top reading right to left.
"""

from __future__ import annotations

import pytest

from hive_envs.hoyito import HoyitoGame


def position(board, to_move=0, captured=None, **options):
    """A position on 2x6 (unless options say otherwise) with the missing counters captured."""
    n = options.get("holes_per_row", 6)
    total = 2 * n * options.get("seeds_per_hole", 4)
    if captured is None:
        captured = (total - sum(board), 0)
    return HoyitoGame.from_position(board, captured, to_move, **options)


# ------------------------------------------------------------------ board and start
def test_start_position_2x6_has_48_counters_and_south_moves_first():
    g = HoyitoGame()
    assert g.board == [4] * 12 and g.captured == (0, 0) and g.to_move == 0
    assert g.legal_move_ids().tolist() == [0, 1, 2, 3, 4, 5]
    assert not g.is_terminal and g.winner is None


def test_start_position_2x12_has_96_counters():
    g = HoyitoGame(holes_per_row=12)
    assert sum(g.board) == 96 and g.legal_move_ids().tolist() == list(range(12))


def test_north_moves_from_its_own_row_only():
    g = position([4] * 12, to_move=1, captured=(0, 0))
    assert g.legal_move_ids().tolist() == [6, 7, 8, 9, 10, 11]


# One move on a hand-worked 2x6 board: (board, seat to move, hole played) -> (counters taken, board
# after, captured after, seat to move after).
MOVES = [
    # ------------------------------------------------------------------ a move
    pytest.param(
        # N: 1 1 1 1 1 1 / S: 2 0 0 0 0 0 ; South sows hole 0 into holes 1, 2; hole 2 was empty.
        ([2, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1], 0, 0),
        (0, [0, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1], (40, 0), 1),
        id="last_counter_in_empty_hole_ends_move_and_passes_turn",
    ),
    pytest.param(
        # Hole 0 (1) lands in hole 1 (2 -> 3, not a casa): lift those 3 and sow holes 2, 3, 4.
        ([1, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0], 0, 0),
        (0, [0, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0, 0], (44, 0), 1),
        id="relay_lap_lifts_the_occupied_landing_hole_including_the_last_counter",
    ),
    pytest.param(
        # Hole 2 (3) sows 3, 4, 5: holes 3 and 4 pass through 4 on the way but are not taken;
        # hole 5 ends at 3 -> relay sows 6, 7, 8 ... and the move ends in the empty hole 8.
        ([0, 0, 3, 3, 3, 2, 0, 0, 0, 0, 0, 1], 0, 2),
        (0, [0, 0, 0, 4, 4, 0, 1, 1, 1, 0, 0, 1], (36, 0), 1),
        id="no_capture_en_passant_during_a_relay",
    ),
    pytest.param(
        # Hole 0 (1) makes hole 1 exactly 4: captured (no relay); hole 0 is empty, the chain stops.
        ([1, 3, 0, 0, 0, 2, 1, 1, 1, 1, 1, 1], 0, 0),
        (4, [0, 0, 0, 0, 0, 2, 1, 1, 1, 1, 1, 1], (36 + 4, 0), 0),
        id="casa_is_captured_instead_of_relayed",
    ),
    pytest.param(
        # South's hole 5 (1) makes North's hole 6 a casa: South takes it.
        ([2, 0, 0, 0, 0, 1, 3, 1, 1, 1, 1, 0], 0, 5),
        (4, [2, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0], (38 + 4, 0), 0),
        id="capture_in_the_opponents_row",
    ),
    pytest.param(
        ([2, 2, 1, 0, 0, 0, 1, 3, 1, 0, 0, 0], 1, 6),
        (4, [2, 2, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0], (38, 4), 1),
        id="north_captures_in_its_own_row",
    ),
    # ------------------------------------------------------------------ capture chains
    pytest.param(
        # Hole 3 (4) sows 4, 5, 6, 7 (each 3 -> 4). Casa at 7, then 6 (North), 5, 4 (South);
        # hole 3 was emptied by the lift, so the chain stops there and hole 2's four stays.
        ([0, 0, 4, 4, 3, 3, 3, 3, 0, 0, 0, 2], 0, 3),
        (16, [0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 2], (26 + 16, 0), 0),
        id="backward_chain_crosses_from_north_row_into_south_row",
    ),
    pytest.param(
        # Hole 2 (3) sows 3, 4, 5 -> 4, 5, 4. Casa at 5; hole 4 holds 5: the chain stops,
        # and hole 3's four beyond the break stays on the board.
        ([0, 0, 3, 3, 4, 3, 1, 1, 1, 1, 1, 1], 0, 2),
        (4, [0, 0, 0, 4, 5, 0, 1, 1, 1, 1, 1, 1], (29 + 4, 0), 0),
        id="backward_chain_stops_at_the_first_hole_not_holding_four",
    ),
    pytest.param(
        # North's hole 9 (3) sows 10, 11, 0 (each 3 -> 4): casa at South's hole 0, then the
        # chain runs back over the wrap into North's 11 and 10, and stops at the emptied hole 9.
        ([3, 1, 2, 2, 0, 0, 1, 0, 0, 3, 3, 3], 1, 9),
        (12, [0, 1, 2, 2, 0, 0, 1, 0, 0, 0, 0, 0], (30, 12), 1),
        id="backward_chain_crosses_from_south_row_into_north_row_over_the_wrap",
    ),
]


@pytest.mark.parametrize("before, after", MOVES)
def test_a_move_sows_captures_and_passes_the_turn_as_the_rule_says(before, after):
    board, to_move, hole = before
    g = position(board, to_move=to_move)
    taken = g.play_id(hole)
    assert (taken, g.board, g.captured, g.to_move) == after


def test_lap_of_2n_counters_also_sows_into_the_hole_it_was_lifted_from():
    # 12 counters from hole 0 reach holes 1..11 and then hole 0 itself (now holding 1): move ends.
    g = position([12] + [0] * 11)
    g.play_id(0)
    assert g.board == [1] * 12 and g.to_move == 1


def test_chain_around_the_whole_board_takes_each_hole_once():
    # 2x2: 16 counters from hole 0 put 4 in every hole, the last back in hole 0: all taken.
    g = position([16, 0, 0, 0], holes_per_row=2)
    assert g.play_id(0) == 16
    assert g.board == [0, 0, 0, 0] and g.captured == (16, 0) and g.is_terminal


# ------------------------------------------------------------------ extra turn and passes
def test_capture_gives_the_mover_another_turn():
    g = position([1, 3, 0, 0, 0, 2, 1, 1, 1, 1, 1, 1])
    g.play_id(0)
    assert g.to_move == 0 and g.legal_move_ids().tolist() == [5]


def test_player_without_counters_is_passed_automatically():
    # North's row is empty: after South's quiet move the turn comes straight back to South.
    g = position([1, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0])
    g.play_id(0)
    assert g.board == [0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0]
    assert g.to_move == 0


def test_automatic_pass_after_an_extra_turn():
    # South captures with its last counters: its extra turn is passed to North at once.
    g = position([1, 3, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1])
    g.play_id(0)
    assert g.board[:6] == [0] * 6 and g.to_move == 1 and not g.is_terminal


def test_from_position_applies_the_pass_of_a_player_without_counters():
    g = position([0] * 6 + [1, 2, 0, 0, 0, 0], to_move=0)
    assert g.to_move == 1


# ------------------------------------------------------------------ end of the game
def test_last_four_go_to_the_capturer_and_end_the_game():
    g = position([1, 3, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2], captured=(20, 20))
    assert g.play_id(0) == 8  # the casa and the last four counters on the board
    assert g.board == [0] * 12 and g.captured == (28, 20)
    assert g.is_terminal and g.winner == 0 and g.legal_move_ids().tolist() == []


def test_five_counters_left_after_a_capture_play_on():
    g = position([1, 3, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3], captured=(20, 19))
    g.play_id(0)
    assert not g.is_terminal and g.captured == (24, 19) and g.to_move == 1


def test_lap_cap_ends_an_endless_relay_where_the_last_lap_stops():
    # On 2x2 this move relays forever; the 1000th lap ends in an occupied hole: counters stay,
    # nothing is captured, the turn passes. A higher cap leaves a different board.
    args = ([0, 2, 1, 5], (4, 4), 1)
    capped = HoyitoGame.from_position(*args, holes_per_row=2)
    assert capped.play_id(3) == 0
    assert capped.captured == (4, 4) and capped.to_move == 0 and sum(capped.board) == 8
    boards = set()
    for laps in range(1000, 1008):
        g = HoyitoGame.from_position(*args, holes_per_row=2, max_laps=laps)
        g.play_id(3)
        boards.add(tuple(g.board))
        assert g.captured == (4, 4) and not g.is_terminal
    assert len(boards) > 1  # the relay was cut at a different place each time: it never ended


def test_lap_cap_stops_a_relay_in_an_occupied_hole():
    # max_laps=1: hole 0 lands in hole 1 (2 -> 3); with no lap left the move ends there.
    g = position([1, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0], max_laps=1)
    g.play_id(0)
    assert g.board == [0, 3, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0] and g.to_move == 1


def test_stall_guard_ends_game_and_gives_counters_to_row_owners():
    # 599 quiet plies already; the 600th ends the game. South keeps 2, North 6: North wins.
    g = position([2, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1], captured=(20, 20), plies_without_capture=599)
    g.play_id(0)
    assert g.is_terminal and g.board == [0] * 12
    assert g.captured == (22, 26) and g.winner == 1


def test_stall_guard_defaults_to_50_times_2n_plies():
    assert HoyitoGame().options.no_capture_limit == 600
    assert HoyitoGame(holes_per_row=12).options.no_capture_limit == 1200
    g = position([2, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1], captured=(20, 20), plies_without_capture=598)
    g.play_id(0)
    assert not g.is_terminal and g.plies_without_capture == 599


def test_capture_resets_the_stall_clock():
    g = position([1, 3, 0, 0, 0, 2, 1, 1, 1, 1, 1, 1], plies_without_capture=599)
    g.play_id(0)
    assert g.plies_without_capture == 0 and not g.is_terminal


def test_stall_limit_option_counts_quiet_plies_from_the_start():
    g = HoyitoGame(no_capture_limit=1)
    g.play_id(0)  # the opening move captures nothing
    assert g.is_terminal and g.captured[0] + g.captured[1] == 48


def test_equal_totals_are_a_draw():
    g = position([2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2], captured=(22, 22), plies_without_capture=599)
    g.play_id(0)
    assert g.is_terminal and g.captured == (24, 24) and g.winner == -1


def test_counters_are_conserved_by_from_position():
    with pytest.raises(ValueError, match="counters"):
        HoyitoGame.from_position([4] * 12, (1, 0), 0)
