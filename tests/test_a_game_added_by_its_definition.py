"""A third game (the tests' Nim, `tests.nim`) added by its definition alone plays on every surface:
Gymnasium (``make_vec``), PettingZoo, the alpha-beta player, the play CLI, the arena, the ladder and
PPO self-play, whose checkpoint then plays in the arena. Its own network kind, declared in its
definition, trains by PPO and expert iteration, and the trained agent plays in the arena and on the
web page, which draws Nim with the script its definition names. And a game a config or checkpoint
names is only ever looked up among the registered games, never imported."""

from __future__ import annotations

import io
from dataclasses import replace

import gymnasium as gym
import numpy as np
import pettingzoo
import pytest

from hive_envs import play, register_game
from hive_envs.agents import load_checkpoint, save_checkpoint
from hive_envs.agents.network_kinds import build_network, game_of_kind, network_kind
from hive_envs.evaluation import arena, evaluate, ladder
from hive_envs.players import PlayerContext, make_player
from hive_envs.training import expert_iteration, ppo_selfplay
from hive_envs.training.config import config_from_dict
from tests.nim import NIM, NIM_DRAWER, NIM_LOOKAHEAD, NimGame, NimLookaheadPolicy, NimOptions

pytestmark = pytest.mark.usefixtures("nim_registered")


def test_nim_plays_on_every_surface_through_its_definition(tmp_path, capsys):
    vec = gym.make_vec("hive_envs_tests/Nim-v0", num_envs=3, opponent="greedy")
    observation, _ = vec.reset(seed=0)
    assert observation.shape == (3, 11)
    vec.step(np.zeros(3, dtype=np.int64))
    aec = pettingzoo.make("aec", "hive_envs_tests/nim-v0", pile=5)
    aec.reset(seed=0)
    assert aec.last()[0]["observation"][5] == 1

    searcher = make_player("alphabeta:2", PlayerContext(game="nim", seed=0))
    assert searcher.choose(NimGame(NimOptions(pile=3))) == 3  # takes the last stones
    assert make_player("alphabeta:6", PlayerContext(game="nim")).choose(NimGame()) == 2  # leaves 8

    out = io.StringIO()
    typed = "take 9\nhint\n" + "1\n" * 10
    assert (
        play.main(["nim", "--opponent", "alphabeta:2", "--options", "pile=5"], io.StringIO(typed), out) == 0
    )
    text = out.getvalue()
    assert "5 stones left" in text and "refused" in text and ("First wins" in text or "Second wins" in text)

    settings = arena.Settings(game="nim", game_options={"pile": 7}, opening_plies=1)
    report = arena.run(["alphabeta:6"], ["random"], 4, settings, out=str(tmp_path / "arena.json"))
    match = report["matches"][0]
    assert match["games"] == 4 and match["wins"] >= 3 and len(match["moves_by_a"]) == 3

    rungs = ladder.ladder(game="nim", games=2, opening_plies=0, progress=False, out=str(tmp_path / "l.json"))
    assert rungs["players"] == list(NIM.ladder) and rungs["label"] == "Nim of 10"

    config = config_from_dict(
        {
            "name": "nim",
            "runs_dir": str(tmp_path),
            "game": "nim",
            "num_games": 8,
            "rollout_steps": 8,
            "total_steps": 128,
            "hidden_sizes": [8],
            "eval_every": 0,
            "final_eval_games": 4,
            "num_threads": 1,
            "device": "cpu",
        }
    )
    summary = ppo_selfplay.train(config)
    assert summary["global_step"] == 128
    checkpoint = str(tmp_path / "nim" / "checkpoints" / "latest.pt")
    played = arena.run([checkpoint], ["greedy"], 2, arena.Settings(game="nim"))
    assert played["matches"][0]["games"] == 2
    capsys.readouterr()


def nim_config(tmp_path, name: str, **keys):
    values = {
        "name": name, "runs_dir": str(tmp_path), "game": "nim", "game_options": {"pile": 7},
        "network": "nim_lookahead", "network_options": {"width": 4}, "init_from_rule": True,
        "num_games": 4, "rollout_steps": 6, "total_steps": 48, "exit_simulations": 4, "exit_batch_size": 8,
        "eval_every": 0, "final_eval_games": 2, "eval_opponents": ["random"], "num_threads": 1, "device": "cpu",
    }  # fmt: skip
    return config_from_dict({**values, **keys})


