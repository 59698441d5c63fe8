"""The pretrained policy agents shipped in the package: each loads, plays only legal moves and beats
random; ``pretrained:NAME`` works wherever a player goes; a missing or corrupt file is a clear error
naming it. (The shipped learned evaluation: tests/agents/test_pretrained_evaluation.py.)"""

from __future__ import annotations

import gc
import hashlib
import io
import itertools
import json
import shutil
from pathlib import Path

import gymnasium as gym
import pytest

import hive_envs.pretrained as pretrained_module
from hive_envs import play
from hive_envs.agents import load_pretrained
from hive_envs.agents.checkpoint import load_checkpoint, save_checkpoint
from hive_envs.agents.network_kinds import build_network
from hive_envs.evaluation import agent_results, arena, evaluate
from hive_envs.evaluation.arena import Settings
from hive_envs.evaluation.provenance import utc_text
from hive_envs.evaluation.results_files import read_records
from hive_envs.hive.uhp import UnloadedPlayer, load_player
from hive_envs.hive.uhp import main as uhp_main
from hive_envs.players import SearchLimits, make_player
from hive_envs.pretrained import POLICY, model_card, pretrained_names, pretrained_path
from hive_envs.training import pretrained as pretrained_script
from hive_envs.training.pretrained import MAX_BYTES
from tools.model_cards import card_markdown, play_label, play_order, results_table

GYM_IDS = {
    "hive_base": ("hive_envs/Hive-v0", {}),
    "hive_base_searched": ("hive_envs/Hive-v0", {}),
    "hive_board": ("hive_envs/Hive-v0", {"observation": "pieces"}),
    "hive_mlp": ("hive_envs/HiveMLP-v0", {}),
    "hoyito_2x6": ("hive_envs/Hoyito-v0", {}),
    "hoyito_2x12": ("hive_envs/Hoyito2x12-v0", {}),
}
MATCH_GAMES = {
    "hive_base": 4,
    "hive_base_searched": 2,
    "hive_board": 4,
    "hive_mlp": 2,
    "hoyito_2x6": 10,
    "hoyito_2x12": 6,
}
"""Games of the short match vs random (Hive games are slower)."""


def test_every_policy_agent_has_a_gym_id_and_a_match_size():
    assert set(GYM_IDS) == set(pretrained_names(POLICY)) == set(MATCH_GAMES)


