"""Config loading: every key documented, unknown and ill-typed keys refused with the key's name."""

import dataclasses
import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hive_envs.training.config import TrainConfig, config_from_dict, describe_keys, load_config
from hive_envs.training.config_keys import parse_overrides
from tests.bounded_run import refusal_bounded


def test_every_key_is_documented():
    for f in dataclasses.fields(TrainConfig):
        assert f.metadata.get("doc"), f.name


def test_unknown_key_is_refused_with_a_suggestion():
    with pytest.raises(ValueError, match=r"unknown config key 'num_gmes' \(did you mean 'num_games'\?\)"):
        config_from_dict({"num_gmes": 8})


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("num_games", "many"),
        ("num_games", 2.5),
        ("anneal_lr", 1),
        ("learning_rate", "fast"),
        ("hidden_sizes", 64),
        ("eval_sample", "yes"),
        ("shaping_coef", "strong"),
        ("hidden_sizes", [64, True]),
        ("hidden_sizes", [64, 1.5]),
        ("seed", None),
        ("name", 7),
    ],
)
def test_ill_typed_value_is_refused_naming_the_key(key, value):
    with pytest.raises(ValueError, match=f"config key '{key}' must be of type"):
        config_from_dict({key: value})


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("pool_share", 1.5),
        ("shaping_coef", -0.5),
        ("conv_blocks", -1),
        ("conv_channels", 0),
        ("network", "resnet"),
    ],
)
def test_out_of_range_value_is_refused_naming_the_key(key, value):
    with pytest.raises(ValueError, match=f"config key '{key}' has an invalid value"):
        config_from_dict({key: value})


RANGE_TABLE = [  # (key, bad value, the allowed range the message must state)
    ("max_grad_norm", -1, "> 0"),
    ("max_grad_norm", 0, "> 0"),
    ("clip_coef", -0.2, "> 0"),
    ("clip_coef", 0.0, "> 0"),
    ("learning_rate", 0, "> 0"),
    ("learning_rate", -3e-4, "> 0"),
    ("vf_coef", -0.5, ">= 0"),
    ("ent_coef", -0.01, ">= 0"),
    ("gamma", 1.01, "0 <= value <= 1"),
    ("gamma", -0.1, "0 <= value <= 1"),
    ("gae_lambda", 2, "0 <= value <= 1"),
    ("pool_share", 1.0, "0 <= value < 1"),
    ("pool_share", -0.1, "0 <= value < 1"),
    ("num_threads", -1, ">= 0"),
    ("seed", -1, "0 <= value <= 4294967295"),
    ("seed", 2**32, "0 <= value <= 4294967295"),
    ("update_epochs", 0, ">= 1"),
    ("num_minibatches", 0, ">= 1"),
    ("total_steps", 0, ">= 1"),
    ("num_games", 0, "1 <= value <= 65536"),
    ("rollout_steps", -5, ">= 1"),
    ("time_limit_minutes", -1, ">= 0"),
    ("pool_size", -1, ">= 0"),
    ("pool_add_every", 0, ">= 1"),
    ("checkpoint_every", 0, ">= 1"),
    ("eval_every", -1, ">= 0"),
    ("eval_games", 1, ">= 2"),
    ("final_eval_games", 1, "0 or >= 2"),
    ("final_eval_games", -2, "0 or >= 2"),
    ("hidden_sizes", [64, 0], "each >= 1"),
    ("conv_channels", 0, ">= 1"),
    ("conv_blocks", -1, ">= 0"),
    ("name", "", "a folder name"),
    ("name", "..", "a folder name"),
    ("name", "a/b", "a folder name"),
    ("runs_dir", "", "not empty"),
    ("device", "tpu", "'auto', 'cpu', 'cuda'"),
    ("learning_rate", float("nan"), "a finite number"),
    ("time_limit_minutes", float("inf"), "a finite number"),
    ("shaping_coef", float("-inf"), "a finite number"),
    ("search_prior_temperature", 0, "> 0"),
    ("search_rule_value_share", 1.5, "0 <= value <= 1"),
]


@pytest.mark.parametrize(("key", "value", "allowed"), RANGE_TABLE)
def test_each_numeric_key_has_a_range_stated_in_the_error(key, value, allowed):
    message = f"config key '{key}' has an invalid value {value!r}; allowed: {allowed} ("
    with pytest.raises(ValueError, match=re.escape(message)):
        config_from_dict({key: value})
    with pytest.raises(ValueError, match=re.escape(message)):  # however the config is built
        TrainConfig(**{key: value})