def test_nims_own_network_is_found_by_its_kind_and_its_options_are_its_own():
    assert network_kind("nim_lookahead") is NIM_LOOKAHEAD and game_of_kind("nim_lookahead") is NIM
    with pytest.raises(ValueError, match="option 'width' must be an int in 1..256, got 0"):
        config_from_dict({"game": "nim", "network": "nim_lookahead", "network_options": {"width": 0}})
    with pytest.raises(ValueError, match="network 'nim_lookahead' needs the nim game"):
        ppo_selfplay.train(config_from_dict({"game": "hoyito", "network": "nim_lookahead"}))


def test_nims_own_network_trains_by_ppo_and_expert_iteration_and_plays_in_the_arena(tmp_path):
    for trainer, name in ((ppo_selfplay, "ppo"), (expert_iteration, "exit")):
        summary = trainer.train(nim_config(tmp_path, name))
        assert summary["global_step"] == 48
        latest = tmp_path / name / "checkpoints" / "latest.pt"
        data = load_checkpoint(latest, game="nim")
        assert data["network"] == {"kind": "nim_lookahead", "width": 4, "rules": {"pile": 7}}
        assert isinstance(make_player(str(latest), PlayerContext("nim", 0)).network, NimLookaheadPolicy)
        settings = arena.Settings(game="nim", game_options={"pile": 7}, opening_plies=0)
        played = arena.run([str(latest), f"{latest}@8"], ["greedy"], 2, settings)
        assert [m["games"] for m in played["matches"]] == [2, 2]


def test_nim_with_its_own_agent_plays_on_the_web_page(tmp_path):
    pytest.importorskip("flask")
    from hive_envs.web.server import create_app
    from hive_envs.web.tables import Tables
    from hive_envs.web.trust import Offer

    ppo_selfplay.train(nim_config(tmp_path, "agent", final_eval_games=0))
    agents = tmp_path / "offered"
    agents.mkdir()
    (agents / "nim.pt").write_bytes((tmp_path / "agent" / "checkpoints" / "latest.pt").read_bytes())
    tables = Tables(offer=Offer(agents=agents))
    client = create_app(tables).test_client()
    try:
        meta = client.get("/api/meta").json
        assert meta["games"]["nim"] == {"pile": 10, "extra_turn": False} and meta["seats"]["nim"] == [
            "First",
            "Second",
        ]
        assert client.get(f"/{meta['boards']['nim']}").get_data(as_text=True) == NIM_DRAWER
        state = client.post(
            "/api/games", json={"game": "nim", "options": {"pile": 7}, "players": ["human", "agent:nim.pt"]}
        ).json
        while not state["over"]:
            if state["computer_to_move"]:
                state = client.post(f"/api/games/{state['id']}/computer", json={"think": True}).json
            else:
                state = client.post(
                    f"/api/games/{state['id']}/play", json={"move": state["moves"][0]["name"]}
                ).json
        assert (
            state["game"] == "nim"
            and state["stones"] == 0
            and state["status"].endswith(f"after {state['ply']} plies")
        )
        assert state["record"] == ",".join(turn["moves"][0].removeprefix("take ") for turn in state["turns"])
    finally:
        tables.close()


@pytest.mark.parametrize("game", ["os:spawnv", "tests.nim:NimBatch", "subprocess:call"])
def test_a_checkpoint_or_config_naming_code_instead_of_a_game_is_refused(tmp_path, game):
    network = build_network({"kind": "mlp", "hidden_sizes": [4]}, (11,), 3)
    path = save_checkpoint(
        tmp_path / "evil.pt",
        {
            "game": game,
            "game_options": {},
            "encoding_version": "v0",
            "observation_shape": (11,),
            "num_actions": 3,
            "network": {"kind": "mlp", "hidden_sizes": [4]},
            "model": network.state_dict(),
            "global_step": 1,
            "update": 1,
        },
    )
    with pytest.raises(ValueError, match=f"unknown game '{game}'; the games are"):
        evaluate.evaluate([str(path)], ["random"], games=2, out=str(tmp_path / "e.json"))
    with pytest.raises(ValueError, match="unknown game"):
        make_player(str(path), PlayerContext(seed=0))
    with pytest.raises(ValueError, match="game"):
        config_from_dict({"game": game})
    assert not (tmp_path / "e.json").exists()


def test_a_name_is_registered_once_and_only_a_definition_is_accepted():
    register_game(NIM)  # the same definition again: nothing happens
    with pytest.raises(ValueError, match="a game named 'hive' is already registered"):
        register_game(replace(NIM, name="hive"))
    with pytest.raises(ValueError, match="a game is added as a GameDefinition, got str"):
        register_game("tests.nim:NIM")
