"""The page runs no command and opens no file a request names (`hive_envs.web.trust`): built-in players
and shipped agents by default, engines and checkpoints only as the command line offers them, by name."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("flask")

from hive_envs.pretrained import pretrained_path
from hive_envs.web.caps import Caps
from hive_envs.web.server import create_app, main
from hive_envs.web.tables import Tables
from hive_envs.web.trust import Offer

ROOT = Path(__file__).resolve().parents[2]
FAKE = f"{sys.executable} {ROOT / 'tests' / 'evaluation' / 'fake_uhp_engine.py'}"


@pytest.fixture
def serve():
    """serve(offer, caps) -> (tables, test client); every game's players are closed afterwards."""
    made = []

    def make(offer: Offer | None = None, caps: Caps | None = None):
        made.append(Tables(move_timeout_s=5.0, caps=caps, offer=offer))
        return made[-1], create_app(made[-1]).test_client()

    yield make
    for tables in made:
        tables.close()


def new_game(client, *players, game="hive", **options):
    return client.post("/api/games", json={"game": game, "options": options, "players": list(players)})


def refused(response, *words):
    assert response.status_code == 400, (response.status_code, response.json)
    for word in words:
        assert word in response.json["error"], response.json["error"]
    return response.json["error"]


def test_a_uhp_command_from_a_request_is_refused_and_never_run(tmp_path, serve):
    ran = tmp_path / "ran"
    command = f"{sys.executable} -c \"open('{ran}', 'w')\""
    tables, client = serve(Offer({"ours": FAKE + " garbage"}))  # even with an engine offered
    refused(new_game(client, "human", f"uhp:{command}"), "not a player the page offers", "--engine")
    assert not ran.exists() and not tables._tables


def test_a_checkpoint_path_is_refused_without_opening_it_or_telling_whether_it_exists(
    monkeypatch, tmp_path, serve
):
    paths = [str(pretrained_path("hive_base")), str(tmp_path / "missing.pt")]
    _, client = serve()
    looked = []
    for name in ("os.stat", "os.path.isfile", "os.path.exists", "builtins.open"):
        real = eval(name.replace("builtins.", ""), {"os": __import__("os")})
        monkeypatch.setattr(
            name, lambda path, *a, real=real, **k: looked.append(str(path)) or real(path, *a, **k)
        )
    messages = [
        refused(new_game(client, "human", f"{path}@8"), "agent:FILE").replace(path, "PATH") for path in paths
    ]
    assert messages[0] == messages[1]
    assert not [path for path in looked if any(p in path for p in paths)], looked


@pytest.mark.parametrize(
    "spec", ["uhp:nokamute uhp", "runs/a/latest.pt", "agent:../x.pt", "agent:/etc/passwd", "engine:sh -c id"]
)
def test_every_spec_outside_the_offer_is_refused(spec, tmp_path, serve):
    agents = tmp_path / "agents"
    agents.mkdir()
    shutil.copy(pretrained_path("hoyito_2x6"), agents / "mine.pt")
    _, client = serve(Offer({"fake": FAKE + " garbage"}, agents))
    refused(new_game(client, "human", spec), "never taken from a request")


def test_an_engine_offered_on_the_command_line_plays_by_its_name_only(serve):
    _, client = serve(Offer({"fake": FAKE + " garbage"}))
    meta = client.get("/api/meta").json
    assert meta["engines"] == ["engine:fake"] and meta["agents"] == []
    assert "engine:NAME (fake)" in meta["specs"]
    state = new_game(client, "human", "engine:fake").json
    assert state["players"] == ["human", "engine:fake"]
    client.post(f"/api/games/{state['id']}/play", json={"move": "wS1"})
    answer = client.post(f"/api/games/{state['id']}/computer", json={})
    assert answer.status_code == 422 and "engine:fake" in answer.json["error"]  # the fake answers nonsense
    refused(new_game(client, "human", "engine:other"), "no engine 'other'", "engine:fake")


