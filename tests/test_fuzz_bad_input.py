"""Fuzzing every public input surface with junk: a documented error (ValueError), state unchanged, no crash.

Hypothesis drives, beside legal input, junk of every kind (None, bools, floats with NaN and inf,
strings, bytes, huge and negative integers, sequences, numpy scalars and arrays of every dtype and
shape) into:

- the AEC envs: `hive_v0` / `hoyito_v0` `raw_env()` (ValueError, state unchanged) and `env()` (the agent
  to move loses, -1; PettingZoo's dead steps after);
- the Gym envs (`step`, `reset` options) and `gym.make_vec` (`step` with bad action arrays);
- `HiveBatch` / `HoyitoBatch`: `step(actions, active, final_view)` with bad arrays, `greedy_actions`,
  `game`, `move_to_action`;
- `HiveGame` / `HoyitoGame`: `play_id`, `play`, `move_name`, `move_id`, `undo`, and
  `from_gamestring` / `from_record` on mutated records;
- the training config loader (`training.config.load_config`) on junk YAML;
- the checkpoint reader (`load_policy`): a valid file whose spaces, network spec or weights are junk
  (with a valid digest), or whose archive is re-packed compressed;
- the ladder report reader (`training.ladder.check_report_rows`, what ``--extend`` reads): rows with
  a junk value or a key missing;
- the UHP engine client (`UHPClient`): an engine that prints junk bytes at start-up.

The checkpoint loader's byte-damage fuzz test is
`tests/agents/test_checkpoint.py::test_random_byte_damage_is_refused_or_changes_nothing`; the UHP
loop's is `tests/hive/test_uhp_fuzz.py`.

"State unchanged" compares the game record, the engine state array, the observation and mask
buffers and the agent to move before and after. The oracle of what is legal is written here, apart
from the code under test: an integer is a Python int or numpy integer that is not a bool. Each
surface runs 60 examples in the default suite (a few seconds in all); `-m slow` runs a soak of 1,500
per surface (about a minute).
"""

from __future__ import annotations

import tempfile
import warnings
from functools import partial
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import hive_envs  # noqa: F401  (registers the env ids)
from hive_envs import hive_v0, hoyito_v0
from hive_envs.hive import HiveBatch, HiveGame
from hive_envs.hoyito import HoyitoBatch, HoyitoGame
from hive_envs.training.config import TrainConfig, load_config


def fuzz(examples: int, soak: int = 0):
    """The test with ``examples`` Hypothesis examples, plus (``soak``) a `-m slow` twin with more."""

    def make(body):
        common = {"deadline": None, "suppress_health_check": list(HealthCheck)}
        fast = settings(max_examples=examples, **common)(given(data=st.data())(body))
        if not soak:
            return fast
        slow = pytest.mark.slow(settings(max_examples=soak, **common)(given(data=st.data())(body)))
        return fast, slow

    return make


