"""Self-play PPO on PettingZoo AEC envs (config key ``env``): the first update through the adapter is the
compiled batch's bit for bit; checkpoints record the env and play in evaluate.py; file-named modules
are never imported."""

from __future__ import annotations

import json
from unittest import mock

import pytest
import torch

from hive_envs.agents import load_checkpoint
from hive_envs.agents.network_kinds import build_network
from hive_envs.core import aec_source
from hive_envs.evaluation import evaluate
from hive_envs.training import ppo_selfplay
from hive_envs.training.config import config_from_dict

TOY = "tests.core.aec_toy_envs:honest"


def one_update_config(tmp_path, name, **keys):
    values = {
        "name": name,
        "runs_dir": str(tmp_path),
        "seed": 7,
        "num_games": 8,
        "rollout_steps": 8,
        "total_steps": 64,
        "network": "mlp",
        "hidden_sizes": [32],
        "eval_every": 0,
        "final_eval_games": 0,
        "num_threads": 1,
        "device": "cpu",
        **keys,
    }
    return config_from_dict(values)


def trained_weights(tmp_path, name, **keys):
    ppo_selfplay.train(one_update_config(tmp_path, name, **keys))
    data = load_checkpoint(tmp_path / name / "checkpoints" / "latest.pt")
    assert data["update"] == 1
    return data


@pytest.mark.parametrize(
    "game, options, env, network",
    [
        ("hoyito", {"holes_per_row": 6}, "pettingzoo:hive_envs/hoyito-v0", "mlp"),
        ("hive", {"expansions": "M"}, "hive_envs.hive_v0", "mlp"),
        ("hoyito", {"holes_per_row": 6}, "pettingzoo:hive_envs/hoyito-v0", "hoyito_lookahead"),
        ("hoyito", {"holes_per_row": 12, "no_capture_limit": 40}, "hive_envs.hoyito_v0", "hoyito_lookahead"),
    ],
)
def test_first_update_on_the_adapter_equals_the_compiled_batch_bit_for_bit(
    tmp_path, game, options, env, network
):
    """The game's rule network over its own env too: it reads the observation only (`game_lookup.network_rules`)."""
    compiled = trained_weights(tmp_path, "batch", game=game, game_options=options, network=network)
    adapted = trained_weights(tmp_path, "adapter", env=env, env_options=options, network=network)
    assert compiled["network"] == adapted["network"]  # the same rules in the spec
    assert adapted["game"] == "aec" and adapted["game_options"] == {"env": env, "env_options": options}
    assert compiled["model"].keys() == adapted["model"].keys()
    for key, tensor in compiled["model"].items():
        assert torch.equal(tensor, adapted["model"][key]), key
    torch.manual_seed(7)  # the network train() starts from: the update changed it
    start = build_network(compiled["network"], tuple(compiled["observation_shape"]), compiled["num_actions"])
    assert any(not torch.equal(v, compiled["model"][k]) for k, v in start.state_dict().items())


def test_a_rule_network_over_another_env_than_its_games_own_is_refused(tmp_path):
    config = one_update_config(
        tmp_path, "c4", env="pettingzoo.classic.connect_four_v3", network="hoyito_lookahead"
    )
    with pytest.raises(ValueError, match="needs the hoyito game or its own PettingZoo env"):
        ppo_selfplay.train(config)
    assert not (tmp_path / "c4").exists()


def test_a_connect_four_checkpoint_records_its_env_and_plays_in_evaluate(tmp_path, capsys):
    data = trained_weights(tmp_path, "c4", env="pettingzoo.classic.connect_four_v3")
    assert data["game_options"] == {"env": "pettingzoo.classic.connect_four_v3", "env_options": {}}
    path = str(tmp_path / "c4" / "checkpoints" / "latest.pt")
    report = evaluate.evaluate([path], ["random", "greedy"], games=6, out=str(tmp_path / "e.json"))
    assert [m["opponent"] for m in report["matches"]] == ["random", "greedy"]  # greedy: wins at once
    for match in report["matches"]:
        assert match["wins"] + match["losses"] + match["draws"] == 6
    assert json.loads((tmp_path / "e.json").read_text())["game"] == "aec"


def test_a_module_named_in_a_config_is_imported_only_when_the_command_line_trusts_it(tmp_path, capsys):
    config = tmp_path / "toy.yaml"
    config.write_text(f"env: {TOY}\nenv_options: {{counters: 7}}\n")
    flags = ["--config", str(config), "--runs_dir", str(tmp_path), "--num_games", "4", "--rollout_steps", "4"]
    flags += ["--total_steps", "16", "--eval_every", "0", "--final_eval_games", "0", "--hidden_sizes", "[8]"]
    flags += ["--num_minibatches", "2"]
    assert ppo_selfplay.main(flags) == 2
    assert f"--trust-env-module {TOY}" in capsys.readouterr().err
    try:
        assert ppo_selfplay.main([*flags, "--trust-env-module", TOY]) == 0
    finally:
        aec_source._trusted.clear()
    data = load_checkpoint(tmp_path / "run" / "checkpoints" / "latest.pt")
    assert data["game_options"] == {"env": TOY, "env_options": {"counters": 7}}


def test_env_with_game_options_or_env_options_without_env_is_refused(tmp_path):
    with pytest.raises(ValueError, match="config key 'game_options'"):
        one_update_config(tmp_path, "x", env="hive_envs.hoyito_v0", game_options={"holes_per_row": 6})
    with pytest.raises(ValueError, match="config key 'env_options'"):
        one_update_config(tmp_path, "x", env_options={"holes_per_row": 6})
    with pytest.raises(ValueError, match="config key 'env': env 'os:system'"):
        one_update_config(tmp_path, "x", env="os:system")


@pytest.mark.parametrize(
    ("env_keys", "why"),
    [
        (
            "env: pettingzoo.classic.hanabi_v5\n",
            "hanabi_v5(): the adapter cannot drive it: playing a copy of it",
        ),
        (
            "env: pettingzoo.classic.connect_four_v3\nenv_options: {render_mode: human}\n",
            "config key 'env_options': env pettingzoo.classic.connect_four_v3: render_mode 'human' is refused",
        ),
        (f"env: {TOY}\n", "the adapter cannot drive it: reading its agents and spaces raised"),
    ],
)
def test_an_env_the_adapter_cannot_drive_is_one_line_of_error_and_no_run_folder(
    tmp_path, capsys, env_keys, why
):
    if "hanabi" in env_keys:
        pytest.importorskip("pettingzoo.classic.hanabi_v5")  # needs open_spiel (the test extra)
    config = tmp_path / "env.yaml"
    config.write_text(env_keys + "num_games: 2\nrollout_steps: 4\nhidden_sizes: [8]\nnum_minibatches: 1\n")
    flags = ["--config", str(config), "--runs_dir", str(tmp_path / "runs"), "--trust-env-module", TOY]
    try:
        with mock.patch(f"{TOY.partition(':')[0]}.Nim.observation_space", side_effect=KeyError("player_0")):
            assert ppo_selfplay.main(flags) == 2
    finally:
        aec_source._trusted.clear()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and why in err, err
    assert not (tmp_path / "runs").exists()
