"""The configs that come with the package: every file loads, by name as by path, and the table lists them."""

from __future__ import annotations

import re

import pytest

from hive_envs.configs import FOLDER, config_names, config_path
from hive_envs.training import config as train_config
from hive_envs.training import eval_config
from hive_envs.training.rllib import config as rllib_config

FILES = sorted(FOLDER.rglob("*.yaml"))


def loader(name: str):
    """The config loader of a config's trainer: RLlib's for the rllib_* files, the learned evaluation's
    for the *_eval files, the PPO one otherwise (expert iteration reads the same keys)."""
    stem = name.rpartition("/")[2]
    if stem.startswith("rllib_"):
        return rllib_config.load_config
    if stem.endswith("_eval"):
        return eval_config.load_config
    return train_config.load_config


def test_the_package_holds_the_nineteen_configs_shipped_and_experimental():
    assert len(FILES) == 19
    assert [f"experiments/{path.stem}" for path in FILES if path.parent.name == "experiments"] == [
        name for name in config_names() if name.startswith("experiments/")
    ]


@pytest.mark.parametrize("name", config_names())
def test_every_config_loads_by_name_and_by_path(name):
    load = loader(name)
    by_name = load(name)
    assert by_name.to_dict() == load(FOLDER / f"{name}.yaml").to_dict() == load(f"{name}.yaml").to_dict()
    assert by_name.name == name.rpartition("/")[2]  # its run folder is runs/<file name>


def test_an_existing_file_wins_over_a_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "quickstart").write_text("name: mine\n")
    assert config_path("quickstart").resolve() == tmp_path / "quickstart"
    assert train_config.load_config("quickstart").name == "mine"


@pytest.mark.parametrize(
    ("value", "hint"),
    [
        ("configs/hive_base.yaml", "did you mean --config hive_base?"),  # the checkout's old path
        (
            "hive_base_exit",
            "did you mean --config experiments/hive_base_exit?",
        ),  # an experiment by its bare name
        ("../hive_envs/configs/../../quickstart", None),  # names are plain words: no path games
    ],
)
def test_an_unknown_config_is_refused_naming_the_closest_one(value, hint, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match="does not exist, nor is it a config of the package") as error:
        train_config.load_config(value)
    assert "experiments/rllib_hive_base" in str(error.value)  # the names are listed
    if hint:
        assert hint in str(error.value)


def test_the_readme_table_lists_every_config_once_with_its_kind():
    rows = re.findall(
        r"^\| `([a-z0-9_/]+)` \|(?:[^|]*\|){3} (shipped|experiment)",
        (FOLDER / "README.md").read_text(),
        flags=re.MULTILINE,
    )
    assert sorted(name for name, _ in rows) == sorted(config_names())
    assert all((kind == "experiment") == name.startswith("experiments/") for name, kind in rows)
