"""The learned evaluation shipped as a pretrained agent (``hive_eval``): its file is a learned
evaluation's in the safe format, stripped to what a search reads, and its model card says what it is
and how it was trained; it is no policy, so the code that takes policy agents refuses it clearly and
the lists of policy agents skip it."""

from __future__ import annotations

import hashlib
import re
import shutil

import pytest

import hive_envs.pretrained as pretrained_module
from hive_envs.agents import load_pretrained
from hive_envs.agents.eval_checkpoint import load_eval_checkpoint
from hive_envs.core.learned_eval import ARRAY_NAMES
from hive_envs.evaluation import agent_results
from hive_envs.players import PlayerContext, make_player
from hive_envs.pretrained import (
    EVALUATION,
    MAX_BYTES,
    POLICY,
    model_card,
    pretrained_kind,
    pretrained_names,
    pretrained_path,
)
from hive_envs.training import pretrained as pretrained_script

CARD_KEYS = {
    "name", "kind", "description", "file", "bytes", "file_sha256", "game", "game_options", "features",
    "network", "generations", "positions", "training_minutes", "training", "code_commits", "config",
    "default_depth", "usage", "results", "note",
}  # fmt: skip


def test_the_evaluation_is_a_kind_of_its_own():
    assert pretrained_names(EVALUATION) == ["hive_eval"] and pretrained_kind("hive_eval") == EVALUATION
    assert "hive_eval" not in pretrained_names(POLICY)
    assert set(pretrained_names()) == set(pretrained_names(POLICY)) | {"hive_eval"}


def test_the_file_is_the_compiled_network_only_and_agrees_with_its_card():
    path, card = pretrained_path("hive_eval"), model_card("hive_eval")
    assert set(card) == CARD_KEYS
    assert card["kind"] == EVALUATION and card["name"] == "hive_eval" and card["file"] == path.name
    assert card["bytes"] == path.stat().st_size <= MAX_BYTES
    assert card["file_sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    data = load_eval_checkpoint(path)  # the format's checks: sha256 in the archive, keys, finite weights
    assert "train_state" not in data and data["model"] == {}  # no optimizer, no torch module
    assert set(data["evaluation"]) == set(ARRAY_NAMES)
    for key in ("game", "game_options", "features", "network"):
        assert card[key] == data[key], key
    assert card["generations"] == data["generation"] == len(card["training"]) >= 1
    assert card["positions"] == data["positions"] == sum(line["positions"] for line in card["training"])
    assert card["training_minutes"] == round(card["training"][-1]["elapsed_s"] / 60, 1) > 0
    assert card["code_commits"] and all(re.fullmatch("[0-9a-f]{40}", c) for c in card["code_commits"])
    assert card["config"]["game"] == data["game"] and card["default_depth"] == 3
    assert card["usage"]["alpha-beta to the default depth"] == "pretrained:hive_eval"


def test_load_pretrained_refuses_it_and_says_how_to_play_it():
    with pytest.raises(ValueError, match="'hive_eval' is a learned evaluation for the alpha-beta search, not a "
                       "policy.*pretrained:hive_eval.*alphabeta:D,eval=pretrained:hive_eval"):  # fmt: skip
        load_pretrained("hive_eval")


def test_the_policy_agents_tools_refuse_it(tmp_path):
    with pytest.raises(ValueError, match="'hive_eval' is a learned evaluation: .*export-eval"):
        agent_results.measure("hive_eval", ["random"], 2, "argmax")
    with pytest.raises(ValueError, match="'hive_eval' is a learned evaluation: .*export-eval"):
        agent_results.rows_from_ladder("hive_eval", str(tmp_path / "ladder.json"))
    with pytest.raises(ValueError, match="'hive_eval' is a learned evaluation, not a policy agent"):
        pretrained_script.export(str(pretrained_path("hive_base")), "hive_eval", 16)


def test_a_missing_or_corrupt_file_is_a_clear_error_naming_it(tmp_path, monkeypatch):
    shipped = pretrained_path("hive_eval")
    shutil.copy(shipped.with_suffix(".json"), tmp_path)  # its card is intact
    monkeypatch.setattr(pretrained_module, "pretrained_folder", lambda: tmp_path)
    with pytest.raises(ValueError, match=r"pretrained agent 'hive_eval'.*hive_eval\.pt.*missing"):
        make_player("pretrained:hive_eval")
    content = bytearray(shipped.read_bytes())
    content[len(content) // 2] ^= 0xFF
    (tmp_path / "hive_eval.pt").write_bytes(bytes(content))
    with pytest.raises(ValueError, match=r"pretrained agent 'hive_eval'.*hive_eval\.pt.*corrupt"):
        make_player("pretrained:hive_eval", PlayerContext(game="hive"))
