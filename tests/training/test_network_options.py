"""A config's network: its kind's own options (`network_options:`), checked by the kind's options class,
the game-named keys of earlier versions read once more with a warning, and the shipped configs giving
the network specs they gave before (`hive_envs.training.network_choice`)."""

from __future__ import annotations

import warnings

import pytest
import torch

from hive_envs.agents.checkpoint import load_checkpoint
from hive_envs.hoyito.agent.options import DEFAULT_SEARCH_DEPTH, MAX_SEARCH_DEPTH
from hive_envs.pretrained import pretrained_path
from hive_envs.training import ppo_selfplay
from hive_envs.training.config import config_from_dict, describe_keys, load_config
from hive_envs.training.game_lookup import make_batch, network_spec
from hive_envs.training.rllib.config import config_from_dict as rllib_config
from hive_envs.training.rllib.config import load_config as rllib_load
from tests.training.test_train_smoke import tiny_config

HIVE_RULES = {"expansions": "", "max_turns": 300, "tournament_opening": True}
HOYITO_RULES = {"holes_per_row": 6, "max_laps": 1000, "no_capture_limit": 600, "seeds_per_hole": 4}
SPECS = {  # what each shipped config's network spec was before network_options (checkpoints compare it)
    "quickstart": {"kind": "hoyito_lookahead", "hidden_sizes": [128, 128], "rules": HOYITO_RULES},
    "hoyito_2x6_aec": {"kind": "hoyito_lookahead", "hidden_sizes": [128, 128], "rules": HOYITO_RULES},
    "experiments/hoyito_2x6_exit": {
        "kind": "hoyito_lookahead", "hidden_sizes": [128, 128], "features": 2, "search_depth": 5,
        "rules": HOYITO_RULES,
    },
    "experiments/hoyito_2x6_exit_alphabeta": {
        "kind": "hoyito_lookahead", "hidden_sizes": [128, 128], "features": 2, "search_depth": 5,
        "rules": HOYITO_RULES,
    },
    "experiments/hive_base_exit": {
        "kind": "hive_lookahead", "channels": 8, "blocks": 0, "features": 2, "rules": HIVE_RULES,
    },
    "experiments/hive_base_exit_alphabeta": {
        "kind": "hive_lookahead", "channels": 8, "blocks": 0, "features": 2, "rules": HIVE_RULES,
    },
    "experiments/hive_base_board_only": {"kind": "hexconv", "channels": 32, "blocks": 2},
    "experiments/connect_four": {"kind": "mlp", "hidden_sizes": [128, 128]},
    "experiments/connect_four_conv": {"kind": "gridconv", "channels": 32, "blocks": 2, "channels_last": True},
    "hive_board": {"kind": "hive_pieces", "width": 32, "layers": 2, "heads": 1},
}  # fmt: skip
SHIPPED_AGENTS = ("hive_base", "hive_base_searched", "hive_mlp", "hoyito_2x6", "hoyito_2x12")
"""Configs whose shipped agent (same name) was trained from them: its checkpoint's spec is the config's."""


def spec_of(name: str) -> dict:
    config = load_config(name)
    return network_spec(config, make_batch(config.game, 1, config.game_options))


@pytest.mark.parametrize("name", sorted(SPECS))
def test_a_shipped_config_gives_the_spec_it_gave_before(name):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DeprecationWarning)
        assert spec_of(name) == SPECS[name]
    assert not [w for w in caught if "config key" in str(w.message)]  # written with network_options


@pytest.mark.parametrize("name", SHIPPED_AGENTS)
def test_a_shipped_config_still_describes_its_shipped_agents_network(name):
    assert spec_of(name) == load_checkpoint(pretrained_path(name))["network"]


def test_the_rllib_configs_give_the_specs_they_gave_before():
    assert rllib_load("rllib_hoyito_2x6").network_spec() == SPECS["quickstart"]
    assert (
        rllib_load("experiments/rllib_hive_base").network_spec() == SPECS["experiments/hive_base_board_only"]
    )