def test_more_minibatches_than_decisions_per_update_is_refused():
    values = {"num_games": 4, "rollout_steps": 8, "pool_share": 0.5}
    assert config_from_dict({**values, "num_minibatches": 16}).num_minibatches == 16
    with pytest.raises(
        ValueError,
        match=re.escape(
            "config key 'num_minibatches' has an invalid value 17; allowed: <= 16, the fewest decisions "
            "an update trains on: 2 self-play games x rollout_steps 8"
        ),
    ):
        config_from_dict({**values, "num_minibatches": 17})


def test_help_lists_each_keys_allowed_values():
    help_text = describe_keys()
    assert "max_grad_norm (float, default 0.5, allowed > 0): gradient norm clip" in help_text
    assert "hidden_sizes (list[int], default [256, 256], allowed each >= 1)" in help_text


FINITE_BOUNDS = {  # written out again here, independently of hive_envs/training/config.py
    "max_grad_norm": lambda v: v > 0,
    "clip_coef": lambda v: v > 0,
    "learning_rate": lambda v: v > 0,
    "vf_coef": lambda v: v >= 0,
    "ent_coef": lambda v: v >= 0,
    "gamma": lambda v: 0 <= v <= 1,
    "gae_lambda": lambda v: 0 <= v <= 1,
    "pool_share": lambda v: 0 <= v < 1,
    "num_threads": lambda v: v >= 0,
    "num_minibatches": lambda v: v >= 1,
    "update_epochs": lambda v: v >= 1,
    "num_games": lambda v: v >= 1,
    "rollout_steps": lambda v: v >= 1,
    "final_eval_games": lambda v: v == 0 or v >= 2,
    "seed": lambda v: 0 <= v < 2**32,
}
ANY_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=4),
    st.lists(st.integers(-2, 300), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@given(
    st.dictionaries(st.sampled_from(sorted(FINITE_BOUNDS) + ["name", "hidden_sizes"]), ANY_VALUE, max_size=4)
)
@settings(max_examples=300, deadline=None)
def test_random_values_are_refused_naming_the_key_or_accepted_within_bounds(values):
    try:
        config = config_from_dict(values)
    except ValueError as error:
        assert re.match(r"config key '(\w+)' (has an invalid value|must be of type)", str(error))
        assert re.match(r"config key '(\w+)'", str(error)).group(1) in values
        return
    for key, holds in FINITE_BOUNDS.items():
        value = getattr(config, key)
        assert not isinstance(value, bool) and math.isfinite(value) and holds(value), key
    assert config.num_minibatches <= config.num_games * config.rollout_steps


RLLIB_TABLE = [
    ({"entropy_coeff": -0.1}, "config key 'entropy_coeff' has an invalid value -0.1; allowed: >= 0"),
    ({"vf_loss_coeff": -1}, "config key 'vf_loss_coeff' has an invalid value -1; allowed: >= 0"),
    ({"clip_param": -0.2}, "config key 'clip_param' has an invalid value -0.2; allowed: > 0"),
    ({"lr": 0}, "config key 'lr' has an invalid value 0; allowed: > 0"),
    ({"seed": -1}, "config key 'seed' has an invalid value -1; allowed: 0 <= value <= 4294967295"),
    ({"eval_games": 1}, "config key 'eval_games' has an invalid value 1; allowed: 0 or >= 2"),
    (
        {"win_rate_threshold": 0},
        "config key 'win_rate_threshold' has an invalid value 0; allowed: 0 < value <= 1",
    ),
    ({"num_gpus_per_learner": float("nan")}, "config key 'num_gpus_per_learner' has an invalid value nan"),
    ({"name": "../x"}, "config key 'name' has an invalid value '../x'; allowed: a folder name"),
    (
        {"network": "hive_lookahead", "game": "hoyito"},
        (
            "config key 'network' has an invalid value 'hive_lookahead'; allowed: a generic network or "
            "one of game 'hoyito' (this one is game 'hive''s)"
        ),
    ),
    (
        {"train_batch_size": 1000, "minibatch_size": 600, "num_learners": 2},
        "config key 'minibatch_size' has an invalid value 600; allowed: <= 500, the env steps each learner",
    ),
]


@pytest.mark.parametrize(("values", "message"), RLLIB_TABLE)
def test_rllib_config_ranges(values, message):
    from hive_envs.training.rllib.config import config_from_dict as rllib_config

    with pytest.raises(ValueError, match=re.escape(message)):
        rllib_config(values)


def test_int_is_accepted_for_a_float_key():
    assert config_from_dict({"learning_rate": 1}).learning_rate == 1.0


def test_overrides_parse_as_yaml_and_win_over_the_file(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("num_games: 8\nname: a\n")
    config = load_config(path, parse_overrides(["--num-games", "16", "--hidden_sizes", "[32, 32]"]))
    assert (config.num_games, config.name, config.hidden_sizes) == (16, "a", [32, 32])


@pytest.mark.parametrize(
    ("text", "message"), [("num_games: [", "not valid YAML"), ("- 1\n- 2\n", "must hold a mapping")]
)
def test_bad_file_is_refused(tmp_path, text, message):
    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        load_config(path)


def test_missing_file_is_refused():
    with pytest.raises(ValueError, match="does not exist"):
        load_config("configs/no_such.yaml")


def test_dangling_override_is_refused():
    with pytest.raises(ValueError, match="expected '--key value' pairs"):
        parse_overrides(["--num_games"])


def test_a_binary_file_is_refused(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_bytes(b"num_games: 8\n\xd0\xff\x00\x01binary")
    with pytest.raises(ValueError, match=r"config file '.*c.yaml' is not UTF-8 text"):
        load_config(path)


@pytest.mark.parametrize("value", [100_000_000_000, "1e11", 0])
def test_num_games_is_bounded_before_anything_is_allocated(value):
    with pytest.raises(ValueError, match="config key 'num_games'"):
        config_from_dict({"num_games": value})


def billion_laughs(key: str) -> str:
    """A config file of ~500 bytes whose ``key`` stands for 9**9 values through nested YAML aliases."""
    levels = ["&a [" + ",".join("1" * 9) + "]"]
    levels += [
        f"&{name} [" + ",".join([f"*{below}"] * 9) + "]" for below, name in zip("abcdefgh", "bcdefghi")
    ]
    anchors = "eval_opponents: [" + ", ".join(levels) + "]\n"
    if key == "hidden_sizes":
        return anchors + "hidden_sizes: *i\n"
    if key == "game_options":
        return anchors + "game_options: {holes_per_row: *i}\n"
    return anchors + "env: pettingzoo.classic.connect_four_v3\nenv_options: {board: *i}\n"


@pytest.mark.parametrize("key", ["hidden_sizes", "game_options", "env_options"])
def test_a_yaml_alias_is_refused_in_one_line_within_bounded_memory(tmp_path, key):
    path = tmp_path / "laughs.yaml"
    path.write_text(billion_laughs(key))
    assert len(path.read_bytes()) < 600
    result = refusal_bounded(
        "hive_envs.training.config", "load_config", path, memory_bytes=1 << 30, seconds=60
    )
    assert result.returncode == 0, result.stderr[-500:]
    assert result.stdout.count("\n") == 1 and len(result.stdout) < 300, result.stdout[:1000]
    assert "alias" in result.stdout and "(line 1," in result.stdout


def test_an_override_with_an_alias_is_refused():
    with pytest.raises(ValueError, match=r"cannot parse the value of --hidden_sizes: found the alias \*a"):
        parse_overrides(["--hidden_sizes", "[&a 64, *a]"])


def test_a_config_file_over_one_mebibyte_is_refused_unread(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("name: x\n" + "#" * (1 << 20))
    with pytest.raises(ValueError, match=r"has 1048584 bytes; a config file is read only up to 1048576"):
        load_config(path)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("hidden_sizes: [" + ", ".join(["'wide'"] * 2_000) + "]\n", "must be of type list[int]"),
        ("num_games: '" + "x" * 500_000 + "'\n", "must be of type int"),
        ("hidden_sizes: [0x" + "f" * 5000 + ", -1]\n", "has an invalid value"),
        ("learning_rate: 0x" + "f" * 5000 + "\n", "has an invalid value"),
        ("? " + "x" * 100_000 + "\n: 1\n", "unknown config key"),
        (
            "eval_opponents: ['alphabeta:" + "9" * 100_000 + "']\n",
            "each a player spec, not empty, at most 1000",
        ),
        ("teacher: 'uhp:" + "x" * 100_000 + "'\n", "or a player spec of at most 1000 characters"),
    ],
)
def test_an_error_quotes_a_large_value_in_one_short_line(tmp_path, text, shown):
    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(ValueError, match=re.escape(shown)) as refused:
        load_config(path)
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 1500  # the known keys: ~1,000