@pytest.mark.parametrize("name", pretrained_names(POLICY))
def test_file_and_model_card_agree(name):
    path = pretrained_path(name)
    card = model_card(name)
    assert path.stat().st_size <= MAX_BYTES
    assert card["name"] == name and card["file"] == path.name
    assert card["file_sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    data = load_checkpoint(path)
    assert "train_state" not in data  # shipped without optimizer and pool
    assert card["plies_trained"] == data["global_step"] > 0
    assert card["game"] == data["game"] and card["network"] == data["network"]
    assert card["training_minutes"] > 0 and card["code_commits"]


@pytest.mark.parametrize("name", pretrained_names(POLICY))
def test_plays_only_legal_moves_as_gym_opponent_and_as_policy(name):
    env_id, options = GYM_IDS[name]
    env = gym.make(env_id, opponent=f"pretrained:{name}", learner_seat=1, **options)
    policy = load_pretrained(name)
    obs, _ = env.reset(seed=3)
    for _ in range(40):  # the opening (Hive: an opening within 40 plies; Hoyito: often a whole game)
        mask = env.unwrapped.action_masks()
        action = policy(obs, mask)
        assert mask[action], f"{name} chose illegal action {action}"
        obs, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            break
    env.close()


@pytest.mark.parametrize("name", pretrained_names(POLICY))
def test_wins_a_short_match_against_random(name):
    card = model_card(name)
    settings = Settings(game=card["game"], game_options=card["game_options"], seed=5)
    games = MATCH_GAMES[name]
    result, _ = arena.play_match(f"pretrained:{name}", "random", games, settings)
    assert sum(result.forfeits) == 0  # every move legal, none failed
    assert result.wins > games // 2 and result.losses == 0, result


def test_evaluate_and_arena_take_the_spec(tmp_path, capsys):
    assert evaluate.main(["pretrained:hoyito_2x6", "--opponents", "random", "--games", "4"]
                         + ["--out", str(tmp_path / "e.json")]) == 0  # fmt: skip
    assert json.loads((tmp_path / "e.json").read_text())
    assert (
        arena.main(["pretrained:hoyito_2x6@4", "random", "--games", "2", "--out", str(tmp_path / "a.json")])
        == 0
    )
    assert "pretrained:hoyito_2x6@4" in capsys.readouterr().out


def test_uhp_engine_plays_the_hive_agent_behind_bestmove():
    """The engine answers with the agent, after freezing its objects out of the cycle collector's scans
    (a full collection inside a `bestmove time` would scan them: 0.12 s)."""
    out = io.StringIO()
    gc.unfreeze()
    try:
        code = uhp_main(
            ["--agent", "pretrained:hive_base", "--simulations", "0"], io.StringIO("newgame\nbestmove\n"), out
        )
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
    lines = out.getvalue().splitlines()
    assert code == 0 and lines[-2].startswith("w") and lines[-1] == "ok", lines


def test_play_cli_takes_the_agent():
    typed = "\n".join(str(h) for h in itertools.islice(itertools.cycle(range(6, 12)), 3000)) + "\n"
    out = io.StringIO()
    code = play.main(["hoyito", "--agent", "pretrained:hoyito_2x6", "--seat", "1"], io.StringIO(typed), out)
    assert code == 0 and "game over: " in out.getvalue()


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """The pretrained folder moved to an empty temporary one (the installed files stay untouched)."""
    monkeypatch.setattr(pretrained_module, "pretrained_folder", lambda: tmp_path)
    return tmp_path


def test_a_missing_file_is_a_clear_error_naming_it(folder):
    for load in (load_pretrained, lambda name: make_player(f"pretrained:{name}")):
        with pytest.raises(ValueError, match=r"pretrained agent 'hoyito_2x6'.*hoyito_2x6\.pt.*missing"):
            load("hoyito_2x6")
    assert isinstance(load_player("pretrained:hive_base@0"), UnloadedPlayer)


def test_a_corrupt_file_is_a_clear_error_naming_it(tmp_path, monkeypatch):
    path = Path(shutil.copy(pretrained_path("hoyito_2x6"), tmp_path))
    shutil.copy(pretrained_module.pretrained_folder() / "hoyito_2x6.json", tmp_path)  # its card is intact
    monkeypatch.setattr(pretrained_module, "pretrained_folder", lambda: tmp_path)
    content = bytearray(path.read_bytes())
    content[len(content) // 2] ^= 0xFF
    path.write_bytes(bytes(content))
    for load in (load_pretrained, lambda name: make_player(f"pretrained:{name}")):
        with pytest.raises(ValueError, match=r"pretrained agent 'hoyito_2x6'.*hoyito_2x6\.pt"):
            load("hoyito_2x6")


def test_an_unknown_name_lists_the_agents():
    with pytest.raises(
        ValueError, match="hive_base, hive_base_searched, hive_board, hive_mlp, hoyito_2x6, hoyito_2x12"
    ):
        load_pretrained("hive_expert")
    with pytest.raises(ValueError, match="unknown pretrained agent 'nope'"):
        make_player("pretrained:nope")


def test_the_headline_table_keeps_argmax_and_search_against_the_classical_players():
    full, headline = results_table(), results_table(headline=True)
    assert "| sampled |" in full and "| sampled |" not in headline
    assert "`pretrained:hive_base`" in full.splitlines()[0]  # a self-play column: in the full table only
    assert "pretrained:" not in headline.splitlines()[0]
    rows = [line for line in headline.splitlines() if line.startswith("| `")]
    for row in rows:  # argmax and the card's default search only (the others are in the full table)
        name, label = row.split(" | ")[0].strip("| `"), row.split(" | ")[1]
        assert label in ("argmax", "search " + model_card(name)["default_search"]), row
    assert "| `hive_base` | search @128 |" in full and "| `hive_base` | search @128 |" not in headline
    for row in rows:  # the same cells as the full table's row, without its self-play columns
        assert any(line.startswith(row[:-1]) for line in full.splitlines()), row


def agents_in(folder: Path, monkeypatch) -> None:
    """The pretrained agents' folder and the results folder of `export` and `measure` in ``folder``."""
    for module in (pretrained_module, pretrained_script, agent_results):
        monkeypatch.setattr(module, "pretrained_folder", lambda: folder)
    monkeypatch.setattr(agent_results, "RESULTS_FOLDER", folder / "results")


def test_measure_adds_rows_to_the_results_and_the_card(tmp_path, monkeypatch):
    for suffix in (".pt", ".json"):
        shutil.copy(pretrained_module.pretrained_folder() / f"hoyito_2x6{suffix}", tmp_path)
    agents_in(tmp_path, monkeypatch)
    rows = agent_results.measure("hoyito_2x6", ["random"], 2, "sampled")
    assert rows[0]["play"] == "sampled" and rows[0]["games"] == 2 and len(rows[0]["load_average_before"]) == 3
    results_file = tmp_path / "results" / "pretrained_hoyito_2x6.json"
    saved = json.loads(results_file.read_text())["results"]
    assert saved == rows
    recorded = read_records(results_file)  # the games, in the records file beside the results file
    assert recorded["game"] == "hoyito" and len(recorded["results"][-1]["games_played"]) == 2
    assert {k: v for k, v in recorded["results"][-1].items() if k != "games_played"} == rows[0]
    card_rows = json.loads((tmp_path / "hoyito_2x6.json").read_text())["results"]
    assert (
        card_rows[-1] == rows[0]
        and sum(r["play"] == "sampled" and r["opponent"] == "random" for r in card_rows) == 1
    )
    agent_results.measure("hoyito_2x6", ["greedy"], 2, "sampled")  # a second run keeps the first's games
    assert [len(row["games_played"]) for row in read_records(results_file)["results"]] == [2, 2]
    with pytest.raises(ValueError, match="--play must be one of"):
        agent_results.measure("hoyito_2x6", ["random"], 2, "best")


def test_a_search_by_time_is_a_default_search_and_a_row_of_its_own(tmp_path, monkeypatch):
    """``--move-time S`` makes the card's default search ``@T=S``; ``measure`` plays it when given no
    budget, and its rows stand beside (not over) the rows of a search by simulations."""
    for suffix in (".pt", ".json"):
        shutil.copy(pretrained_module.pretrained_folder() / f"hoyito_2x6{suffix}", tmp_path)
    agents_in(tmp_path, monkeypatch)
    pretrained_script.export(str(tmp_path / "hoyito_2x6.pt"), "hoyito_2x6", 0, move_time_s=0.02)
    card = model_card("hoyito_2x6")
    assert (
        card["default_search"] == "@T=0.02" and card["usage"]["with search"] == "pretrained:hoyito_2x6@T=0.02"
    )
    assert agent_results.default_search(card) == (0, 0.02)
    assert "The card's default search: `pretrained:hoyito_2x6@T=0.02`" in card_markdown(card)
    (timed,) = agent_results.measure("hoyito_2x6", ["random"], 2, "search")
    assert (timed["player"], timed["simulations"], timed["move_time_s"]) == (
        "pretrained:hoyito_2x6@T=0.02",
        0,
        0.02,
    )
    (counted,) = agent_results.measure("hoyito_2x6", ["random"], 2, "search", simulations=2)
    assert "move_time_s" not in counted
    rows = model_card("hoyito_2x6")["results"]
    assert rows[-2:] == [timed, counted]
    longest = timed["move_seconds"]["player"]["max"]
    assert f"longest {longest:.3f} s (the limit: 0.02 s)" in card_markdown(model_card("hoyito_2x6"))
    labels = [play_label(row) for row in rows[-2:]]
    assert labels == ["search @T=0.02", "search @2"]
    assert sorted(["search @T=0.02", "search @2", "argmax"], key=play_order) == [
        "argmax",
        "search @2",
        "search @T=0.02",
    ]
    with pytest.raises(ValueError, match="not both"):
        agent_results.measure("hoyito_2x6", ["random"], 2, "search", simulations=2, move_time_s=1.0)
    before = (tmp_path / "hoyito_2x6.json").read_text()
    for seconds in (0.0, float("nan")):
        with pytest.raises(ValueError, match="seconds per move"):
            agent_results.measure("hoyito_2x6", ["random"], 2, "search", move_time_s=seconds)
        with pytest.raises(ValueError, match="seconds per move"):
            pretrained_script.export(str(tmp_path / "hoyito_2x6.pt"), "hoyito_2x6", 0, move_time_s=seconds)
    assert (tmp_path / "hoyito_2x6.json").read_text() == before


@pytest.mark.slow  # run alone with -m slow: minutes of the default suite
def test_ladder_rows_of_a_search_by_time(tmp_path):
    """A ladder's ``pretrained:NAME@T=S`` pairs are the agent's timed rows; against its own ``@N`` the
    search by time is the side the row is written from."""
    from hive_envs.evaluation.ladder import ladder

    options = model_card("hoyito_2x6")["game_options"]
    out = tmp_path / "ladder.json"
    players = ["pretrained:hoyito_2x6@2", "pretrained:hoyito_2x6@T=0.02"]
    ladder(players, game="hoyito", game_options=options, games=2, progress=False, out=str(out))
    results, rows = agent_results.rows_from_ladder("hoyito_2x6", str(out))
    timed = [row for row in rows if row.get("move_time_s") == 0.02]
    assert timed and all(row["play"] == "search" and row["simulations"] == 0 for row in timed)
    assert {play_label(row) for row in rows} == {"search @2", "search @T=0.02"}
    assert ("pretrained:hoyito_2x6@T=0.02", "pretrained:hoyito_2x6@2") in {
        (r.player, r.opponent) for r in results
    }


@pytest.mark.slow  # run alone with -m slow: minutes of the default suite
def test_ladder_rows_are_the_agents_matches_from_its_side(tmp_path):
    """`measure --from-ladder` takes the agent's pairs of a ladder report turned to the agent's side
    (the ladder lists the fixed players first, so the agent is the pair's second player there). The
    arena, book and seats are `measure`'s: between two deterministic players (the agent's two
    settings) the ladder's games are the ones a direct match plays."""
    from hive_envs.evaluation.arena import play_matches
    from hive_envs.evaluation.ladder import ladder

    options = model_card("hoyito_2x6")["game_options"]
    out = tmp_path / "ladder.json"
    players = ["pretrained:hoyito_2x6", "pretrained:hoyito_2x6@2"]
    ladder(players, game="hoyito", game_options=options, games=4, progress=False, out=str(out))
    results, rows = agent_results.rows_from_ladder("hoyito_2x6", str(out))
    assert len(rows) == 11  # 5 fixed players x 2 settings + the pair of the two settings
    by_pair = {(r.player, r.opponent): r for r in results}
    assert ("pretrained:hoyito_2x6@2", "pretrained:hoyito_2x6") in by_pair  # the searched one's side
    settings = Settings(game="hoyito", game_options=options, opening_plies=4, seed=0)
    ((direct, _),) = play_matches([(players[1], players[0])], 4, settings)
    from_ladder = by_pair[players[1], players[0]]
    for key in ("wins_by_seat", "draws_by_seat", "losses_by_seat", "forfeits", "mean_length"):
        assert getattr(from_ladder, key) == getattr(direct, key)
    report = json.loads(out.read_text())
    for pair in report["pairs"]:
        if pair["opponent"] == players[0] and pair["player"] != players[1]:  # a fixed player vs the agent
            mine = by_pair[players[0], pair["player"]]
            assert (mine.wins, mine.draws, mine.losses) == (pair["losses"], pair["draws"], pair["wins"])
            assert mine.wins_by_seat == pair["losses_by_seat"][::-1]
    plays = {(row["opponent"], row["play"], row["simulations"]) for row in rows}
    assert ("greedy", "argmax", 0) in plays and ("greedy", "search", 2) in plays
    with pytest.raises(ValueError, match="is a hoyito ladder"):
        agent_results.rows_from_ladder("hive_base", str(out))


@pytest.mark.slow  # run alone with -m slow: minutes of the default suite
def test_ladder_rows_of_kept_pairs_say_the_run_that_played_them(tmp_path):
    """A pair an extended ladder kept was played by the earlier run: its row has that run's command,
    commit, date, load and wall time, not the extending run's."""
    from hive_envs.evaluation.ladder import ladder

    options = model_card("hoyito_2x6")["game_options"]
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    common = {"game": "hoyito", "game_options": options, "games": 2, "progress": False}
    ladder(["pretrained:hoyito_2x6"], **common, out=str(first), command="the first run")
    players = ["pretrained:hoyito_2x6", "pretrained:hoyito_2x6@2"]
    ladder(players, **common, out=str(second), command="the second run", extend=str(first))
    _, rows = agent_results.rows_from_ladder("hoyito_2x6", str(second))
    runs = {run["command"]: run for run in (json.loads(path.read_text()) for path in (first, second))}
    for row in rows:
        run = runs["the first run" if row["play"] == "argmax" else "the second run"]
        assert row["command"] == run["command"] and row["wall_s_all_matches"] == round(run["wall_s"], 1)
        assert (row["date_utc"], row["load_average_before"]) == (
            utc_text(run["date"]),
            run["load_average"]["before"],
        )
    report = json.loads(second.read_text())
    del next(pair for pair in report["pairs"] if "from" in pair and players[0] in pair.values())["from"][
        "command"
    ]
    second.write_text(json.dumps(report))
    with pytest.raises(ValueError, match=r"without the run that played it \(command\)"):
        agent_results.rows_from_ladder("hoyito_2x6", str(second))


def test_ladder_rows_of_another_file_under_the_agents_name_are_refused(tmp_path):
    """A ladder that played an earlier ``hoyito_2x6`` (or does not say which file it played) does not
    describe the shipped one."""
    pair = {"player": "random", "opponent": "pretrained:hoyito_2x6@2"}
    report = tmp_path / "ladder.json"
    for checkpoints, said in (
        ({"pretrained:hoyito_2x6@2": {"sha256": "0" * 64}}, "another file"),
        ({}, "a file it does not record"),
    ):
        report.write_text(json.dumps({"game": "hoyito", "pairs": [pair], "checkpoints": checkpoints}))
        with pytest.raises(ValueError, match=f"played pretrained:hoyito_2x6@2 with {said}"):
            agent_results.rows_from_ladder("hoyito_2x6", str(report))


def test_the_uhp_engine_runs_an_agent_on_one_thread():
    """An engine answers one position at a time: more torch threads only spin (7x the CPU a move)."""
    import torch

    torch.set_num_threads(2)
    player = load_player("pretrained:hive_base")
    assert not isinstance(player, UnloadedPlayer)
    assert torch.get_num_threads() == 1


def test_measure_needs_opponents_or_a_ladder_report(capsys):
    assert pretrained_script.main(["measure", "hoyito_2x6"]) != 0
    assert "give --opponents (or --from-ladder REPORT)" in capsys.readouterr().err


def feature_set_1_copy(source: Path, path: Path) -> Path:
    """``source`` (a hoyito_lookahead checkpoint) with its network rebuilt on feature set 1 (two-ply
    features, no search: no rule value), its training record kept."""
    data = load_checkpoint(source)
    spec = {
        key: value for key, value in data["network"].items() if key not in ("search_depth", "board_values")
    }
    spec["features"] = 1
    network = build_network(spec, tuple(data["observation_shape"]), data["num_actions"])
    return save_checkpoint(path, {**data, "network": spec, "model": network.state_dict()})


def test_export_writes_the_cards_search_and_a_new_search_drops_the_searched_results(tmp_path, monkeypatch):
    source = shutil.copy(pretrained_path("hoyito_2x6"), tmp_path / "source.pt")  # set 2: has a rule value
    set_1 = feature_set_1_copy(pretrained_path("hoyito_2x6"), tmp_path / "set_1.pt")  # no rule value
    agents_in(tmp_path, monkeypatch)
    pretrained_script.export(source, "hoyito_2x6", 8, prior_temperature=2.0, rule_value_share=0.5)
    card = model_card("hoyito_2x6")
    assert card["search"] == {"prior_temperature": 2.0, "rule_value_share": 0.5}
    player = make_player("pretrained:hoyito_2x6@8")  # every @N of it searches so
    assert player.config.prior_temperature == 2.0 and player.evaluator.rule_value_share == 0.5
    assert "prior temperature 2, 50% of the leaf value" in card_markdown(card)
    rows = [
        {"play": "argmax", "simulations": 0, "opponent": "random"},
        {"play": "search", "simulations": 8, "opponent": "random"},
    ]
    agent_results.record_rows("hoyito_2x6", rows)
    pretrained_script.export(source, "hoyito_2x6", 8, prior_temperature=2.0, rule_value_share=0.5)
    assert model_card("hoyito_2x6")["results"] == rows  # the same agent and search: all kept
    pretrained_script.export(source, "hoyito_2x6", 8, prior_temperature=1.0, rule_value_share=0.5)
    assert model_card("hoyito_2x6")["results"] == rows[:1]  # another search: its rows are gone
    results_file = json.loads((tmp_path / "results" / "pretrained_hoyito_2x6.json").read_text())
    assert results_file["results"] == rows[:1]
    before = (tmp_path / "hoyito_2x6.json").read_text()
    with pytest.raises(ValueError, match="rule_value_share"):
        pretrained_script.export(source, "hoyito_2x6", 8, rule_value_share=2.0)
    assert (tmp_path / "hoyito_2x6.json").read_text() == before
    with pytest.raises(ValueError, match="feature set 2"):
        pretrained_script.export(set_1, "hoyito_2x6", 8, rule_value_share=1.0)
    assert (tmp_path / "hoyito_2x6.json").read_text() == before


def test_export_takes_the_checkpoints_own_search_unless_told_and_keeps_it_in_the_card(tmp_path, monkeypatch):
    source = tmp_path / "source.pt"
    searched = {"prior_temperature": 2.0, "rule_value_share": 0.5}  # as a run's config's search_* keys
    save_checkpoint(source, {**load_checkpoint(pretrained_path("hoyito_2x6")), "search": searched})
    agents_in(tmp_path, monkeypatch)
    weights, _ = pretrained_script.export(str(source), "hoyito_2x6", 8)
    assert model_card("hoyito_2x6")["search"] == searched
    assert "search" not in load_checkpoint(weights)  # the card is the one place of a shipped agent's search
    digest = model_card("hoyito_2x6")["file_sha256"]
    pretrained_script.export(str(source), "hoyito_2x6", 8, prior_temperature=3.0)
    assert model_card("hoyito_2x6")["search"] == {**searched, "prior_temperature": 3.0}
    assert model_card("hoyito_2x6")["file_sha256"] == digest  # the same file whatever its search


def test_an_agent_whose_features_search_is_refused_a_search_by_time():
    """`hive_base_searched`'s features run a 3-ply alpha-beta on every position: a time limit cannot
    bound one network call, so `@T=S` and a ``time_s`` limit are refused with a clear error, while its
    raw policy and `@N` play (and `hive_base`, whose features do not search, keeps its timed search)."""
    with pytest.raises(ValueError, match="cannot search by time: its features run an alpha-beta search"):
        make_player("pretrained:hive_base_searched@T=1")
    searched = make_player("pretrained:hive_base_searched@4")
    with pytest.raises(ValueError, match="search it by simulations"):
        searched.config_for(SearchLimits(time_s=1.0))
    assert searched.config_for(None).simulations == 4
    assert make_player("pretrained:hive_base").config_for(SearchLimits(time_s=1.0)).simulations == 0
    assert make_player("pretrained:hive_base@4").config_for(SearchLimits(time_s=1.0)).time_s is not None
