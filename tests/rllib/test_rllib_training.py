"""One RLlib training iteration per game (2 env runners, local Ray), exported, then evaluated by
`training/evaluate.py` against random like a native checkpoint."""

import json

import pytest

pytest.importorskip("ray.rllib", reason="Ray RLlib is not installed (pip install 'hive_envs[rllib]')")

import ray

from hive_envs.agents import load_checkpoint
from hive_envs.evaluation import evaluate
from hive_envs.training.rllib.cluster import init_ray
from hive_envs.training.rllib.config import RLlibConfig
from hive_envs.training.rllib_selfplay import train

TINY = {
    "iterations": 1,
    "num_env_runners": 2,
    "num_envs_per_env_runner": 1,
    "train_batch_size": 256,
    "minibatch_size": 128,
    "num_epochs": 1,
    "eval_games": 0,
}
GAMES = {
    "hoyito": ({"holes_per_row": 6}, {"network": "mlp", "hidden_sizes": [32]}, (16,), 6),
    "hive": ({}, {"network": "hexconv", "conv_channels": 8, "conv_blocks": 1}, (42, 24, 24), 12673),
}


@pytest.fixture(scope="module")
def local_ray():
    init_ray(None, num_cpus=3)  # 2 env runners + the driver's learner
    yield
    ray.shutdown()


@pytest.mark.slow  # run alone with -m slow: minutes of the default suite
@pytest.mark.parametrize("game", sorted(GAMES))
def test_one_iteration_exports_a_checkpoint_that_evaluate_reads(local_ray, game, tmp_path):
    options, network, obs_shape, num_actions = GAMES[game]
    config = RLlibConfig(
        name=f"ci_{game}", runs_dir=str(tmp_path), game=game, game_options=options, **network, **TINY
    )
    summary = train(config)

    assert summary["global_step"] >= config.train_batch_size
    (row,) = summary["iterations"]
    assert row["league"]["size"] == 1  # only 'random' so far
    progress = (tmp_path / f"ci_{game}" / "progress.jsonl").read_text().splitlines()
    assert json.loads(progress[0])["env_steps"] == summary["global_step"]

    data = load_checkpoint(
        summary["checkpoint"],
        game=game,
        encoding_version="v0",
        observation_shape=obs_shape,
        num_actions=num_actions,
    )
    assert data["global_step"] == summary["global_step"] and data["update"] == 1
    report = evaluate.evaluate([summary["checkpoint"]], ["random"], games=4, out=str(tmp_path / "e.json"))
    (match,) = report["matches"]
    assert match["opponent"] == "random" and match["games"] == 4
    assert match["wins"] + match["draws"] + match["losses"] == 4
