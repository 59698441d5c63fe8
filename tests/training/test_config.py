"""Config loading: every key documented, unknown and ill-typed keys refused with the key's name."""

import dataclasses
from pathlib import Path

import pytest

from training.config import TrainConfig, config_from_dict, load_config, parse_overrides

REPO = Path(__file__).resolve().parents[2]


def test_every_key_is_documented():
    for f in dataclasses.fields(TrainConfig):
        assert f.metadata.get("doc"), f.name


def test_shipped_configs_load():
    for name in ("hoyito_2x6", "hoyito_2x12", "hive_base", "hive_mlp", "quickstart"):
        load_config(REPO / "configs" / f"{name}.yaml")


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
