"""Differential test: our legal move sets against OpenSpiel's ``hive`` over random games.

Both engines play the same random game (moves drawn from OUR legal set); at every ply the two move
sets are compared as sets of (piece, destination cell). OpenSpiel's action strings name a destination
relative to a reference piece (``"bA1 wS1/"``); the destination is resolved here from the piece
positions of our engine (both games are in the same position, which the equal move sets of every
earlier ply confirm).

OpenSpiel's known differences are handled explicitly, not by loosening the comparison:

1. It lists a move once per neighbouring reference piece: the comparison is over sets.
2. It lets a higher-numbered copy be placed before a lower one (``wA2`` before ``wA1``): a placement
   is mapped to the lowest-numbered piece of that bug still in the mover's reserve (the rule we
   follow); every OpenSpiel placement must then be one of ours.
3. It does not pin pieces while White's Queen is not in play, so Black may then split the hive (by
   moving its own piece or by a Pillbug throw of a White one): in such positions, with Black to move,
   every extra OpenSpiel move must move a single ground piece whose removal splits the hive (checked
   with an independent flood fill here), and nothing may be missing.
4. Its board has a radius (14 at most); a game that leaves it is cut short as a draw. We stop
   comparing when OpenSpiel ends a game that our engine does not, and check that the hive had then
   reached that radius. OpenSpiel caps games at 500 plies; our games run with ``max_turns=None``
   (no cap) and stop at the ply budget.

Everything else (terminal positions, who won, passes) must match exactly.
"""

import csv
import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from hive_envs.hive import GAME_TYPES, PIECE_NAMES, HiveGame
from hive_envs.hive.engine.grid import DIRECTIONS, cell_to_qr, hex_distance, qr_to_cell
from hive_envs.hive.engine.moves import move_cell, move_piece, pack_move
from hive_envs.hive.engine.rules import PASS_MOVE

BOARD_RADIUS = 14
PERFT_TABLE = Path(__file__).resolve().parents[1] / "data" / "perft_hive.tsv"
_MARKS = {  # UHP direction marker, marker before the reference? -> axial step
    ("/", False): DIRECTIONS[0],  # X/  NE
    ("-", False): DIRECTIONS[1],  # X-  E
    ("\\", False): DIRECTIONS[2],  # X\  SE
    ("/", True): DIRECTIONS[3],  # /X  SW
    ("-", True): DIRECTIONS[4],  # -X  W
    ("\\", True): DIRECTIONS[5],  # \X  NW
}


def _openspiel_game(game_type: str):
    letters = game_type.partition("+")[2]
    return pyspiel.load_game(
        "hive",
        {
            "board_size": BOARD_RADIUS,
            "uses_mosquito": "M" in letters,
            "uses_ladybug": "L" in letters,
            "uses_pillbug": "P" in letters,
        },
    )


def _positions(game: HiveGame) -> dict[str, tuple[int, int]]:
    return {name: qr for qr, names in game.stacks().items() for name in names}


def _splits_hive(stacks: dict, qr: tuple[int, int]) -> bool:
    """Would lifting the single piece at ``qr`` leave the rest of the hive disconnected? (flood fill)"""
    if len(stacks[qr]) != 1:
        return False
    rest = {qr_to_cell(*c) for c in stacks if c != qr}
    if not rest:
        return False
    start = next(iter(rest))
    seen, todo = {start}, [start]
    while todo:
        q, r = cell_to_qr(todo.pop())
        for dq, dr in DIRECTIONS:
            n = qr_to_cell(q + dq, r + dr)
            if n in rest and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) != len(rest)


PIECE_ID = {name: i for i, name in enumerate(PIECE_NAMES)}
COPIES = {name: [p for p in PIECE_NAMES if p[:2] == name[:2]] for name in PIECE_NAMES}
"""Each piece name -> the pieces of its colour and bug, lowest-numbered first."""


def _lowest_in_reserve(name: str, positions: dict) -> str:
    """The lowest-numbered piece of ``name``'s colour and bug that is not in play."""
    return next(p for p in COPIES[name] if p not in positions)