def is_integer(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from([np.bool_(True), np.bool_(False)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.builds(np.float32, st.floats(width=32)),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.integers(min_value=-3, max_value=30_000),
    st.sampled_from([np.uint64(2**64 - 1), np.int64(-(2**63)), np.int8(-1), np.uint8(255)]),
    st.text(max_size=6),
    st.binary(max_size=4),
    st.complex_numbers(max_magnitude=10),
    st.lists(st.integers(-2, 5), max_size=3),
    st.tuples(st.integers(0, 3)),
    st.sampled_from([np.array(1.5), np.array([1]), np.array([[0]]), object(), np.nan, Ellipsis, slice(1)]),
)


def legal_or_junk(data, mask: np.ndarray):
    """A legal action of ``mask`` (a Python or numpy int) half of the time, else junk."""
    if data.draw(st.booleans()) and mask.any():
        action = data.draw(st.sampled_from(np.flatnonzero(mask).tolist()))
        return data.draw(st.sampled_from([int, np.int64, np.int32, np.uint16]))(action)
    return data.draw(JUNK)


def step_or_refused(step, legal: bool, snapshot) -> None:
    """``step()`` when ``legal``; else it must raise ValueError and leave ``snapshot()`` unchanged."""
    if legal:
        step()
        return
    before = snapshot()
    with pytest.raises(ValueError):
        step()
    assert same(snapshot(), before)


def same(a, b) -> bool:
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.shape == b.shape and np.array_equal(a, b)
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b


# --------------------------------------------------------------------------- AEC envs
AEC_GAMES = {"hive": hive_v0, "hoyito": hoyito_v0}


def aec_snapshot(env) -> tuple:
    raw = env.unwrapped
    observations = [raw.observe(agent) for agent in raw.possible_agents]
    return (
        raw.game.record(),
        raw.game.state.copy(),
        raw._mask.copy(),
        raw.agent_selection,
        dict(raw.rewards),
        dict(raw.terminations),
        observations,
    )


@fuzz(60, soak=1500)
def _raw_env(data):
    module = AEC_GAMES[data.draw(st.sampled_from(sorted(AEC_GAMES)))]
    env = module.raw_env()
    env.reset(seed=data.draw(st.integers(0, 2**16)))
    for _ in range(data.draw(st.integers(1, 10))):
        if any(env.terminations.values()):
            break
        action = legal_or_junk(data, env._mask)
        legal = is_integer(action) and 0 <= action < env.num_actions and bool(env._mask[action])
        step_or_refused(partial(env.step, action), legal, lambda: aec_snapshot(env))


test_aec_raw_env_refuses_junk_actions_state_unchanged, test_aec_raw_env_soak = _raw_env


@fuzz(60, soak=1500)
def _wrapped_env(data):
    module = AEC_GAMES[data.draw(st.sampled_from(sorted(AEC_GAMES)))]
    env = module.env()
    env.reset(seed=data.draw(st.integers(0, 2**16)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's "illegal move" notice
        for _ in range(data.draw(st.integers(0, 8))):
            observation, *_ = env.last()
            if any(env.terminations.values()):
                return
            env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        if any(env.terminations.values()):
            return
        mover = env.agent_selection
        observation, *_ = env.last()
        action = data.draw(JUNK)
        legal = is_integer(action) and 0 <= action < env.unwrapped.num_actions
        legal = legal and bool(observation["action_mask"][action])
        env.step(action)
        if not legal:
            assert env.rewards[mover] == -1.0 and all(env.terminations.values())
            for _ in list(env.agents):
                env.step(None)
            assert not env.agents


test_aec_env_makes_junk_actions_lose, test_aec_env_soak = _wrapped_env


# --------------------------------------------------------------------------- Gym envs
GYM_IDS = ["hive_envs/Hive-v0", "hive_envs/Hoyito-v0"]


def gym_snapshot(env) -> tuple:
    aec = env.unwrapped.aec
    return (
        aec.game.record(),
        aec.game.state.copy(),
        env.unwrapped.action_masks(),
        env.unwrapped._observation(),
    )


RESET_OPTIONS = st.one_of(
    st.none(),
    st.dictionaries(
        st.one_of(st.text(max_size=12), st.sampled_from(["gamestring", "gamestrng", "GameString"])),
        JUNK,
        max_size=2,
    ),
    JUNK,
)


@fuzz(60, soak=1500)
def _gym_env(data):
    env = gym.make(data.draw(st.sampled_from(GYM_IDS)), learner_seat="random")
    options = data.draw(RESET_OPTIONS)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        try:
            env.reset(seed=data.draw(st.integers(0, 2**16)), options=options)
        except ValueError:
            env.reset(seed=0)
    n = env.action_space.n
    for _ in range(data.draw(st.integers(1, 8))):
        action = legal_or_junk(data, env.unwrapped.action_masks())
        if not is_integer(action) or not 0 <= action < n:
            before = gym_snapshot(env)
            with pytest.raises(ValueError):
                env.step(action)
            assert same(gym_snapshot(env), before)
            continue
        legal = bool(env.unwrapped.action_masks()[action])
        _, reward, terminated, _, info = env.step(action)
        if not legal:  # an in-range illegal action loses, as TerminateIllegalWrapper does
            assert terminated and reward == -1.0 and info["illegal_action"]
        if terminated:
            assert reward in (-1.0, 0.0, 1.0)
            with pytest.raises(ValueError, match="reset"):
                env.step(action)
            return


test_gym_env_refuses_junk_state_unchanged, test_gym_env_soak = _gym_env


def action_arrays(n_games: int, n_actions: int):
    """Arrays of every dtype and shape, mostly of the batch's size, values in and out of range."""
    shapes = st.one_of(st.just((n_games,)), hnp.array_shapes(min_dims=0, max_dims=2, max_side=4))
    return st.one_of(
        hnp.arrays(hnp.integer_dtypes() | hnp.unsigned_integer_dtypes(), shapes),
        hnp.arrays(np.int64, (n_games,), elements=st.integers(-2, n_actions + 2)),
        hnp.arrays(hnp.floating_dtypes() | hnp.boolean_dtypes(), shapes),
        st.lists(JUNK, min_size=n_games, max_size=n_games).map(lambda x: np.array(x, dtype=object)),
        JUNK,
    )


def legal_array(actions, mask: np.ndarray, active=None) -> bool:
    a = np.asarray(actions) if not isinstance(actions, np.ndarray) else actions
    if a.shape != (mask.shape[0],) or not np.issubdtype(a.dtype, np.integer):
        return False
    rows = np.arange(mask.shape[0]) if active is None else np.flatnonzero(active)
    values = a[rows].astype(object)  # exact comparisons for every integer dtype
    return all(0 <= v < mask.shape[1] and mask[g, v] for g, v in zip(rows, values))


@fuzz(60, soak=1500)
def _vector_env(data):
    vec = gym.make_vec(data.draw(st.sampled_from(GYM_IDS)), num_envs=3, learner_seat="random")
    vec.reset(seed=data.draw(st.integers(0, 2**16)))
    batch = vec.unwrapped.batch
    for _ in range(data.draw(st.integers(1, 5))):
        mask = vec.unwrapped.action_masks()
        if data.draw(st.booleans()):
            actions = np.array([data.draw(st.sampled_from(np.flatnonzero(m).tolist())) for m in mask])
        else:
            actions = data.draw(action_arrays(3, mask.shape[1]))
        step_or_refused(partial(vec.step, actions), legal_array(actions, mask), lambda: batch_snapshot(batch))


test_vector_env_refuses_bad_action_arrays_state_unchanged, test_vector_env_soak = _vector_env


# --------------------------------------------------------------------------- batches
def batch_snapshot(batch) -> tuple:
    return tuple(b.copy() for b in (batch.states, batch.observation, batch.action_mask, batch.to_move))


BATCHES = {"hive": lambda: HiveBatch(3), "hoyito": lambda: HoyitoBatch(3)}


@fuzz(60, soak=1500)
def _batch(data):
    batch = BATCHES[data.draw(st.sampled_from(sorted(BATCHES)))]()
    batch.reset(seed=0)
    for _ in range(data.draw(st.integers(1, 5))):
        mask = batch.action_mask
        if data.draw(st.booleans()):
            actions = np.array([data.draw(st.sampled_from(np.flatnonzero(m).tolist())) for m in mask])
        else:
            actions = data.draw(action_arrays(3, batch.num_actions))
        active = data.draw(st.one_of(st.none(), hnp.arrays(np.bool_, 3), JUNK, hnp.arrays(np.int8, 3)))
        view = data.draw(st.one_of(st.none(), hnp.arrays(np.int8, 3, elements=st.integers(0, 1)), JUNK))
        good_active = active is None or (isinstance(active, np.ndarray) and active.dtype == np.bool_)
        good_view = view is None or (isinstance(view, np.ndarray) and view.dtype == np.int8)
        step_or_refused(
            partial(batch.step, actions, active=active, final_view=view),
            good_active and good_view and legal_array(actions, mask, active),
            lambda: batch_snapshot(batch),
        )
    rows = data.draw(
        st.one_of(JUNK, hnp.arrays(hnp.integer_dtypes() | hnp.floating_dtypes(), st.integers(0, 4)))
    )
    before = batch_snapshot(batch)
    as_array = np.asarray(rows)  # lists and tuples of game indices are rows too
    rows_ok = (
        as_array.ndim == 1
        and (as_array.size == 0 or np.issubdtype(as_array.dtype, np.integer))
        and all(0 <= int(r) < 3 for r in as_array)
    )
    if rows_ok:
        batch.greedy_actions(rows, np.random.default_rng(0))
    else:
        with pytest.raises(ValueError):
            batch.greedy_actions(rows, np.random.default_rng(0))
    row, move = data.draw(JUNK), data.draw(JUNK)
    if not (is_integer(row) and 0 <= row < 3):
        with pytest.raises(ValueError):
            batch.game(row)
    with pytest.raises(ValueError):
        batch.move_to_action(
            row if is_integer(row) and 0 <= row < 3 else 0, move if not is_integer(move) else -1
        )
    assert same(batch_snapshot(batch), before)


test_batches_refuse_bad_arrays_and_rows_state_unchanged, test_batches_soak = _batch


# --------------------------------------------------------------------------- games
UHP_TEXT = st.text(alphabet="wbQSBGAMLP0123456789 -/\\passPASS;+", max_size=12) | st.text(max_size=8) | JUNK


def game_snapshot(game) -> tuple:
    return game.record(), game.state.copy(), game.ply, game.to_move


@fuzz(60, soak=1500)
def _games(data):
    game = data.draw(st.sampled_from([HiveGame, HoyitoGame]))()
    for _ in range(data.draw(st.integers(1, 12))):
        if game.is_terminal:
            break
        legal = game.legal_move_ids().tolist()
        op = data.draw(st.sampled_from(["play_id", "play", "move_name", "move_id", "undo"]))
        before = game_snapshot(game)
        if op == "undo":
            if game.ply:
                game.undo()
            else:
                with pytest.raises(ValueError):
                    game.undo()
            continue
        if op in ("play", "move_id"):  # a move as users type it
            typed = (
                UHP_TEXT if isinstance(game, HiveGame) else st.one_of(UHP_TEXT, st.integers(-3, 30).map(str))
            )
            # (an integer given to HoyitoGame.play is the deprecated form of play_id: tests/core)
            value = data.draw(typed.filter(lambda v: isinstance(game, HiveGame) or not is_integer(v)))
        else:
            value = legal_or_junk(data, np.isin(np.arange(max(legal) + 1), legal))
        ok_id = is_integer(value) and value in legal
        try:
            result = getattr(game, op)(value)
        except ValueError:
            assert same(game_snapshot(game), before)
            assert not (ok_id and op in ("play_id", "move_name"))
            continue
        if op in ("play_id", "move_name"):
            assert ok_id
        if op == "play" and isinstance(game, HoyitoGame):
            assert int(value) in legal
        if op == "move_id":
            assert result in legal and same(game_snapshot(game), before)
        if op == "move_name":
            assert isinstance(result, str) and same(game_snapshot(game), before)


test_games_refuse_junk_moves_state_unchanged, test_games_soak = _games


def mutate(text: str, data) -> str:
    chars = list(text)
    for _ in range(data.draw(st.integers(1, 4))):
        where = data.draw(st.integers(0, len(chars)))
        kind = data.draw(st.sampled_from(["insert", "delete", "replace"]))
        char = data.draw(st.characters(codec="utf-8") | st.sampled_from(list(";,=/-\\0123456789wbQ ")))
        if kind == "insert":
            chars.insert(where, char)
        elif chars and where < len(chars):
            chars[where : where + 1] = [] if kind == "delete" else [char]
    return "".join(chars)


HIVE_RECORD = "Base+MLP;InProgress;White[4];wS1;bG1 -wS1;wA1 wS1/;bQ /bG1;wQ wA1-;bM bQ\\"
HOYITO_RECORD = HoyitoGame.from_position([0, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 3], (0, 4), 1, 7).record()


@fuzz(60, soak=1500)
def _records(data):
    hive = data.draw(st.booleans())
    text = mutate(HIVE_RECORD if hive else HOYITO_RECORD + ";moves=11,6", data)
    if data.draw(st.booleans()):
        text = data.draw(JUNK)
    try:
        game = HiveGame.from_gamestring(text) if hive else HoyitoGame.from_record(text)
    except ValueError:
        return
    parse = HiveGame.from_gamestring if hive else HoyitoGame.from_record
    assert parse(game.record()).record() == game.record()  # what was accepted is a game that replays


test_game_records_parse_or_raise_value_error, test_game_records_soak = _records


# --------------------------------------------------------------------------- training config
YAML_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
FIELDS = sorted(TrainConfig.__dataclass_fields__)


@fuzz(60, soak=1500)
def _config(data):
    import yaml

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "config.yaml"
        if data.draw(st.booleans()):
            keys = st.sampled_from(FIELDS) | st.text(max_size=8)
            document = data.draw(st.dictionaries(keys, YAML_VALUES, max_size=4))
            path.write_text(yaml.safe_dump(document))
        else:
            path.write_bytes(data.draw(st.binary(max_size=40) | st.text(max_size=40).map(str.encode)))
        try:
            config = load_config(path)
        except ValueError:
            return
    assert isinstance(config, TrainConfig)


test_config_loader_accepts_or_raises_value_error, test_config_loader_soak = _config


# --------------------------------------------------------------------------- checkpoints
@fuzz(40, soak=500)
def _checkpoint(data):
    import zipfile

    import torch

    from hive_envs.agents import load_policy, save_checkpoint
    from hive_envs.agents.network_kinds import build_network

    spec = {"kind": "mlp", "hidden_sizes": [4]}
    payload = {
        "game": "toy",
        "game_options": {},
        "encoding_version": "v0",
        "observation_shape": (5,),
        "num_actions": 3,
        "network": spec,
        "model": build_network(spec, (5,), 3).state_dict(),
        "global_step": 1,
        "update": 1,
    }
    key = data.draw(st.sampled_from(["observation_shape", "num_actions", "network", "model", "zip"]))
    if key == "network":
        payload["network"] = {
            "kind": data.draw(st.sampled_from(["mlp", "hexconv", "x"])),
            **data.draw(
                st.dictionaries(
                    st.sampled_from(["hidden_sizes", "channels", "blocks", "rules"]), YAML_VALUES, max_size=3
                )
            ),
        }
    elif key == "model":
        name = data.draw(st.sampled_from(sorted(payload["model"])))
        shape = data.draw(st.lists(st.integers(0, 6), max_size=3))
        payload["model"] = {**payload["model"], name: torch.zeros(shape)}
    elif key != "zip":
        payload[key] = data.draw(YAML_VALUES | st.lists(st.integers(-(2**40), 2**40), max_size=3))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "c.pt"
        try:
            save_checkpoint(path, payload)
        except ValueError:
            return
        if key == "zip":  # re-packed compressed: refused before torch reads it
            packed = Path(folder) / "z.pt"
            with zipfile.ZipFile(path) as old, zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as new:
                for record in old.infolist():
                    new.writestr(record.filename, old.read(record.filename))
            path = packed
        try:
            policy = load_policy(path, seed=0)
        except ValueError:
            return
    assert key != "zip"
    assert callable(policy)


test_checkpoint_reader_accepts_or_raises_value_error, test_checkpoint_reader_soak = _checkpoint


# --------------------------------------------------------------------------- ladder reports
REPORT_ROW = {
    "player": "random",
    "opponent": "greedy",
    "games": 4,
    "wins": 1,
    "draws": 1,
    "losses": 1,
    "wins_by_seat": [1, 0],
    "draws_by_seat": [0, 1],
    "losses_by_seat": [1, 0],
    "forfeits": [1, 0],
    "turn_cap_draws": 1,
    "decided": 3,
    "points": 1.5,
    "score": 0.5,
    "score_ci95": [0.1, 0.9],
    "mean_length": 40.0,
}


@fuzz(60, soak=1500)
def _report_rows(data):
    from hive_envs.training.ladder import check_report_rows

    rows = [dict(REPORT_ROW)]
    for _ in range(data.draw(st.integers(1, 3))):
        row = data.draw(st.sampled_from(rows))
        key = data.draw(st.sampled_from(sorted(REPORT_ROW)))
        if data.draw(st.booleans()):
            row[key] = data.draw(JUNK | YAML_VALUES)
        else:
            row.pop(key, None)
        if data.draw(st.booleans()):
            rows.append(dict(REPORT_ROW))
    try:
        check_report_rows(rows, ["random", "greedy", "alphabeta:1"], 4, "r.json")
    except ValueError:
        return
    for row in rows:  # accepted: every count adds up
        assert row["wins"] + row["draws"] + row["losses"] + sum(row["forfeits"]) == 4
        assert row["points"] == row["wins"] + 0.5 * row["draws"]


test_report_reader_accepts_or_raises_value_error, test_report_reader_soak = _report_rows


# --------------------------------------------------------------------------- UHP engine client
@fuzz(25, soak=300)
def _engine_output(data):
    from hive_envs.uhp_client import UHPClient, UHPEngineError

    printed = data.draw(
        st.binary(max_size=200)
        | st.lists(
            st.sampled_from([b"id x", b"ok", b"err", b"\xff\xfe", b"\x00" * 70_000, b"y" * 70_000]),
            max_size=4,
        ).map(lambda parts: b"\n".join(parts) + b"\n")
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "said"
        path.write_bytes(printed)
        try:
            client = UHPClient(["cat", str(path)], startup_timeout_s=20)
        except UHPEngineError:
            return
        client.close(grace_s=1)
    assert b"ok\n" in printed and isinstance(client.id, str)


test_engine_client_accepts_or_raises_engine_error, test_engine_client_soak = _engine_output
