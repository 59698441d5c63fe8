"""UHP notation: move strings and GameStrings, to and from the engine's integer moves.

Move strings (Universal Hive Protocol): ``pass``; ``wS1`` for the first piece of the game;
``bG1 -wS1`` for a piece placed or moved next to a reference piece; ``wB1 bQ`` for a piece
climbing onto the stack whose top is ``bQ``. Markers name the destination's direction from the
reference piece X::

    \\X  NW     X/  NE
    -X  W      X-  E
    /X  SW     X\\  SE

Parsing accepts any valid form of a move: a destination may be named from any piece in play
next to it (covered pieces included: they stand on their stack's cell), including the moving
piece's own old cell; positions are those before the move. Formatting picks one canonical form:
the top piece of the destination stack for a climb, else the first occupied neighbour of the
destination in direction order (NE, E, SE, SW, W, NW), never the moving piece itself.

GameString: ``GameTypeString;GameStateString;TurnString;move1;move2;...`` with GameStateString
one of NotStarted, InProgress, Draw, WhiteWins, BlackWins, and TurnString ``White[n]`` or
``Black[n]`` (n counts full rounds from 1).
"""

import re

from hive_envs.hive.engine.grid import NEIGHBOURS, ORIGIN
from hive_envs.hive.engine.moves import PASS_MOVE, move_cell, move_piece, pack_move
from hive_envs.hive.engine.pieces import NUM_PIECES, PIECE_IDS, PIECE_KIND, PIECE_NAMES
from hive_envs.hive.engine.state import (
    HEIGHT,
    I_KINDS,
    I_PLY,
    I_STATUS,
    I_TO_MOVE,
    PCELL,
    PUNDER,
    STATUS_NAMES,
    TOP,
)

# Direction d -> (prefix, suffix) marker around the reference piece's name.
_MARKERS = (("", "/"), ("", "-"), ("", "\\"), ("/", ""), ("-", ""), ("\\", ""))
_PREFIX_DIRECTION = {"/": 3, "-": 4, "\\": 5}
_SUFFIX_DIRECTION = {"/": 0, "-": 1, "\\": 2}
_PIECE_RE = r"[wb](?:Q|S[12]|B[12]|G[123]|A[123]|M|L|P)"
_REFERENCE_RE = re.compile(r"^([-/\\]?)(" + _PIECE_RE + r")([-/\\]?)$")
_TURN_RE = re.compile(r"^(White|Black)\[(\d+)\]$")
GAME_STATES = ("NotStarted",) + STATUS_NAMES


def board_is_empty(s) -> bool:
    return not (s[PCELL : PCELL + NUM_PIECES] >= 0).any()


def format_move(s, move: int) -> str:
    """UHP string of the integer ``move`` in position ``s`` (before the move is played)."""
    if move == PASS_MOVE:
        return "pass"
    piece, dest = move_piece(move), move_cell(move)
    name = PIECE_NAMES[piece]
    if board_is_empty(s):
        return name
    if s[HEIGHT + dest] > 0:
        return f"{name} {PIECE_NAMES[s[TOP + dest]]}"
    origin = s[PCELL + piece]
    for d in range(6):
        c = int(NEIGHBOURS[dest * 6 + d])
        if c == origin:
            ref = s[PUNDER + piece]
        elif s[HEIGHT + c] > 0:
            ref = s[TOP + c]
        else:
            continue
        if ref >= 0:
            prefix, suffix = _MARKERS[(d + 3) % 6]
            return f"{name} {prefix}{PIECE_NAMES[ref]}{suffix}"
    raise ValueError(f"{name} to cell {dest} touches no piece; not a move of this position")


def parse_piece(token: str, s) -> int:
    """Piece id of a UHP piece name that exists in this game type; ValueError otherwise."""
    piece = PIECE_IDS.get(token)
    if piece is None:
        raise ValueError(f"{token!r} is not a piece name (e.g. wQ, bS1, wA3, bM)")
    if not (s[I_KINDS] >> int(PIECE_KIND[piece])) & 1:
        raise ValueError(f"{token!r} is not in this game type (its expansion is not in play)")
    return piece


def parse_move(s, text: str) -> int:
    """Integer move named by the UHP string ``text`` in position ``s``; legality is not checked.

    Raises ValueError naming the token that is wrong and why.
    """
    if not isinstance(text, str):
        raise ValueError(f"a move string must be a str, not {type(text).__name__}")
    tokens = text.split()
    if len(tokens) == 1 and tokens[0].lower() == "pass":
        return PASS_MOVE
    if not 1 <= len(tokens) <= 2:
        raise ValueError(f"move {text!r} must be 'pass', 'Piece' or 'Piece Reference'")
    piece = parse_piece(tokens[0], s)
    if len(tokens) == 1:
        if not board_is_empty(s):
            raise ValueError(
                f"move {text!r} names no destination (only the first move of a game may omit it)"
            )
        return pack_move(piece, ORIGIN)
    m = _REFERENCE_RE.match(tokens[1])
    if m is None:
        raise ValueError(
            f"{tokens[1]!r} in move {text!r} is not a reference: a piece name with at most one of the "
            "markers -, / or \\ before or after it"
        )
    prefix, ref_name, suffix = m.groups()
    if prefix and suffix:
        raise ValueError(f"{tokens[1]!r} in move {text!r} has two direction markers; one at most")
    ref = parse_piece(ref_name, s)
    ref_cell = int(s[PCELL + ref])
    if ref_cell < 0:
        raise ValueError(f"reference {ref_name} in move {text!r} is not on the board")
    if prefix:
        dest = int(NEIGHBOURS[ref_cell * 6 + _PREFIX_DIRECTION[prefix]])
    elif suffix:
        dest = int(NEIGHBOURS[ref_cell * 6 + _SUFFIX_DIRECTION[suffix]])
    else:
        dest = ref_cell
    return pack_move(piece, dest)


def game_state_string(s) -> str:
    if s[I_STATUS] == 0 and s[I_PLY] == 0:
        return "NotStarted"
    return STATUS_NAMES[s[I_STATUS]]


def turn_string(s) -> str:
    return f"{'White' if s[I_TO_MOVE] == 0 else 'Black'}[{s[I_PLY] // 2 + 1}]"


def split_gamestring(text: str) -> tuple[str, str | None, str | None, list[str]]:
    """(game type, state string, turn string, moves) of a GameString, checking its syntax.

    A bare GameTypeString is accepted too (state and turn strings are then None).
    """
    if not isinstance(text, str):
        raise ValueError(f"a GameString must be a str, not {type(text).__name__}")
    parts = text.strip().split(";")
    if len(parts) == 1:
        return parts[0], None, None, []
    if len(parts) < 3:
        raise ValueError(f"GameString {text!r} needs GameTypeString;GameStateString;TurnString[;moves...]")
    state, turn = parts[1], parts[2]
    if state not in GAME_STATES:
        raise ValueError(f"GameStateString {state!r} is not one of {', '.join(GAME_STATES)}")
    if _TURN_RE.match(turn) is None:
        raise ValueError(f"TurnString {turn!r} is not White[n] or Black[n]")
    return parts[0], state, turn, parts[3:]
