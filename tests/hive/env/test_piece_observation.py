"""The piece-centred observation (``observation="pieces"``) against the game, the planes and itself.

Every row agrees with an independent reading of the game (`hive_envs.hive.piece_audit`) from either
seat, and every legal action's (tile row, destination) in the action table with the engine move it
maps to; translating the hive changes nothing; the observation alone rebuilds the position (the
planes and the legal moves of the game: it is Markov); the widest hive keeps true coordinates.
"""

from __future__ import annotations

import numpy as np
import pytest

from hive_envs.hive import HiveGame
from hive_envs.hive import encoding as E
from hive_envs.hive import piece_encoding as P
from hive_envs.hive import piece_layout as L
from hive_envs.hive.engine.grid import DIRECTION_NAMES, GRID_SIZE, qr_to_cell
from hive_envs.hive.engine.movegen import MAX_MOVES, generate_moves
from hive_envs.hive.engine.pieces import NUM_PIECE_SLOTS, NUM_PIECES, kinds_mask
from hive_envs.hive.engine.state import (
    I_LAST_MOVED,
    I_PASSES,
    I_PLY,
    I_TO_MOVE,
    new_state,
    put_piece,
)
from hive_envs.hive.engine.workspace import new_workspace
from hive_envs.hive.observations import make_hive_encoding
from hive_envs.hive.piece_audit import audit

from .positions import EXPANSION_SETS, random_positions, translated


def _pieces(s, enc, seat):
    moves = np.empty(MAX_MOVES, np.int32)
    n = generate_moves(s, new_workspace(), moves)
    out = np.empty(enc.observation_shape, np.int16)
    P.encode_pieces(
        s,
        seat,
        moves,
        n,
        enc.grid,
        enc.tiles_per_colour,
        enc.slot_of,
        np.empty(P.SCRATCH_SIZE, np.int32),
        out,
    )
    return out


def _planes_and_mask(s, enc, seat):
    planes = np.zeros((enc.num_planes, enc.grid, enc.grid), np.uint8)
    E.encode_observation(s, seat, enc.grid, enc.tiles_per_colour, enc.slot_of, enc.kinds, planes)
    moves = np.empty(MAX_MOVES, np.int32)
    n = generate_moves(s, new_workspace(), moves)
    mask = np.zeros(enc.num_actions, np.int8)
    E.mask_of_moves(s, moves, n, enc.grid, enc.tiles_per_colour, enc.slot_of, mask)
    return planes, mask


@pytest.mark.parametrize("expansions", EXPANSION_SETS)
def test_every_row_and_legal_action_agrees_with_the_game(expansions):
    enc = make_hive_encoding(expansions, "pieces")
    checked = 0
    for env in random_positions(expansions, games=2, seed=6, max_turns=150, observation="pieces"):
        for seat, agent in enumerate(env.possible_agents):
            observation = env.observe(agent)["observation"]
            assert env.observation_space(agent)["observation"].contains(observation)
            assert audit(enc, env.game, seat, observation) is None
            checked += 1
    assert checked > 200


def test_stacks_pins_the_last_moved_tile_and_throws_are_seen():
    """The fields random play rarely sets, on a position that sets them: White's Beetle on its own
    Grasshopper (moved there last ply), pinned tiles, and Black's Pillbug able to throw a White tile."""
    game = HiveGame.from_gamestring(
        "Base+P;InProgress;Black[7];wG1;bP /wG1;wS1 \\wG1;bG1 bP\\;wB1 wG1-;bS1 /bP;wQ -wS1;bQ bG1\\;"
        "wS2 wS1/;bS2 -bP;wQ /wS1;bG2 /bQ;wB1 wG1"
    )
    enc = make_hive_encoding("P", "pieces")
    seat = game.to_move
    out = np.empty(enc.observation_shape, np.int16)
    enc.observe(game, seat, out)
    assert seat == 1 and audit(enc, game, seat, out) is None
    row = {name: i for i, name in enumerate(enc.row_names())}
    beetle, grasshopper = out[row["opp_B1"]], out[row["opp_G1"]]
    assert (beetle[L.P_UNDER], grasshopper[L.P_ABOVE]) == (row["opp_G1"], row["opp_B1"])
    assert (beetle[L.P_HEIGHT], grasshopper[L.P_HEIGHT], beetle[L.P_LAST_MOVED]) == (2, 1, 1)
    assert (beetle[L.P_Q], beetle[L.P_R]) == (grasshopper[L.P_Q], grasshopper[L.P_R])
    assert out[: enc.tiles_per_colour * 2, L.P_PINNED].sum() > 0
    assert out[enc.tiles_per_colour : 2 * enc.tiles_per_colour, L.P_MOVABLE].sum() > 0, "a throw"
    global_row = out[-1]
    assert global_row[L.G_TO_MOVE] == 1 and global_row[L.G_LEGAL_ACTIONS] == len(game.legal_move_ids())
    assert (global_row[L.G_PLY], global_row[L.G_TURNS_OWN], global_row[L.G_TURNS_OPP]) == (13, 6, 7)


