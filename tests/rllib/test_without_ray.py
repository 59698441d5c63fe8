"""The RLlib entry point's bad-input paths that need no Ray: missing install, bad address, bad config."""

import socket
import time

import pytest

from hive_envs.training import rllib_selfplay
from hive_envs.training.rllib import RAY_HINT, cluster
from hive_envs.training.rllib.config import load_config


def test_missing_ray_gives_a_one_line_install_hint(monkeypatch, capsys):
    import importlib.util

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name.split(".")[0] == "ray" else real_find_spec(name, *a),
    )
    assert rllib_selfplay.main(["--iterations", "1"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"error: {RAY_HINT}"
    assert "pip install 'hive_envs[rllib]'" in err


def closed_port() -> int:
    """A localhost port nothing listens on (bound then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_unreachable_address_fails_fast_with_a_clear_message():
    port = closed_port()
    started = time.time()
    with pytest.raises(
        ValueError, match=rf"cannot reach a Ray cluster at '127.0.0.1:{port}'.*ray start --head"
    ):
        cluster.check_reachable(f"127.0.0.1:{port}")
    assert time.time() - started < 6


@pytest.mark.parametrize(
    ("address", "expected"),
    [("10.0.0.5:6379", ("10.0.0.5", 6379)), ("ray://head:10001", ("head", 10001)), ("head", ("head", 6379))],
)
def test_address_forms(address, expected):
    assert cluster.parse_address(address) == expected


@pytest.mark.parametrize("address", ["head:port", "head:0", ":6379", "head:70000"])
def test_malformed_address_is_refused(address):
    with pytest.raises(ValueError, match="is not of the form host:port"):
        cluster.parse_address(address)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"game": "chess"}, "config key 'game'"),
        ({"self_play_share": 1.0}, "config key 'self_play_share'"),
        ({"minibatch_size": 5000, "train_batch_size": 400}, "config key 'minibatch_size'"),
        ({"num_env_runner": 2}, "did you mean 'num_env_runners'"),
        ({"iterations": "ten"}, "config key 'iterations' must be of type int"),
        ({"shaping_coef": -1.0}, "config key 'shaping_coef'"),
        ({"shaping_coef": 1.0, "gamma": 0.99}, "config key 'shaping_coef'.*gamma = 1"),
    ],
)
def test_bad_config_values_name_the_key(overrides, message):
    with pytest.raises(ValueError, match=message):
        load_config(None, overrides)


def test_shaping_coef_turns_on_the_envs_reward_shaping_and_stays_out_of_the_game_options():
    from hive_envs import hive_v0, hoyito_v0

    hive = load_config(None, {"game": "hive", "network": "hexconv", "shaping_coef": 0.5})
    assert hive.env_options() == {"reward_shaping": "queen_margin", "shaping_coef": 0.5, "shaping_gamma": 1.0}
    assert hive.game_options == {}
    assert hive_v0.env(**hive.env_options()).unwrapped.shaping.coef == 0.5
    hoyito = load_config(None, {"game_options": {"holes_per_row": 6}, "shaping_coef": 1.0})
    assert hoyito_v0.env(**hoyito.env_options()).unwrapped.shaping.potential == "captured_margin"
    assert load_config(None, {}).env_options() == {}
