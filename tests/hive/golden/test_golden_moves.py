"""Golden per-rule move tests: hand-worked positions from ``data/*.yaml`` checked against the engine.

Each case is a GameString with, as the rules demand (see the file's header and each case's ``why``):
``destinations`` — the complete set of destinations of some pieces; ``complete`` — those sets are all
the legal moves; ``all_moves`` — the complete legal move list; ``listed`` — moves that must be legal;
``refused`` — moves ``play`` must reject, leaving the game unchanged; ``outcome`` — the result.

Moves are compared as (piece, destination) pairs: every expected UHP string is parsed by the engine
(``move_id``), because one move has many equivalent UHP spellings.
"""

from pathlib import Path

import pytest
import yaml

from hive_envs.hive import PIECE_NAMES, HiveGame
from hive_envs.hive.engine.moves import move_piece

DATA = Path(__file__).parent / "data"
CASES = [case for path in sorted(DATA.glob("*.yaml")) for case in yaml.safe_load(path.read_text())]


def _params():
    for case in CASES:
        yield pytest.param(case, id=case["name"])


def _load(case) -> HiveGame:
    return HiveGame.from_gamestring(case["gamestring"], **case.get("options", {}))


def _ids(game: HiveGame, moves: list[str], case) -> set[int]:
    ids = set()
    for move in moves:
        try:
            ids.add(game.move_id(move))
        except ValueError as e:
            pytest.fail(
                f"[{case['name']}] the engine refuses the expected move {move!r}: {e}\n{case['gamestring']}"
            )
    return ids


def _names(game: HiveGame, ids: set[int]) -> list[str]:
    return sorted(game.move_name(i) for i in ids)


def _assert_same(game: HiveGame, expected: set[int], actual: set[int], what: str, case) -> None:
    if expected != actual:
        pytest.fail(
            f"[{case['name']}] {what}\n  GameString: {case['gamestring']}\n"
            f"  missing (expected, not generated): {_names(game, expected - actual)}\n"
            f"  extra (generated, not expected):   {_names(game, actual - expected)}"
        )


def test_cases_are_named_uniquely_and_well_formed():
    names = [case["name"] for case in CASES]
    assert len(names) == len(set(names)), "duplicate golden case names"
    allowed = {
        "name",
        "rule",
        "board",
        "gamestring",
        "options",
        "why",
        "destinations",
        "complete",
        "all_moves",
        "listed",
        "refused",
        "outcome",
    }
    for case in CASES:
        assert set(case) <= allowed, f"{case['name']}: unknown keys {set(case) - allowed}"
        assert any(k in case for k in ("destinations", "all_moves", "listed", "refused", "outcome")), case[
            "name"
        ]


@pytest.mark.parametrize("case", _params())
def test_golden_case(case):
    game = _load(case)
    legal = {int(i) for i in game.legal_move_ids()}

    if "outcome" in case:
        assert game.outcome == case["outcome"], f"[{case['name']}] outcome {game.outcome!r}"
        assert game.is_terminal == (case["outcome"] is not None)

    expected_all: set[int] = set()
    for piece, moves in case.get("destinations", {}).items():
        piece_id = PIECE_NAMES.index(piece)
        expected = _ids(game, moves, case)
        assert all(move_piece(i) == piece_id for i in expected), (
            f"{case['name']}: a {piece} move names another piece"
        )
        actual = {i for i in legal if move_piece(i) == piece_id}
        _assert_same(game, expected, actual, f"destinations of {piece}", case)
        expected_all |= expected
    if case.get("complete"):
        _assert_same(game, expected_all, legal, "complete move set", case)
    if "all_moves" in case:
        _assert_same(game, _ids(game, case["all_moves"], case), legal, "complete move set", case)
    for move in case.get("listed", []):
        assert _ids(game, [move], case) <= legal, f"[{case['name']}] {move!r} should be legal"

    before = game.gamestring
    for move in case.get("refused", []):
        with pytest.raises(ValueError):
            game.play(move)
            pytest.fail(f"[{case['name']}] {move!r} was accepted; it must be refused\n{case['gamestring']}")
        assert game.gamestring == before, f"[{case['name']}] a refused {move!r} changed the game"


@pytest.mark.parametrize("case", _params())
def test_golden_position_round_trips(case):
    """The engine writes back a GameString that loads to the same position, and each of its valid
    move strings parses back to the move it names."""
    game = _load(case)
    assert [game.move_id(m) for m in game.legal_move_names()] == list(game.legal_move_ids())
    again = HiveGame.from_gamestring(game.gamestring, **case.get("options", {}))
    assert again.gamestring == game.gamestring
    assert set(again.legal_move_ids()) == set(game.legal_move_ids())