def _their_moves(state, game: HiveGame) -> dict[tuple[int, int], list[int]]:
    """OpenSpiel's legal moves as {(piece id, destination cell): [its actions]} (pass: (-1, -1))."""
    positions = _positions(game)
    moves: dict[tuple[int, int], list[int]] = {}
    for action in state.legal_actions():
        text = state.action_to_string(action)
        if text == "pass":
            key = (-1, -1)
        else:
            words = text.split()
            piece = words[0]
            if piece not in positions:  # a placement: the lowest-numbered copy is the one placed
                piece = _lowest_in_reserve(piece, positions)
            if len(words) == 1:
                dest = qr_to_cell(0, 0)
            else:
                ref = words[1]
                if ref[0] in "/-\\":
                    (dq, dr), ref = _MARKS[(ref[0], True)], ref[1:]
                elif ref[-1] in "/-\\":
                    (dq, dr), ref = _MARKS[(ref[-1], False)], ref[:-1]
                else:
                    dq, dr = 0, 0
                q, r = positions[ref]
                dest = qr_to_cell(q + dq, r + dr)
            key = (PIECE_ID[piece], dest)
        moves.setdefault(key, []).append(action)
    return moves


def _our_moves(game: HiveGame) -> set[tuple[int, int]]:
    return {
        (-1, -1) if m == PASS_MOVE else (move_piece(m), move_cell(m)) for m in map(int, game.legal_move_ids())
    }


def _describe(keys) -> list[str]:
    return sorted("pass" if p < 0 else f"{PIECE_NAMES[p]} to {cell_to_qr(c)}" for p, c in keys)


def _play_one_game(game_type: str, seed: int, max_plies: int) -> int:
    """Play one random game in both engines, comparing every ply; return the plies compared."""
    rng = random.Random(seed)
    ours = HiveGame(game_type, tournament_opening=True, max_turns=None)
    theirs = _openspiel_game(game_type).new_initial_state()
    for ply in range(max_plies):
        if theirs.is_terminal() or ours.is_terminal:
            break
        mine = _our_moves(ours)
        their_moves = _their_moves(theirs, ours)
        other = set(their_moves)
        missing, extra = mine - other, other - mine
        if extra and not missing and not ours.queen_placed(0) and ours.to_move == 1:
            stacks = ours.stacks()
            positions = _positions(ours)
            extra = {
                (p, c)
                for p, c in extra
                if not (PIECE_NAMES[p] in positions and _splits_hive(stacks, positions[PIECE_NAMES[p]]))
            }
        assert not missing and not extra, (
            f"{game_type} seed {seed} ply {ply}: move sets differ\n  GameString: {ours.gamestring}\n"
            f"  only ours: {_describe(missing)}\n  only OpenSpiel: {_describe(extra)}"
        )
        piece, cell = sorted(mine)[rng.randrange(len(mine))]
        if piece < 0:
            ours.play_id(PASS_MOVE)
        else:
            ours.play_id(pack_move(piece, cell))
        their_actions = [
            a
            for a in their_moves[(piece, cell)]
            if piece < 0 or theirs.action_to_string(a).split()[0] == PIECE_NAMES[piece]
        ]
        theirs.apply_action(their_actions[0])
    else:
        return max_plies

    if theirs.is_terminal() and not ours.is_terminal:
        reach = max(hex_distance(*qr) for qr in ours.stacks())
        assert reach >= BOARD_RADIUS - 1 or theirs.move_number() >= 500, (
            f"{game_type} seed {seed}: OpenSpiel ended the game, we did not\n  {ours.gamestring}"
        )
    elif ours.is_terminal and ours.outcome != "Draw":
        assert theirs.is_terminal(), (
            f"{game_type} seed {seed}: we ended the game, OpenSpiel did not\n{ours.gamestring}"
        )
        expected = {"WhiteWins": [1.0, -1.0], "BlackWins": [-1.0, 1.0]}[ours.outcome]
        assert list(theirs.returns()) == expected, (
            f"{game_type} seed {seed}: {ours.outcome} vs {theirs.returns()}"
        )
    return ply


FAST_GAMES = 24
FAST_PLIES = 150


@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_random_games_match_openspiel(game_type):
    for seed in range(FAST_GAMES):
        _play_one_game(game_type, seed, FAST_PLIES)


@pytest.mark.slow
@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_many_random_games_match_openspiel(game_type):
    for seed in range(1000, 1000 + 400):
        _play_one_game(game_type, seed, 600)


