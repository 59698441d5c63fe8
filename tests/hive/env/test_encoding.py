"""The encoders against the engine and against the slow oracle (`oracle.py`).

Mask = engine: the legal action indices, decoded, are exactly the engine's moves as (piece,
destination) pairs, one index per move. Round trip, observation = oracle, translation
invariance, and the observation determining the legal moves, over random positions of every
game type. The `slow` variants run thousands of positions per game type.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hive_envs.hive import encoding as E
from hive_envs.hive.engine.grid import GRID_SIZE
from hive_envs.hive.engine.movegen import MAX_MOVES, generate_moves
from hive_envs.hive.engine.pieces import NUM_PIECES, kinds_mask
from hive_envs.hive.engine.state import I_PLY, I_TO_MOVE, new_state, put_piece
from hive_envs.hive.engine.workspace import new_workspace

from . import oracle
from .positions import EXPANSION_SETS, random_positions, translated


def _move_set(moves, where):
    return {oracle.destination(m, where) for m in moves}


def _check_mask_equals_engine(env):
    game = env.game
    if game.is_terminal:
        assert env._mask.all(), "the mask returned with the final observation is all ones"
        return
    legal = np.flatnonzero(env._mask)
    moves = game.legal_move_names()
    assert legal.size == len(moves) > 0, "one action index per distinct legal move"
    stacks = game.stacks()
    where = oracle.locate(stacks)
    decoded = [env.action_to_uhp(int(a)) for a in legal]
    assert _move_set(decoded, where) == _move_set(moves, where)
    for a, text in zip(legal.tolist(), decoded):
        assert env.uhp_to_action(text) == a, "uhp_to_action(action_to_uhp(a)) == a"
    grid = env.encoding.grid
    frame = oracle.Frame(stacks, grid)
    expected = {oracle.action_of(m, game, game.expansions, grid, frame, where) for m in moves}
    assert set(legal.tolist()) == expected, "indices follow the documented formula"
    if legal.size > 1:
        assert not env._mask[env.encoding.pass_action], "pass only when nothing else is legal"


def _check_observation_equals_oracle(env):
    game = env.game
    for seat in (0, 1):
        got = env.observe(env.possible_agents[seat])["observation"]
        want = oracle.observation(game, seat, game.expansions, env.encoding.grid)
        assert np.array_equal(got, want), (seat, game.gamestring)
        assert env.observation_space(env.possible_agents[seat])["observation"].contains(got)


@pytest.mark.parametrize("expansions", EXPANSION_SETS)
def test_mask_is_the_engine_move_set_and_round_trips(expansions):
    for env in random_positions(expansions, games=2, seed=1, max_turns=120):
        _check_mask_equals_engine(env)


@pytest.mark.parametrize("expansions", EXPANSION_SETS)
def test_observation_matches_the_documented_layout(expansions):
    for i, env in enumerate(random_positions(expansions, games=2, seed=2, max_turns=150)):
        if i % 3 == 0 or env.game.is_terminal:
            _check_observation_equals_oracle(env)


@pytest.mark.slow
@pytest.mark.parametrize("expansions", EXPANSION_SETS)
def test_mask_and_observation_over_thousands_of_positions(expansions):
    count = 0
    for env in random_positions(expansions, games=12, seed=3):
        _check_mask_equals_engine(env)
        _check_observation_equals_oracle(env)
        count += 1
    assert count >= 1000


def _encode(s, enc, seat):
    obs = np.zeros(enc.observation_shape, np.uint8)
    E.encode_observation(s, seat, enc.grid, enc.tiles_per_colour, enc.slot_of, enc.kinds, obs)
    moves = np.empty(MAX_MOVES, np.int32)
    n = generate_moves(s, new_workspace(), moves)
    mask = np.zeros(enc.num_actions, np.int8)
    count = E.encode_mask(
        s, moves, n, np.zeros(E.FRAME_SIZE, np.int32), enc.grid, enc.tiles_per_colour, enc.slot_of, mask
    )
    assert count == n
    return obs, mask


@pytest.mark.parametrize("expansions", ["", "MLP"])
def test_translating_the_hive_changes_neither_observation_nor_mask(expansions):
    enc = E.make_encoding(expansions)
    rng = np.random.default_rng(4)
    for i, env in enumerate(random_positions(expansions, games=2, seed=4, max_turns=200)):
        if i % 7 or env.game.is_terminal:
            continue
        s = np.array(env.game.state)
        obs, mask = _encode(s, enc, int(s[I_TO_MOVE]))
        for _ in range(3):
            dq, dr = (int(x) for x in rng.integers(0, GRID_SIZE, 2))
            t_obs, t_mask = _encode(translated(s, dq, dr), enc, int(s[I_TO_MOVE]))
            assert np.array_equal(obs, t_obs) and np.array_equal(mask, t_mask), (dq, dr, env.game.gamestring)


@pytest.mark.parametrize("expansions", EXPANSION_SETS)
def test_decoding_an_observation_rebuilds_the_position(expansions):
    """decode_observation inverts encode_observation: from either seat's observation, the decoded
    state re-encodes to that observation and has the game's legal moves and move counter."""
    enc = E.make_encoding(expansions)
    checked = 0
    for env in random_positions(expansions, games=2, seed=5, max_turns=160):
        if env.game.is_terminal:
            continue
        for seat in (0, 1):
            obs = env.observe(env.possible_agents[seat])["observation"]
            s = new_state(kinds_mask(expansions), True, 160)
            E.decode_observation(obs, enc.grid, enc.tiles_per_colour, enc.engine_slot, len(enc.kinds), s)
            again, mask = _encode(s, enc, seat)
            assert np.array_equal(again, obs), env.game.gamestring
            assert np.array_equal(mask, env._mask), env.game.gamestring
            assert int(s[I_PLY]) == int(env.game.state[I_PLY]) and int(s[I_TO_MOVE]) == env.game.to_move
            checked += 1
    assert checked > 100