@pytest.mark.parametrize(
    ("network", "options", "message"),
    [
        ("hive_lookahead", {"feature": 2}, "network 'hive_lookahead' has no option 'feature'; its options are features, search_depth"),
        ("hive_lookahead", {"features": 3}, "option 'features' must be 1 or 2, got 3"),
        ("hive_lookahead", {"features": True}, "option 'features' must be 1 or 2, got True"),
        ("hive_lookahead", {"search_depth": 9}, "option 'search_depth' must be an int in 2..8, got 9"),
        ("hive_lookahead", {"features": 1, "search_depth": 3}, "option 'search_depth' must be 2 unless features is 2"),
        ("hoyito_lookahead", {"features": 2.0}, "option 'features' must be 1 or 2, got 2.0"),
        ("hoyito_lookahead", {"search_depth": 0}, f"option 'search_depth' must be an int in 1..{MAX_SEARCH_DEPTH}, got 0"),
        ("hoyito_lookahead", {"features": 2, "search_depth": 21}, "must be an int in 1..20, got 21"),
        ("hoyito_lookahead", {"features": 2, "board_values_games": -1}, "option 'board_values_games' must be an int >= 0"),
        ("hoyito_lookahead", {"search_depth": 3}, "option 'search_depth' is for features 2"),
        ("mlp", {"features": 2}, "network 'mlp' has no option 'features'; its options are "),
        ("hexconv", {"channels": 8}, "network 'hexconv' has no option 'channels'"),
    ],
)  # fmt: skip
def test_network_options_are_checked_by_the_kinds_own_options_class(network, options, message):
    with pytest.raises(ValueError, match="config key 'network_options' has an invalid value: .*" + message):
        config_from_dict({"network": network, "network_options": options})
    with pytest.raises(ValueError, match="config key 'network_options'"):
        rllib_config(
            {
                "game": "hive" if network == "hive_lookahead" else "hoyito",
                "network": network,
                "network_options": options,
            }
        )


def test_network_options_must_be_a_mapping():
    with pytest.raises(ValueError, match="config key 'network_options' must be of type dict"):
        config_from_dict({"network": "hive_lookahead", "network_options": [2]})


def test_init_from_rule_and_a_search_on_the_rule_value_need_a_network_with_a_rule_value():
    for values in (
        {"network": "hoyito_lookahead", "network_options": {"features": 1}},
        {"network": "hive_lookahead", "network_options": {"features": 1}},
        {"network": "mlp"},
    ):
        with pytest.raises(
            ValueError, match="config key 'init_from_rule'.*unless the network has a rule value"
        ):
            config_from_dict({**values, "init_from_rule": True})
        with pytest.raises(ValueError, match="config key 'search_rule_value_share'.*has none"):
            config_from_dict({**values, "search_rule_value_share": 1.0})
    config = config_from_dict(
        {
            "network": "hoyito_lookahead",
            "network_options": {"features": 2, "search_depth": 3},
            "init_from_rule": True,
            "search_rule_value_share": 1,
        }
    )
    assert config.network_spec() == {
        "kind": "hoyito_lookahead", "hidden_sizes": [256, 256], "features": 2, "search_depth": 3,
    }  # fmt: skip
    assert config.search()["rule_value_share"] == 1


def test_a_deeper_hive_searched_value_reaches_the_spec_and_the_two_ply_one_is_left_out():
    hive = {"game": "hive", "network": "hive_lookahead"}
    assert "search_depth" not in config_from_dict(hive).network_spec()  # as specs before search_depth
    deeper = config_from_dict({**hive, "network_options": {"search_depth": 3}})
    assert deeper.network_spec() == {
        "kind": "hive_lookahead",
        "channels": 64,
        "blocks": 4,
        "features": 2,
        "search_depth": 3,
    }
    assert "features" not in config_from_dict({**hive, "network_options": {"features": 1}}).network_spec()