def test_the_action_table_is_each_action_s_tile_row_and_frame_cell():
    for expansions in ("", "MLP"):
        enc = make_hive_encoding(expansions, "pieces")
        grid, area, half = enc.grid, enc.grid**2, enc.grid // 2
        table = enc.action_table
        assert table.shape == (enc.num_actions, 3) and table.dtype == np.int16 and not table.flags.writeable
        assert tuple(table[enc.pass_action]) == (-1, 0, 0)
        actions = np.arange(enc.pass_action)
        np.testing.assert_array_equal(table[:-1, 0], actions // area)
        for column, frame in ((1, actions % area // grid), (2, actions % grid)):
            assert table[:-1, column].min() == 1 - half and table[:-1, column].max() == half
            np.testing.assert_array_equal((table[:-1, column] - (frame - half)) % grid, 0)
        centre = (half * grid + half) % area  # the first placement's cell: the frame's centre
        assert tuple(table[centre]) == (0, 0, 0)


@pytest.mark.parametrize("expansions", ["", "MLP"])
def test_translating_the_hive_changes_no_piece_observation(expansions):
    enc = make_hive_encoding(expansions, "pieces")
    rng = np.random.default_rng(4)
    checked = 0
    for i, env in enumerate(random_positions(expansions, games=2, seed=4, max_turns=200)):
        if i % 7 or env.game.is_terminal:
            continue
        s = np.array(env.game.state)
        for seat in (0, 1):
            before = _pieces(s, enc, seat)
            for _ in range(2):
                dq, dr = (int(x) for x in rng.integers(0, GRID_SIZE, 2))
                assert np.array_equal(before, _pieces(translated(s, dq, dr), enc, seat)), env.game.gamestring
        checked += 1
    assert checked > 10


def decode_pieces(obs: np.ndarray, enc, template: np.ndarray) -> tuple[np.ndarray, int]:
    """The engine state an observation describes, and its observer's seat: the tiles put back on
    their coordinates (mod the engine's torus) from the ground up, the counters from the global row.
    ``template`` is a fresh state of the game type (its ply cap is kept when plies_left saturates)."""
    n = enc.tiles_per_colour
    g = obs[2 * n]
    ply = int(g[L.G_PLY])
    mover = ply % 2
    observer = mover if g[L.G_TO_MOVE] else 1 - mover
    s = template.copy()
    for height in range(1, 8):
        for row in np.flatnonzero(obs[: 2 * n, L.P_HEIGHT] == height):
            colour = observer if row < n else 1 - observer
            piece = colour * NUM_PIECE_SLOTS + int(enc.engine_slot[row % n])
            put_piece(s, piece, qr_to_cell(int(obs[row, L.P_Q]), int(obs[row, L.P_R])))
    for row in np.flatnonzero(obs[: 2 * n, L.P_LAST_MOVED]):
        colour = observer if row < n else 1 - observer
        s[I_LAST_MOVED] = colour * NUM_PIECE_SLOTS + int(enc.engine_slot[row % n])
    s[I_PLY], s[I_TO_MOVE], s[I_PASSES] = ply, mover, g[L.G_LAST_PLY_PASS]
    return s, observer


@pytest.mark.parametrize("expansions", EXPANSION_SETS)
def test_the_observation_alone_rebuilds_the_position(expansions):
    """Markov: from either seat's piece observation, the decoded position has the game's planes (which
    fix the position) and its legal actions; so two positions that differ beyond a translation never
    share a piece observation."""
    enc = make_hive_encoding(expansions, "pieces")
    template = new_state(kinds_mask(expansions), True, 160)
    checked = 0
    for env in random_positions(expansions, games=2, seed=5, max_turns=160, observation="pieces"):
        if env.game.is_terminal:
            continue
        game_state = np.array(env.game.state)
        for seat, agent in enumerate(env.possible_agents):
            s, observer = decode_pieces(env.observe(agent)["observation"], enc, template)
            assert observer == seat
            planes, mask = _planes_and_mask(s, enc, seat)
            want_planes, want_mask = _planes_and_mask(game_state, enc, seat)
            assert np.array_equal(planes, want_planes), env.game.gamestring
            assert np.array_equal(mask, want_mask) and np.array_equal(mask, env._mask), env.game.gamestring
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("expansions", ["", "MLP"])
@pytest.mark.parametrize("axis", [(1, 0), (0, 1), (1, -1)])
def test_the_longest_possible_hive_keeps_true_coordinates(expansions, axis):
    """Every tile of the game in one straight line (the widest hive): consecutive coordinates along the
    line, none wrapped, and every legal action's destination where the engine move goes."""
    enc = make_hive_encoding(expansions, "pieces")
    s = new_state(kinds_mask(expansions), True, 300)
    pieces = [p for p in range(NUM_PIECES) if enc.slot_of[p % NUM_PIECE_SLOTS] >= 0]
    for i, p in enumerate(pieces):
        put_piece(s, p, qr_to_cell(i * axis[0], i * axis[1]))
    s[I_PLY] = 2 * len(pieces)
    for mover in (0, 1):
        s[I_TO_MOVE] = mover
        game = HiveGame.from_state(s)
        out = np.empty(enc.observation_shape, np.int16)
        enc.observe(game, mover, out)
        assert audit(enc, game, mover, out) is None
        rows = [
            (0 if p // NUM_PIECE_SLOTS == mover else enc.tiles_per_colour) + enc.slot_of[p % 14]
            for p in pieces
        ]
        steps = np.diff(out[rows][:, [L.P_Q, L.P_R]], axis=0)
        assert (steps == axis).all()
        low, high = enc.observation_bounds()
        assert ((out >= low) & (out <= high)).all()


def test_the_default_observation_is_the_planes():
    planes = make_hive_encoding("", "planes")
    assert type(planes) is E.HiveEncoding and planes.observation_kind == "planes"
    pieces = make_hive_encoding("", "pieces")
    assert pieces.observation_kind == "pieces" and pieces.observation_shape == (23, L.FIELDS)
    assert pieces.num_actions == planes.num_actions and pieces.grid == planes.grid
    assert pieces.row_names()[:2] == ["own_Q", "own_S1"] and pieces.row_names()[-1] == "global"
    with pytest.raises(ValueError, match="no planes"):
        pieces.plane_names()


def test_the_column_constants_name_their_columns():
    assert len(L.PIECE_FIELDS) == len(L.GLOBAL_FIELDS) == L.FIELDS == 17
    for prefix, names in (("P_", L.PIECE_FIELDS), ("G_", L.GLOBAL_FIELDS)):
        constants = {k: v for k, v in vars(L).items() if k.startswith(prefix)}
        assert sorted(constants.values()) == list(range(len(constants)))
        for constant, index in constants.items():
            assert names[index].upper() == constant[2:] or constant == "P_NEIGHBOURS", constant
    six = L.PIECE_FIELDS[L.P_NEIGHBOURS : L.P_NEIGHBOURS + 6]
    assert six == tuple(f"neighbour_{d}" for d in DIRECTION_NAMES) and L.P_NEIGHBOURS + 6 == L.FIELDS


@pytest.mark.parametrize("bad", ["Pieces", "board", "", None, 1, True])
def test_a_bad_observation_value_names_the_option_and_its_values(bad):
    with pytest.raises(ValueError, match=r"observation must be one of 'planes', 'pieces'"):
        make_hive_encoding("", bad)