def _replay(gamestring: str):
    """Our game and OpenSpiel's state after the moves of a GameString."""
    target = HiveGame.from_gamestring(gamestring, max_turns=None)
    ours = HiveGame(target.game_type, max_turns=None)
    theirs = _openspiel_game(ours.game_type).new_initial_state()
    for move_id in target.move_ids:
        theirs.apply_action(_their_action(theirs, ours, move_id))
        ours.play_id(move_id)
    return ours, theirs


def _their_action(state, game: HiveGame, move_id: int) -> int:
    """One OpenSpiel action for our move (a placement names the very piece placed)."""
    key = (-1, -1) if move_id == PASS_MOVE else (move_piece(move_id), move_cell(move_id))
    actions = _their_moves(state, game)[key]
    return next(
        a for a in actions if key[0] < 0 or state.action_to_string(a).split()[0] == PIECE_NAMES[key[0]]
    )


def _checked_perft(ours: HiveGame, theirs, depth: int) -> int:
    """Perft by our engine, asserting at every node above the last ply that OpenSpiel's move set is ours."""
    mine, their_moves = _our_moves(ours), _their_moves(theirs, ours)
    assert mine == set(their_moves), (
        f"move sets differ at {ours.gamestring}\n  only ours: {_describe(mine - set(their_moves))}\n"
        f"  only OpenSpiel: {_describe(set(their_moves) - mine)}"
    )
    if depth == 1:
        return len(mine)
    total = 0
    for move_id in ours.legal_move_ids().tolist():
        child = theirs.clone()
        child.apply_action(_their_action(theirs, ours, move_id))
        ours.play_id(move_id)
        total += _checked_perft(ours, child, depth - 1)
        ours.undo()
    return total


def _midgame_perft_rows():
    lines = [line for line in PERFT_TABLE.read_text().splitlines() if not line.startswith("#")]
    for row in csv.DictReader(lines, delimiter="\t"):
        if row["source"] == "openspiel":
            marks = [pytest.mark.slow] if int(row["depth"]) > 2 else []
            yield pytest.param(row["gamestring"], int(row["depth"]), int(row["count"]), marks=marks)


@pytest.mark.parametrize("gamestring, depth, count", list(_midgame_perft_rows()))
def test_midgame_perft_rows_are_confirmed_node_by_node_by_openspiel(gamestring, depth, count):
    ours, theirs = _replay(gamestring)
    assert _checked_perft(ours, theirs, depth) == count


def _actions_per_move(game_type: str, games: int, plies: int) -> float:
    """OpenSpiel's legal actions per distinct legal move, over positions of seeded random games."""
    actions = moves = 0
    for seed in range(games):
        rng = random.Random(seed)
        ours = HiveGame(game_type, max_turns=None)
        theirs = _openspiel_game(game_type).new_initial_state()
        while ours.ply < plies and not (ours.is_terminal or theirs.is_terminal()):
            mine = _our_moves(ours)
            if set(_their_moves(theirs, ours)) == mine:  # skip OpenSpiel's known extra moves
                actions += len(theirs.legal_actions())
                moves += len(mine)
            ids = ours.legal_move_ids()
            move_id = int(ids[rng.randrange(len(ids))])
            theirs.apply_action(_their_action(theirs, ours, move_id))
            ours.play_id(move_id)
    return actions / moves


@pytest.mark.parametrize("game_type", ["Base", "Base+MLP"])
def test_openspiel_lists_each_move_about_twice(game_type, capsys):
    """The README's aliasing figure: OpenSpiel's action space names a move once per reference piece
    next to its destination (and a placement once per copy of the bug), ~1.9 actions per distinct
    move in Base and ~2.0 in Base+MLP over these games; our encoding has exactly one."""
    ratio = _actions_per_move(game_type, games=8, plies=100)
    with capsys.disabled():
        print(f"\nOpenSpiel actions per distinct move, {game_type}: {ratio:.2f}")
    assert 1.7 < ratio < 2.3


def test_reference_resolution_matches_uhp_directions():
    """Self-check of the string parser used above: "bS1 wS1-" is east of the origin, and so on."""
    game = HiveGame("Base")
    game.play("wS1")
    state = _openspiel_game("Base").new_initial_state()
    state.apply_action(next(a for a in state.legal_actions() if state.action_to_string(a) == "wS1"))
    moves = _their_moves(state, game)
    east = (PIECE_NAMES.index("bS1"), qr_to_cell(1, 0))
    assert east in moves and state.action_to_string(moves[east][0]).endswith("wS1-")
