"""``export-eval``: a learned-evaluation run's generation file becomes the shipped agent's file (the
compiled network only) and model card (from the run's progress.jsonl and the commit given), with
results only from arena reports that played that very network; anything refused writes nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import torch

import hive_envs.pretrained as pretrained_module
from hive_envs.agents.eval_checkpoint import load_eval_checkpoint, save_eval_checkpoint
from hive_envs.evaluation import agent_results, arena, results_files
from hive_envs.evaluation.arena import Settings
from hive_envs.evaluation.provenance import git_commit
from hive_envs.hive.search.eval_features import HIVE_FEATURES
from hive_envs.pretrained import model_card
from hive_envs.training import pretrained as pretrained_script
from hive_envs.training import pretrained_eval
from hive_envs.training.eval_network import EvalNetwork
from hive_envs.training.pretrained_eval import export_evaluation
from tests.agents.eval_payload import eval_payload
from tools.model_cards import card_markdown

HEAD = git_commit()[0]


def generation_file(run_dir: Path, seed: int, generation: int = 2, positions: int = 300) -> Path:
    """A run folder's ``checkpoints/gen_NNNN.pt`` as the trainer writes it (optimizer state included),
    with a network of its own (``seed``)."""
    torch.manual_seed(seed)
    network = EvalNetwork(HIVE_FEATURES, width=8, hidden=8)
    network.start_from_hand(0.4)
    with torch.no_grad():
        network.output.weight.normal_(0, 1.0)
    optimizer = torch.optim.Adam(network.parameters())
    payload = {
        **eval_payload(network, positions),
        "generation": generation,
        "config": {"name": "tiny_eval", "game": "hive", "play_depth": 1},
        "train_state": {"optimizer": optimizer.state_dict(), "elapsed_s": 130.0, "scales": [0.4, 0.5]},
    }
    return save_eval_checkpoint(run_dir / "checkpoints" / f"gen_{generation:04d}.pt", payload)


def write_progress(run_dir: Path, positions: list[int]) -> None:
    lines = [
        {
            "generation": g + 1,
            "positions": n,
            "games": 4,
            "elapsed_s": 60.0 * (g + 1),
            "load_average": [1, 1, 1],
        }
        for g, n in enumerate(positions)
    ]
    (run_dir / "progress.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))


@pytest.fixture
def run(tmp_path, monkeypatch):
    """A run folder with generation 2 (100 + 200 positions), and the pretrained and results folders
    moved to empty temporary ones (the installed files stay untouched)."""
    folder = tmp_path / "pretrained"
    folder.mkdir()
    for module in (pretrained_module, pretrained_eval):
        monkeypatch.setattr(module, "pretrained_folder", lambda: folder)
    monkeypatch.setattr(agent_results, "RESULTS_FOLDER", tmp_path / "results")
    run_dir = tmp_path / "run"
    path = generation_file(run_dir, seed=3)
    write_progress(run_dir, [100, 200])
    return path, folder


def match_report(path: Path, player: str) -> str:
    """An arena report (summary and records file) of ``player`` against random: two short games."""
    settings = Settings(game="hive", max_turns=16, opening_plies=2, seed=1)
    arena.run([player], ["random"], 2, settings, out=str(path))
    return str(path)


def test_the_file_keeps_the_compiled_network_and_the_card_the_run(run):
    source, _ = run
    weights, card_path = export_evaluation(str(source), "hive_eval", HEAD[:9], depth=2, note="tiny")
    shipped, trained = load_eval_checkpoint(weights), load_eval_checkpoint(source)
    assert "train_state" not in shipped and shipped["model"] == {}
    assert all(torch.equal(shipped["evaluation"][k], trained["evaluation"][k]) for k in trained["evaluation"])
    assert weights.stat().st_size < source.stat().st_size
    card = json.loads(card_path.read_text())
    assert card == model_card("hive_eval")
    assert (card["kind"], card["generations"], card["positions"]) == ("evaluation", 2, 300)
    assert card["training_minutes"] == 2.0 and [line["generation"] for line in card["training"]] == [1, 2]
    assert card["code_commits"] == [HEAD] and card["default_depth"] == 2 and card["note"] == "tiny"
    assert card["config"]["name"] == "tiny_eval" and card["results"] == []
    assert "generation 2 of the `tiny_eval` run" in card_markdown(card)
    assert "| search |" not in card_markdown(card)  # no results, no table


def test_a_refit_of_the_run_s_data_names_its_commits_and_says_it_was_fitted_afresh(run):
    source, _ = run
    data = load_eval_checkpoint(source)
    refit = source.with_name("refit_0001.pt")
    config = {**data["config"], "refit": {"data_generations": [0, 1], "epochs": 2}}
    payload = {key: value for key, value in data.items() if key not in ("train_state", "sha256")}
    save_eval_checkpoint(refit, {**payload, "config": config})
    _, card_path = export_evaluation(str(refit), "hive_eval", [HEAD[:9], HEAD])  # the run's, the refit's
    card = json.loads(card_path.read_text())
    assert card["code_commits"] == [HEAD, HEAD] and card["config"]["refit"]["epochs"] == 2
    assert (
        "8 hidden) fitted afresh (2 passes) to the data of the first 2 generations of the `tiny_eval` run"
        in card_markdown(card)
    )


def test_results_are_the_arena_matches_of_this_very_network(run, tmp_path):
    source, _ = run
    learned = match_report(tmp_path / "learned.json", f"alphabeta:1,eval=learned:{source}")
    export_evaluation(str(source), "hive_eval", HEAD, matches=[learned])
    (row,) = model_card("hive_eval")["results"]
    assert (row["depth"], row["move_time_s"], row["opponent"], row["games"]) == (1, None, "random", 2)
    assert row["matches_report"] == learned and "games_played" not in row
    results = agent_results.results_file("hive_eval")
    assert len(results_files.read_records(results)["results"][0]["games_played"]) == 2
    assert row["opening_seed"] == 1  # the arena report's --seed: its book
    assert "| alphabeta:1 | `random` | 2-ply openings, book 1 | 2 |" in card_markdown(model_card("hive_eval"))
    # the shipped file played by name: the same network, so its row joins the first
    shipped = match_report(tmp_path / "shipped.json", "pretrained:hive_eval@T=0.02")
    export_evaluation(str(source), "hive_eval", HEAD, matches=[shipped])
    rows = model_card("hive_eval")["results"]
    assert [(r["depth"], r["move_time_s"]) for r in rows] == [(1, None), (None, 0.02)]
    assert "- alphabeta:T=0.02 against `random` (the limit: 0.02 s): player " in card_markdown(
        model_card("hive_eval")
    )
    # another network under the name: the earlier rows and results file go
    other = generation_file(tmp_path / "other", seed=4)
    write_progress(tmp_path / "other", [100, 200])
    export_evaluation(str(other), "hive_eval", HEAD)
    assert model_card("hive_eval")["results"] == [] and not results.exists()


def test_a_report_that_played_anything_else_is_refused_and_nothing_is_written(run, tmp_path):
    source, folder = run
    hand = match_report(tmp_path / "hand.json", "alphabeta:1")
    other_file = generation_file(tmp_path / "other", seed=5)
    other = match_report(tmp_path / "other.json", f"alphabeta:1,eval=learned:{other_file}")
    for report, message in ((hand, "searched with the hand evaluation"), (other, "played another network")):
        with pytest.raises(ValueError, match=message):
            export_evaluation(str(source), "hive_eval", HEAD, matches=[report])
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": "hive_base"}, "'hive_base' is no learned-evaluation agent"),
        ({"name": "nope"}, "unknown pretrained agent 'nope'"),
        ({"commit": "not-a-sha"}, "--commit: the git commit the run ran from"),
        ({"commit": "0000000"}, "--commit: the git commit the run ran from"),
        ({"depth": 13}, "the depth must be in 1..12"),
        ({"progress": [100]}, "no line for generation"),
        ({"progress": [100, 100]}, "counts 200 positions up to generation 2"),
        ({"progress": None}, "cannot read the run's progress"),
    ],
)
def test_bad_input_is_refused_and_nothing_is_written(run, change, message):
    source, folder = run
    if "progress" in change:
        if change["progress"] is None:
            (source.parent.parent / "progress.jsonl").unlink()
        else:
            write_progress(source.parent.parent, change["progress"])
    arguments = {"name": "hive_eval", "commit": HEAD, "depth": 3, **change}
    with pytest.raises(ValueError, match=message):
        export_evaluation(str(source), arguments["name"], arguments["commit"], arguments["depth"])
    assert list(folder.iterdir()) == []


def test_a_file_over_the_size_limit_is_refused_and_the_shipped_one_kept(run, monkeypatch):
    source, folder = run
    export_evaluation(str(source), "hive_eval", HEAD)
    shipped = {path.name: path.read_bytes() for path in folder.iterdir()}
    monkeypatch.setattr(pretrained_eval, "MAX_BYTES", 1_000)
    with pytest.raises(ValueError, match="a pretrained agent must stay under 1,000"):
        export_evaluation(str(source), "hive_eval", HEAD, depth=2)
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == shipped


def test_the_command_writes_both_files(run, capsys):
    source, folder = run
    assert pretrained_script.main(["export-eval", str(source), "hive_eval", "--commit", HEAD]) == 0
    assert sorted(path.name for path in folder.iterdir()) == ["hive_eval.json", "hive_eval.pt"]
    assert capsys.readouterr().out.count("wrote ") == 2
    assert pretrained_script.main(["export-eval", str(source), "hive_base", "--commit", HEAD]) != 0


def test_add_matches_adds_the_shipped_network_s_matches_once_its_run_is_gone(run, tmp_path, capsys):
    source, _ = run
    export_evaluation(str(source), "hive_eval", HEAD, note="kept")
    shutil.rmtree(source.parent.parent)
    player = "alphabeta:1,eval=pretrained:hive_eval"
    book1 = match_report(tmp_path / "book1.json", player)
    older = tmp_path / "older.json"  # a report of book 2 from before reports recorded their seed
    arena.run(
        [player], ["random"], 2, Settings(game="hive", max_turns=16, opening_plies=2, seed=2), out=str(older)
    )
    report = json.loads(older.read_text())
    del report["seed"], report[results_files.RECORDS]  # its games stay where it was played
    older.write_text(json.dumps(report))
    assert pretrained_script.main(["add-matches", "hive_eval", book1]) == 0
    assert pretrained_eval.add_matches("hive_eval", [str(older)], opening_seed=2).name == "hive_eval.json"
    pretrained_eval.add_matches("hive_eval", [book1])  # the same book again: replaced, not doubled
    card = model_card("hive_eval")
    assert [row["opening_seed"] for row in card["results"]] == [2, 1] and card["note"] == "kept"
    assert "2-ply openings, book 2 | 2 |" in card_markdown(card)
    assert len(results_files.read_records(agent_results.results_file("hive_eval"))["results"]) == 2
    assert "wrote " in capsys.readouterr().out


@pytest.mark.parametrize(
    ("name", "reports", "seed", "message"),
    [
        ("hive_base", ["REPORT"], None, "'hive_base' is no learned-evaluation agent"),
        ("hive_eval", [], None, "give the arena reports"),
        ("hive_eval", ["REPORT"], -1, "--opening-seed must be an int >= 0"),
        ("hive_eval", ["HAND"], None, "searched with the hand evaluation"),
    ],
)
def test_add_matches_refuses_bad_input_and_writes_nothing(run, tmp_path, name, reports, seed, message):
    source, folder = run
    export_evaluation(str(source), "hive_eval", HEAD)
    written = {path.name: path.read_bytes() for path in folder.iterdir()}
    paths = {"REPORT": match_report(tmp_path / "r.json", "pretrained:hive_eval@T=0.02")}
    paths["HAND"] = match_report(tmp_path / "hand.json", "alphabeta:1")
    with pytest.raises(ValueError, match=message):
        pretrained_eval.add_matches(name, [paths[report] for report in reports], seed)
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == written
    assert not agent_results.results_file("hive_eval").exists()


def test_the_shipped_card_renders_without_results():
    """The shipped evaluation's own card: its section of docs/pretrained.md, whatever its results."""
    card = model_card("hive_eval")
    text = card_markdown({**card, "results": []})
    assert text.startswith("## `hive_eval`") and "`pretrained:hive_eval` searches to depth 3" in text