LEGACY = [  # (old keys, network, the network_options they are now)
    ({"hive_features": 1}, "hive_lookahead", {"features": 1}),
    ({"hive_features": 2, "hive_search_depth": 3}, "hive_lookahead", {"features": 2, "search_depth": 3}),
    ({"hoyito_features": 2, "hoyito_search_depth": 4}, "hoyito_lookahead", {"features": 2, "search_depth": 4}),
    ({"hoyito_features": 2, "hoyito_board_values_games": 8}, "hoyito_lookahead", {"features": 2, "board_values_games": 8}),
]  # fmt: skip


@pytest.mark.parametrize(("old", "network", "options"), LEGACY)
def test_a_game_named_key_is_read_once_more_warning_of_its_new_place(old, network, options):
    game = network.partition("_")[0]
    with pytest.warns(DeprecationWarning) as caught:
        config = config_from_dict({"game": game, "network": network, **old})
    assert len(caught) == len(old)
    for key, warning in zip(old, caught):
        assert f"config key {key!r} is deprecated: write it as network_options: {{" in str(warning.message)
    new = config_from_dict({"game": game, "network": network, "network_options": options})
    assert config.network_options == options and config.network_spec() == new.network_spec()


def test_a_game_named_key_of_another_network_is_ignored_with_a_warning_and_one_given_twice_refused():
    with pytest.warns(
        DeprecationWarning, match="'hoyito_features' is deprecated and, with network 'mlp', ignored"
    ):
        config = config_from_dict({"network": "mlp", "hoyito_features": 2})
    assert config.network_options == {} and config.network_spec() == {
        "kind": "mlp",
        "hidden_sizes": [256, 256],
    }
    with pytest.raises(
        ValueError, match="'hive_features' and network_options 'features' are one setting given twice"
    ):
        config_from_dict(
            {"network": "hive_lookahead", "hive_features": 2, "network_options": {"features": 1}}
        )
    with pytest.warns(DeprecationWarning, match="'hive_features' is deprecated"):
        assert rllib_config(
            {"game": "hive", "network": "hive_lookahead", "hive_features": 1}
        ).network_options == {"features": 1}


def test_the_old_keys_train_the_same_weights_as_network_options(tmp_path):
    """One tiny update from the same seed, the network asked for by the old keys and by network_options:
    the same weights, bit for bit."""
    keys = {"game": "hoyito", "network": "hoyito_lookahead", "init_from_rule": True, "final_eval_games": 0}
    with pytest.warns(DeprecationWarning):
        old = tiny_config(
            tmp_path, name="old", total_steps=128, hoyito_features=2, hoyito_search_depth=2, **keys
        )
    new = tiny_config(
        tmp_path, name="new", total_steps=128, network_options={"features": 2, "search_depth": 2}, **keys
    )
    weights = []
    for config in (old, new):
        ppo_selfplay.train(config)
        weights.append(load_checkpoint(tmp_path / config.name / "checkpoints" / "latest.pt")["model"])
    assert weights[0].keys() == weights[1].keys()
    assert all(torch.equal(weights[0][key], weights[1][key]) for key in weights[0])


def test_the_options_classes_agree_with_the_kernels_they_configure():
    from hive_envs.hive.agent.features import TWO_PLY
    from hive_envs.hive.agent.options import TWO_PLY as OPTIONS_TWO_PLY
    from hive_envs.hoyito.agent.features import HoyitoRuleFeatures
    from hive_envs.hoyito.search.alphabeta import MAX_DEPTH

    assert MAX_SEARCH_DEPTH == MAX_DEPTH and TWO_PLY == OPTIONS_TWO_PLY
    assert HoyitoRuleFeatures(6, 4, 1000, 600, 2).search_depth == DEFAULT_SEARCH_DEPTH


def test_help_lists_each_kind_with_its_options():
    text = describe_keys()
    assert "network_options (dict, default {})" in text
    assert "  hoyito_lookahead: " in text and "board_values_games (default 0)" in text
    assert "  mlp: " in text and "network_options: none" in text
