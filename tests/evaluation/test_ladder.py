"""The Elo ladder (`evaluation.ladder`, ``evaluate.py --ladder``) on tiny matches: what the CI can run."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pytest

from hive_envs.evaluation import evaluate, ladder
from hive_envs.evaluation.results_files import read_records, records_path
from hive_envs.hoyito.definition import HOYITO
from tests.play.helpers import tiny_hive_checkpoint, tiny_hoyito_checkpoint
from tools.ladder_tables import markdown as ladder_markdown

PNG = b"\x89PNG\r\n\x1a\n"
ROOT = Path(__file__).resolve().parents[2]


def test_the_hoyito_ladder_command_writes_json_and_png(tmp_path, capsys):
    out, plot = tmp_path / "l.json", tmp_path / "img" / "l.png"
    argv = ["--ladder", "hoyito", "--games", "2", "--seed", "3", "--out", str(out), "--plot", str(plot)]
    assert evaluate.main(argv) == 0
    printed = capsys.readouterr()
    assert "Hoyito II 2x6, Elo (maximum likelihood, random = 0" in printed.out
    assert "game" in printed.err  # the progress bar (tqdm) on stderr
    report = json.loads(out.read_text())
    assert report["players"] == list(HOYITO.ladder)
    assert len(report["pairs"]) == 10
    for pair in report["pairs"]:
        assert (
            pair["games"] == 2 and pair["wins"] + pair["draws"] + pair["losses"] + sum(pair["forfeits"]) == 2
        )
        assert pair["score_ci95"][0] <= pair["score"] <= pair["score_ci95"][1]
        assert sum(pair["pair_points"]) == 1 and pair["pair_score_ci95"] is None  # one opening, both seats
    elo = {row["player"]: row for row in report["elo"]}
    assert elo["random"]["elo"] == 0.0 and set(elo) == set(report["players"])
    for row in report["elo"]:
        assert row["ci95"][0] <= row["elo"] <= row["ci95"][1]
    for key in ("command", "commit", "date", "machine", "load_average", "wall_s", "label"):
        assert key in report
    assert report["command"].startswith("python training/evaluate.py")
    assert plot.read_bytes()[:8] == PNG
    assert not any("games_played" in pair for pair in report["pairs"])  # the summary: tallies only
    assert report["records"]["file"] == "records/l.json.gz" and report["records"]["games"] == 20
    assert [len(pair["games_played"]) for pair in read_records(out)["pairs"]] == [2] * 10


def test_the_function_api_with_extra_players_and_a_checkpoint(tmp_path):
    path = str(tiny_hoyito_checkpoint(tmp_path / "h.pt"))
    report = ladder.ladder([path, "alphabeta:1", "greedy"], game="hoyito", games=2, progress=False)
    assert report["players"] == [*HOYITO.ladder, path, "alphabeta:1"]
    assert len(report["pairs"]) == 21
    assert {row["player"] for row in report["elo"]} == set(report["players"])


def test_a_hive_ladder_with_a_short_turn_cap():
    report = ladder.ladder(game="hive", games=2, max_turns=12, progress=False)
    assert report["label"] == "Hive Base" and report["max_turns"] == 12
    assert sum(p["turn_cap_draws"] for p in report["pairs"]) > 0  # 12 plies: most games hit the cap


def test_results_do_not_depend_on_the_number_of_workers():
    def table(workers):
        report = ladder.ladder(game="hoyito", games=4, workers=workers, progress=False)
        return [(p["player"], p["opponent"], p["wins"], p["draws"], p["losses"]) for p in report["pairs"]]

    assert table(1) == table(2)


@pytest.fixture
def no_games(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("games were played before the arguments were checked")

    monkeypatch.setattr(ladder, "play_matches", refuse)


def test_bad_arguments_are_refused_before_any_game(tmp_path, no_games):
    with pytest.raises(
        ValueError, match="cannot play this ladder: the agent plays Base; this game is hoyito"
    ):
        ladder.ladder([str(tiny_hive_checkpoint(tmp_path / "h.pt"))], game="hoyito", games=2)
    with pytest.raises(ValueError, match="alphabeta:0"):
        ladder.ladder(["alphabeta:0"], game="hoyito", games=2)
    with pytest.raises(ValueError, match="no such player kind"):
        ladder.ladder(["missing.pt"], game="hoyito", games=2)
    blocker = tmp_path / "f"
    blocker.write_text("")
    with pytest.raises(ValueError, match="--plot"):
        ladder.ladder(game="hoyito", games=2, plot=str(blocker / "x.png"))
    with pytest.raises(ValueError, match="no ladder for game 'chess'"):
        ladder.ladder(game="chess", games=2)
    with pytest.raises(ValueError, match="even"):
        ladder.ladder(game="hoyito", games=3)


def test_markdown_of_a_tiny_ladder(tmp_path):
    report = ladder.ladder(game="hoyito", games=2, progress=False)
    text = ladder_markdown(report, "x.png")
    assert "**Hoyito II 2x6**" in text and "![Hoyito II 2x6 Elo ladder](x.png)" in text
    assert text.count("\n| `") == len(report["elo"]) + len(report["pairs"])
    for pair in report["pairs"]:  # every game's record, for replay (hive-web)
        games = pair["games_played"]
        assert len(games) == pair["games"] and sorted(g["seat_of_a"] for g in games) == [0, 1]
        assert all(isinstance(g["record"], str) and g["record"] for g in games)


@pytest.fixture
def played(monkeypatch):
    """The pairs the ladder plays (it still plays them)."""
    pairs_played = []
    real = ladder.play_matches

    def counting(pairs, *args, **kwargs):
        pairs_played.extend((str(a), str(b)) for a, b in pairs)  # the specs' texts
        return real(pairs, *args, **kwargs)

    monkeypatch.setattr(ladder, "play_matches", counting)
    return pairs_played


def test_extend_keeps_the_earlier_pairs_and_plays_only_the_new_ones(tmp_path, played):
    first = tmp_path / "first.json"
    ladder.ladder(game="hoyito", games=2, seed=4, progress=False, out=str(first))
    played.clear()
    report = ladder.ladder(["alphabeta:1"], game="hoyito", games=2, seed=4, progress=False, extend=str(first))
    assert sorted(played) == sorted((name, "alphabeta:1") for name in HOYITO.ladder)
    first_report = read_records(first)  # the earlier report with its games
    earlier = {(p["player"], p["opponent"]): p for p in first_report["pairs"]}
    kept = [p for p in report["pairs"] if "from" in p]
    assert len(kept) == 10 and len(report["pairs"]) == 15
    run_then = {"report": str(first), **{key: first_report[key] for key in ladder.PLAYED_UNDER}}
    for row in kept:  # its tally and its games, carried over from the earlier records file
        assert {k: v for k, v in row.items() if k != "from"} == earlier[row["player"], row["opponent"]]
        assert len(row["games_played"]) == 2
        assert row["from"] == run_then  # the run that played it, not this one
    assert report["reused"][0]["report"] == str(first)
    assert "10 pairs are kept from" in ladder_markdown(report)
    assert {row["player"] for row in report["elo"]} == set(report["players"])


def test_extend_without_the_earlier_records_file_keeps_its_pairs_as_tallies_and_says_why(
    tmp_path, played, capsys
):
    first = tmp_path / "first.json"
    ladder.ladder(game="hoyito", games=2, seed=4, progress=False, out=str(first))
    records_path(first).unlink()  # the records stay on the machine that played them
    played.clear()
    report = ladder.ladder(["alphabeta:1"], game="hoyito", games=2, seed=4, progress=False, extend=str(first))
    assert sorted(played) == sorted((name, "alphabeta:1") for name in HOYITO.ladder)
    kept = [p for p in report["pairs"] if "from" in p]
    assert len(kept) == 10 and not any("games_played" in p for p in kept)
    assert all(len(p["games_played"]) == 2 for p in report["pairs"] if "from" not in p)
    assert f"the pairs kept from {first} are kept without their games" in capsys.readouterr().err


def test_a_second_extension_keeps_where_each_pair_was_played(tmp_path):
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    ladder.ladder(game="hoyito", games=2, seed=4, progress=False, out=str(first))
    ladder.ladder(
        ["alphabeta:1"], game="hoyito", games=2, seed=4, progress=False, extend=str(first), out=str(second)
    )
    report = ladder.ladder(
        ["alphabeta:1", "alphabeta:3"], game="hoyito", games=2, seed=4, progress=False, extend=str(second)
    )
    sources = {
        frozenset((p["player"], p["opponent"])): p.get("from", {}).get("report") for p in report["pairs"]
    }
    classical = list(HOYITO.ladder)
    assert all(sources[frozenset(pair)] == str(first) for pair in combinations(classical, 2))
    assert all(sources[frozenset((name, "alphabeta:1"))] == str(second) for name in classical)
    assert all(sources[frozenset((name, "alphabeta:3"))] is None for name in [*classical, "alphabeta:1"])
    assert [source["report"] for source in report["reused"]] == [str(first), str(second)]
    text = ladder_markdown(report)
    assert "10 pairs are kept from" in text and "5 pairs are kept from" in text
    assert text.count("The time and load above are the new pairs'.") == 1  # said once, not per source
    third = {"report": "third.json", "commit": "0" * 40, "date": report["date"]}
    report["pairs"][0]["from"] = third
    report["reused"].append(third)
    assert "1 pair is kept from `third.json`" in ladder_markdown(report)


def test_extend_refuses_a_report_played_under_other_settings(tmp_path, no_games):
    first = tmp_path / "first.json"
    first.write_text(
        json.dumps({"game": "hoyito", "game_options": {}, "games_per_pair": 2, "opening_plies": 4, "seed": 1,
                    "max_turns": None, "pairs": []})
    )  # fmt: skip
    with pytest.raises(ValueError, match="seed 1 there, 0 here"):
        ladder.ladder(game="hoyito", games=2, seed=0, progress=False, extend=str(first))
    with pytest.raises(ValueError, match="cannot read a ladder report"):
        ladder.ladder(game="hoyito", games=2, progress=False, extend=str(tmp_path / "missing.json"))


def test_extend_plays_again_the_pairs_of_a_checkpoint_changed_since(tmp_path, played, capsys):
    agent, first = tmp_path / "agent.pt", tmp_path / "first.json"
    tiny_hoyito_checkpoint(agent)
    ladder.ladder([str(agent)], game="hoyito", games=2, seed=4, progress=False, out=str(first))
    played.clear()
    ladder.ladder([str(agent)], game="hoyito", games=2, seed=4, progress=False, extend=str(first))
    assert played == []  # the same file: every pair kept
    tiny_hoyito_checkpoint(agent)  # retrained under the same path
    report = ladder.ladder([str(agent)], game="hoyito", games=2, seed=4, progress=False, extend=str(first))
    assert sorted(played) == sorted((name, str(agent)) for name in HOYITO.ladder)
    assert f"the pairs of {agent} in {first} are played again" in capsys.readouterr().err
    assert (
        report["checkpoints"][str(agent)]["sha256"]
        != json.loads(first.read_text())["checkpoints"][str(agent)]["sha256"]
    )
    assert sum("from" in row for row in report["pairs"]) == 10  # the classical pairs are still kept


def test_replay_plays_again_the_pairs_of_the_players_named(tmp_path, played):
    first = tmp_path / "first.json"
    ladder.ladder(game="hoyito", games=2, seed=4, progress=False, out=str(first))
    played.clear()
    report = ladder.ladder(
        game="hoyito", games=2, seed=4, progress=False, extend=str(first), replay=["alphabeta:6"]
    )
    assert sorted(map(frozenset, played)) == sorted(
        frozenset((name, "alphabeta:6")) for name in HOYITO.ladder if name != "alphabeta:6"
    )
    assert sum("from" in row for row in report["pairs"]) == 6 and len(report["pairs"]) == 10


def test_replay_refuses_a_player_not_on_the_ladder_and_a_ladder_without_extend(tmp_path, no_games):
    first = tmp_path / "first.json"  # the names are checked before the report is read
    with pytest.raises(ValueError, match="alphabeta:5 not among the ladder's players"):
        ladder.ladder(
            game="hoyito", games=2, seed=4, progress=False, extend=str(first), replay=["alphabeta:5"]
        )
    with pytest.raises(ValueError, match="give it with --extend"):
        ladder.ladder(game="hoyito", games=2, seed=4, progress=False, replay=["alphabeta:6"])


def test_a_report_that_did_not_record_its_checkpoints_has_their_pairs_played_again(tmp_path, monkeypatch):
    agent, first = tmp_path / "agent.pt", tmp_path / "first.json"
    tiny_hoyito_checkpoint(agent)
    earlier = ladder.ladder([str(agent)], game="hoyito", games=2, seed=4, progress=False)
    del earlier["checkpoints"]  # as reports written before checkpoints were recorded
    first.write_text(json.dumps(earlier))
    report = ladder.ladder([str(agent)], game="hoyito", games=2, seed=4, progress=False, extend=str(first))
    replayed = [row for row in report["pairs"] if "from" not in row]
    assert len(replayed) == 5 and all(str(agent) in (row["player"], row["opponent"]) for row in replayed)


def test_a_shipped_agent_is_identified_by_its_file_and_when_searching_by_its_card_search():
    from hive_envs.pretrained import model_card

    identities = ladder.checkpoint_identities(["greedy", "pretrained:hive_base", "pretrained:hive_base@128"])
    card = model_card("hive_base")
    assert identities == {
        "pretrained:hive_base": {"sha256": card["file_sha256"]},
        "pretrained:hive_base@128": {"sha256": card["file_sha256"], "search": card["search"]},
    }


# -- an earlier report is data: every row checked, checkpoint rows only with a recorded sha256 ------


@pytest.fixture(scope="module")
def hoyito_report(tmp_path_factory):
    """A real 2-game Hoyito ladder report (its rows as the ladder writes them)."""
    path = tmp_path_factory.mktemp("ladder") / "first.json"
    ladder.ladder(game="hoyito", games=2, seed=4, progress=False, out=str(path))
    return json.loads(path.read_text())


def first_row_changed(row):
    return lambda report: report["pairs"][0].update(row)


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (first_row_changed({"points": float("nan")}), "points and mean_length must be finite"),
        (first_row_changed({"points": 7.5}), "points or score do not agree"),
        (first_row_changed({"wins": 3, "wins_by_seat": [3, 0]}), "do not add up to the games"),
        (first_row_changed({"losses": -1}), "must be integers >= 0"),
        (first_row_changed({"draws_by_seat": [1, 1, 0]}), "must be two integers >= 0 each"),
        (first_row_changed({"opponent": "runs/forged.pt"}), "a player the report does not list"),
        (first_row_changed({"opponent": "random", "player": "random"}), "two different names"),
        (first_row_changed({"games": 4}), "games must be 2"),
        (lambda report: report["pairs"].append(dict(report["pairs"][0])), "a second row of this pair"),
        (lambda report: report["pairs"].append("row"), "not a mapping"),
    ],
)
def test_extend_refuses_a_report_with_a_bad_row(tmp_path, no_games, hoyito_report, change, problem):
    import copy

    report = copy.deepcopy(hoyito_report)
    change(report)
    first = tmp_path / "first.json"
    first.write_text(json.dumps(report))
    with pytest.raises(ValueError, match=rf"--extend: '{first}' holds a bad row \(pairs\[\d+\]: .*{problem}"):
        ladder.ladder(game="hoyito", games=2, seed=4, progress=False, extend=str(first))


@pytest.mark.parametrize("listed", [False, True])
def test_a_forged_checkpoint_row_without_a_recorded_sha256_is_never_kept(
    tmp_path, played, hoyito_report, listed
):
    import copy

    agent, first = tmp_path / "agent.pt", tmp_path / "first.json"
    tiny_hoyito_checkpoint(agent)
    report = copy.deepcopy(hoyito_report)
    forged = {**report["pairs"][0], "player": str(agent), "opponent": "random"}
    forged.update(wins=2, draws=0, losses=0, wins_by_seat=[1, 1], draws_by_seat=[0, 0], losses_by_seat=[0, 0])
    forged.update(forfeits=[0, 0], decided=2, points=2.0, score=1.0, turn_cap_draws=0)
    report["pairs"].append(forged)
    if not listed:  # a row of a player the report never played: refused
        first.write_text(json.dumps(report))
        with pytest.raises(ValueError, match=f"a player the report does not list.*'player': '{agent}'"):
            ladder.ladder([str(agent)], game="hoyito", games=2, seed=4, progress=False, extend=str(first))
        return
    report["players"].append(str(agent))  # listed, but with no sha256 recorded for it: played again
    first.write_text(json.dumps(report))
    result = ladder.ladder([str(agent)], game="hoyito", games=2, seed=4, progress=False, extend=str(first))
    assert sorted(played) == sorted((str(name), str(agent)) for name in ladder.ladder_players("hoyito", []))
    assert not any("from" in row for row in result["pairs"] if str(agent) in (row["player"], row["opponent"]))
