"""The tactical check after a search by time (`agents.tactics`): on a position from a lost match game it
passes over the move that lost (the opponent mates within three plies of it) for one that does not,
plays a forced win it finds, keeps the search's choice when out of time or when every candidate loses,
and a timed player uses it while a search by simulations does not."""

from __future__ import annotations

import time

import pytest

from hive_envs.agents.tactics import MAX_TACTICAL_DEPTH, TacticalCheck
from hive_envs.games import game_entry
from hive_envs.hive import HiveGame
from hive_envs.hive.search.alphabeta import HiveAlphaBeta
from hive_envs.players import PlayerContext, make_player

# Black to move, ply 31 of a game `hive_base@T=1` lost to `alphabeta:3`
# (docs/results/hive_base_T1_value_first_vs_alphabeta3.json): it played `bG3 \bS1`, after which white
# surrounds the black queen by force; `bB1 -wA2` is not proven lost. 19 of the 22 moves lose so.
BLUNDER_POSITION = (
    "Base;InProgress;Black[16];wG1;bB1 wG1/;wQ wG1\\;bQ bB1/;wA1 -wG1;bA1 bB1-;wA1 bA1-;bA2 -bQ;"
    "wS1 -wG1;bA2 wQ\\;wA2 wA1/;bB2 bA2-;wA2 bB2\\;bG1 -bQ;wS1 \\bG1;bA3 /bA2;wA3 -wG1;bA3 /bA1;"
    "wA3 bQ/;bB1 wG1;wG2 \\wS1;bS1 -bB1;wB1 wA3-;bG2 /bQ;wB1 \\wA1;bG2 \\wG2;wG3 wA1-;bB1 wQ;"
    "wA2 bB2/;bS2 \\bG2;wB2 \\wA3"
)
LOSING, SAFE = "bG3 \\bS1", "bB1 -wA2"


def blunder_position() -> tuple[HiveGame, int, int]:
    game = HiveGame.from_gamestring(BLUNDER_POSITION)
    return game, game.move_id(LOSING), game.move_id(SAFE)


def loses_by_force(game: HiveGame, move: int, depth: int = 3) -> bool:
    """Whether the side to move in ``game`` is mated by force within ``depth`` plies after ``move``."""
    child = game.copy()
    child.play_id(move)
    return not child.is_terminal and HiveAlphaBeta(depth=depth).search(child).is_proven_win


def test_the_position_is_what_the_tests_say():
    game, losing, safe = blunder_position()
    assert loses_by_force(game, losing) and not loses_by_force(game, safe)


def test_the_check_passes_over_a_move_that_loses_by_force():
    game, losing, safe = blunder_position()
    record = game.record()
    assert TacticalCheck().choose(game, [losing, safe], None) == safe
    assert game.record() == record  # left as found
    # the search's whole order: the first move not proven lost is played
    others = [int(m) for m in game.legal_move_ids() if m not in (losing, safe)]
    chosen = TacticalCheck().choose(game, [losing, *others, safe], None)
    assert not loses_by_force(game, chosen)
    first_safe = next(m for m in [losing, *others, safe] if not loses_by_force(game, m))
    assert chosen == first_safe


def test_the_check_plays_a_forced_win_it_finds():
    game, losing, _ = blunder_position()
    game.play_id(losing)  # white to move, and white mates by force
    moves = [int(m) for m in game.legal_move_ids()]
    won = TacticalCheck().choose(game, moves[::-1], None)
    after = game.copy()
    after.play_id(won)
    assert (after.is_terminal and after.result == 1.0) or HiveAlphaBeta(depth=2).search(after).is_proven_loss
    assert not all(loses_by_force(game, m, depth=2) for m in moves)  # so not every move wins


def test_the_search_choice_stands_out_of_time_or_when_every_candidate_loses():
    game, losing, safe = blunder_position()
    assert TacticalCheck().choose(game, [losing, safe], time.monotonic() - 1.0) == losing
    assert TacticalCheck().choose(game, [losing, safe], time.monotonic() + 1e9) == safe
    assert TacticalCheck().choose(game, [losing], None) == losing
    assert TacticalCheck(depth=0).choose(game, [losing, safe], None) == losing


@pytest.mark.parametrize("depth", [-1, MAX_TACTICAL_DEPTH + 1, 2.0, True, None])
def test_a_wrong_depth_is_refused(depth):
    with pytest.raises(ValueError, match="tactical check's depth"):
        TacticalCheck(depth)


def test_the_check_plays_hoyito_too():
    entry = game_entry("hoyito")
    game = entry.new_game(entry.parse_options({}))
    moves = [int(m) for m in game.legal_move_ids()]
    assert TacticalCheck().choose(game, moves, None) in moves


@pytest.mark.slow  # timed: run alone with -m slow (under two workers its 0.3 s move ran short)
def test_a_timed_player_checks_its_move_and_one_by_simulations_does_not():
    game, _, _ = blunder_position()
    timed = make_player("pretrained:hive_base@T=0.3", PlayerContext("hive", 0))
    assert {row[0]: row[2] for row in timed.uhp_options()}["TacticalDepth"] == 3
    for _ in range(2):
        assert not loses_by_force(game, timed.choose(game))
    calls = []
    timed.tactics.choose = lambda game, candidates, end: calls.append(list(candidates)) or int(candidates[0])
    timed.choose(game)
    assert len(calls) == 1 and sorted(calls[0]) == sorted(int(m) for m in game.legal_move_ids())

    by_simulations = make_player("pretrained:hive_base@16", PlayerContext("hive", 0))
    by_simulations.tactics.choose = lambda *args: pytest.fail("a search by simulations has no check")
    by_simulations.choose(game)

    timed.set_uhp_option("TacticalDepth", 0)
    assert timed.tactical_depth == 0
    # the threat search, measured no better (docs/alphabeta.md), is gone with its option
    assert "ThreatMoves" not in {row[0] for row in timed.uhp_options()}
    with pytest.raises(ValueError, match="unknown agent option"):
        timed.set_uhp_option("ThreatMoves", 5)
    timed.tactics.choose = lambda *args: pytest.fail("the check is off")
    timed.choose(game)
    with pytest.raises(ValueError, match="tactical check's depth"):
        timed.set_uhp_option("TacticalDepth", MAX_TACTICAL_DEPTH + 1)
    assert timed.tactical_depth == 0