def test_a_checkpoint_under_the_agents_folder_plays_by_its_name(tmp_path, serve):
    agents = tmp_path / "agents"
    (agents / "run1").mkdir(parents=True)
    shutil.copy(pretrained_path("hoyito_2x6"), agents / "run1" / "latest.pt")
    (agents / "notes.txt").write_text("not a checkpoint")
    _, client = serve(Offer(agents=agents))
    assert client.get("/api/meta").json["agents"] == ["agent:run1/latest.pt"]
    state = new_game(client, "agent:run1/latest.pt@4", "human", game="hoyito").json
    reply = client.post(f"/api/games/{state['id']}/computer", json={"think": True}).json
    assert reply["ply"] == 1 and reply["thoughts"]["player"] == "agent:run1/latest.pt@4"
    refused(new_game(client, "human", "agent:latest.pt", game="hoyito"), "no agent 'latest.pt'")
    refused(new_game(client, "human", f"{agents / 'run1' / 'latest.pt'}", game="hoyito"), "not a player")


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("alphabeta:T=3600", ["at most 30 s"]),
        ("alphabeta:2,T=31", ["at most 30 s"]),
        ("pretrained:hive_base@T=3600", ["at most 30 s"]),
        ("pretrained:hive_base@100000", ["at most 2,000 simulations"]),
    ],
)
def test_a_search_longer_than_the_pages_ceiling_is_refused(spec, words, serve):
    tables, client = serve()
    refused(new_game(client, "human", spec), *words)
    assert not tables._tables


def test_an_alpha_beta_by_depth_stops_at_the_pages_time_ceiling(serve):
    tables, client = serve(caps=Caps(move_time_s=0.5))
    state = new_game(client, "alphabeta:12", "human").json  # hours without a time limit
    player = tables._tables[state["id"]].players[0]
    assert (player.depth, player.time_s) == (12, 0.5)
    reply = client.post(f"/api/games/{state['id']}/computer", json={})
    assert reply.status_code == 200 and reply.json["ply"] == 1


@pytest.mark.parametrize("spec", ["pretrained:hive_eval", "alphabeta:12,eval=pretrained:hive_eval"])
def test_a_shipped_learned_evaluation_plays_by_its_name_within_the_time_ceiling(spec, serve):
    """It names the package's own file, never a path: taken, as an alpha-beta by depth is, with the
    page's time ceiling; a learned evaluation's path (eval=learned:PATH) stays refused."""
    tables, client = serve(caps=Caps(move_time_s=0.5))
    state = new_game(client, spec, "human").json
    player = tables._tables[state["id"]].players[0]
    assert player.evaluation == str(pretrained_path("hive_eval")) and player.time_s == 0.5
    reply = client.post(f"/api/games/{state['id']}/computer", json={})
    assert reply.status_code == 200 and reply.json["ply"] == 1
    assert "pretrained:hive_eval" in client.get("/api/meta").json["pretrained"]
    refused(new_game(client, "pretrained:hive_eval@T=1", "human"), "at most 0.5 s")
    refused(new_game(client, "pretrained:hive_eval@8", "human"), "alphabeta:N,eval=pretrained:hive_eval")
    path = pretrained_path("hive_eval")
    refused(new_game(client, f"alphabeta:2,eval=learned:{path}", "human"), "eval=learned:PATH", "not taken")


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--engine", "nokamute"], ["NAME=COMMAND"]),
        (["--engine", "=nokamute uhp"], ["NAME=COMMAND"]),
        (["--engine", "a b=x"], ["NAME=COMMAND"]),
        (["--engine", "n="], ["NAME=COMMAND"]),
        (["--engine", "n=x", "--engine", "n=y"], ["given twice"]),
        (["--agents", "no/such/folder"], ["not a folder"]),
    ],
)
def test_the_command_refuses_a_malformed_offer_before_serving(capsys, argv, words):
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--no-browser"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    for word in words:
        assert word in err


def test_the_command_line_offer_reads_engines_and_an_agents_folder(tmp_path):
    offer = Offer.from_command_line(
        ["nokamute=nokamute uhp", "ours = python -m hive_envs.uhp"], str(tmp_path)
    )
    assert offer.engines == {"nokamute": "nokamute uhp", "ours": "python -m hive_envs.uhp"}
    assert offer.agents == tmp_path.resolve()


def test_hive_web_help_says_how_to_offer_engines_and_agents(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--engine NAME=COMMAND" in text and "engine:NAME" in text
    assert "--agents DIR" in text and "agent:FILE" in text