_SEEN: dict[tuple[str, bytes], bytes] = {}


@pytest.mark.parametrize("expansions", ["", "P", "MLP"])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), max_turns=st.integers(20, 120))
def test_equal_observations_have_equal_legal_moves(expansions, seed, max_turns):
    """Markov property: an observation never stands for two legal-move sets (across all games seen)."""
    for env in random_positions(expansions, games=1, seed=seed, max_turns=max_turns):
        if env.game.is_terminal:
            continue
        key = (expansions, env.observe(env.agent_selection)["observation"].tobytes())
        assert _SEEN.setdefault(key, env._mask.tobytes()) == env._mask.tobytes(), env.game.gamestring


@pytest.mark.parametrize("expansions", EXPANSION_SETS)
def test_plane_names_and_bounds_match_the_layout(expansions):
    enc = E.make_encoding(expansions)
    names = enc.plane_names()
    assert len(names) == len(set(names)) == enc.num_planes
    assert names[:2] == ["tile_own_Q", "tile_own_S1"] and names[-1] == "plies_left"
    high = enc.observation_high()
    assert high.shape == enc.observation_shape and high[names.index("tile_opp_B1")].max() == E.MAX_LEVEL
    assert high[names.index("reserve_own_A")].max() == 3 and high[names.index("ply_lo")].max() == 255


@pytest.mark.parametrize("expansions", ["", "MLP"])
@pytest.mark.parametrize("axis", [(1, 0), (0, 1), (1, -1)])
def test_the_longest_possible_hive_does_not_alias(expansions, axis):
    """Every tile of the game in one straight line (the widest hive): one index per engine move."""
    enc = E.make_encoding(expansions)
    s = new_state(kinds_mask(expansions), True, 300)
    pieces = [p for p in range(NUM_PIECES) if enc.slot_of[p % 14] >= 0]
    for i, p in enumerate(pieces):
        put_piece(s, p, ((i * axis[0]) % GRID_SIZE) * GRID_SIZE + (i * axis[1]) % GRID_SIZE)
    s[I_PLY] = 2 * len(pieces)
    for mover in (0, 1):
        s[I_TO_MOVE] = mover
        _, mask = _encode(s, enc, mover)  # asserts count == number of engine moves
        assert mask.sum() > 0
