"""The web page's server through Flask's test client (no browser): play, replay, thoughts, bad input."""

from __future__ import annotations

import gzip
import json
import sys
import time
from pathlib import Path
from typing import ClassVar

import pytest

pytest.importorskip("flask")

from hive_envs.evaluation.results_files import records_path
from hive_envs.games import GAMES, new_game
from hive_envs.hive import HiveGame
from hive_envs.hive.engine.grid import DIRECTIONS
from hive_envs.web.caps import Caps
from hive_envs.web.guards import COOKIE
from hive_envs.web.server import create_app, main
from hive_envs.web.tables import Tables
from hive_envs.web.trust import Offer

ROOT = Path(__file__).resolve().parents[2]
FAKE = f"{sys.executable} {ROOT / 'tests' / 'evaluation' / 'fake_uhp_engine.py'}"
FAKE_ENGINES = Offer({mode: f"{FAKE} {mode}" for mode in ("die", "hang", "garbage", "start-exit")})
LADDER = ROOT / "docs" / "results" / "ladder_hive_base.json"


@pytest.fixture
def client():
    tables = Tables(move_timeout_s=1.0, caps=Caps(games=50), offer=FAKE_ENGINES)
    yield create_app(tables).test_client()
    tables.close()


def start(client, game="hive", players=("human", "alphabeta:1"), **options):
    response = client.post("/api/games", json={"game": game, "options": options, "players": list(players)})
    assert response.status_code == 201, response.json
    return response.json


def refused(response, status: int, *words: str) -> str:
    """The error message of a refused request, checked to be JSON with ``status`` and ``words``."""
    assert response.status_code == status, (response.status_code, response.json)
    message = response.json["error"]
    for word in words:
        assert word in message, message
    return message


# ---------------------------------------------------------------- play
def test_a_new_hive_game_lists_exactly_the_engines_legal_moves_with_where_they_go(client):
    state = start(client)
    assert sorted(m["name"] for m in state["moves"]) == sorted(HiveGame().legal_move_names())
    assert state["status"] == "White to move, ply 0" and not state["computer_to_move"]
    for _ in range(4):  # the human's moves (the first listed) and alpha-beta's replies
        client.post(f"/api/games/{state['id']}/play", json={"move": state["moves"][0]["name"]})
        state = client.post(f"/api/games/{state['id']}/computer", json={}).json
        game = HiveGame.from_gamestring(state["record"])
        assert sorted(m["name"] for m in state["moves"]) == sorted(game.legal_move_names())


def test_every_destination_is_drawn_next_to_a_stack_and_every_mover_from_its_own_cell(client):
    state = start(client, players=("random", "random"))
    for _ in range(30):
        state = client.post(f"/api/games/{state['id']}/computer", json={}).json
        if state["over"]:
            break
        top = {s["pieces"][-1]: [s["q"], s["r"]] for s in state["stacks"]}
        height = {(s["q"], s["r"]): len(s["pieces"]) for s in state["stacks"]}
        for move in state["moves"]:
            if "piece" not in move:
                continue
            assert move["from"] == top.get(move["piece"])  # None exactly for a placement
            origin = tuple(move["from"] or ())
            left = {cell for cell in height if cell != origin or height[cell] > 1}  # after lifting it
            to = tuple(move["to"])
            assert to in height or any((to[0] + dq, to[1] + dr) in left for dq, dr in DIRECTIONS), move


def test_a_human_move_the_computers_reply_and_undo_of_both(client):
    state = start(client)
    after = client.post(f"/api/games/{state['id']}/play", json={"move": "wS1"}).json
    assert after["ply"] == 1 and after["computer_to_move"] and after["last_move"] == "wS1"
    reply = client.post(f"/api/games/{state['id']}/computer", json={"think": True}).json
    assert reply["ply"] == 2 and not reply["computer_to_move"]
    assert (
        reply["thoughts"]["kind"] == "alphabeta"
    )  # its search's depth and nodes (tests/web/test_thoughts.py)
    assert reply["computer_move"] == reply["record"].split(";")[-1]
    undone = client.post(f"/api/games/{state['id']}/undo", json={}).json
    assert undone["ply"] == 0 and undone["record"] == state["record"]


def test_two_computers_play_a_hive_game_to_its_end_and_the_end_is_announced(client):
    state = start(client, players=("random", "greedy"), max_turns=40)
    while not state["over"]:
        state = client.post(f"/api/games/{state['id']}/computer", json={}).json
    final = HiveGame.from_gamestring(state["record"], max_turns=40)
    assert final.is_terminal and state["moves"] == []
    assert state["reason"] in state["status"]
    if final.outcome == "Draw":
        assert state["winner"] is None and "turn cap (40 plies)" in state["status"]
    else:
        assert state["winner"] + " wins" in state["status"] and "Queen surrounded" in state["reason"]


REPEATED = ["wS1", "bS1 -wS1", "wQ wS1/", "bQ -bS1"] + ["wQ wS1-", "bQ \\bS1", "wQ wS1/", "bQ -bS1"] * 2
ENDS = [
    (
        (
            "Base;BlackWins;White[7];wS1;bS1 /wS1;wQ wS1/;bG1 bS1\\;wS2 wQ/;bG2 bG1-;wB1 wQ-;bQ /bG1;"
            "wB2 /wB1;bA1 -bS1;wG1 -wQ;bA1 -wS2"
        ),
        {},
        "Black wins: White's Queen surrounded after 12 plies",
    ),
    ("Base;Draw;White[7];" + ";".join(REPEATED), {"repetition_draw": True}, "draw: third repetition"),
    ("Base;Draw;White[3];wS1;bS1 -wS1;wQ wS1/;bQ -bS1", {"max_turns": 4}, "turn cap (4 plies)"),
    (
        "HoyitoII;holes_per_row=6;seeds_per_hole=4;max_laps=1000;no_capture_limit=5;moves=0,6,3,10,6,4,9,4,10",
        {},
        "no capture for too long",
    ),
]


@pytest.mark.parametrize(("record", "options", "words"), ENDS)
def test_the_end_of_a_game_and_its_reason_are_announced(client, record, options, words):
    frames = client.post("/api/replay/frames", json={"record": record, "options": options}).json["frames"]
    last = frames[-1]
    assert last["over"] and words in last["status"] and last["moves"] == []
    assert not any(frame["over"] for frame in frames[:-1])


def test_hoyito_is_played_by_hole_numbers_on_both_board_sizes(client):
    for holes in (6, 12):
        state = start(client, "hoyito", ("human", "greedy"), holes_per_row=holes)
        assert [m["hole"] for m in state["moves"]] == list(range(holes))
        assert len(state["holes"]) == 2 * holes and state["sides"] == ["South", "North"]
        after = client.post(f"/api/games/{state['id']}/play", json={"move": "2"}).json
        assert after["last"] == 2 and after["ply"] == 1


def test_the_legal_moves_endpoint_names_the_same_moves_as_the_state(client):
    state = start(client, "hoyito")
    moves = client.get(f"/api/games/{state['id']}/moves").json["moves"]
    assert moves == [m["name"] for m in state["moves"]] == [str(h) for h in range(6)]


def test_the_oldest_game_is_dropped_when_the_client_holds_its_maximum():
    tables = Tables(caps=Caps(games_per_client=2))
    client = create_app(tables).test_client()
    first, *_ = [start(client, "hoyito", ("human", "human")) for _ in range(3)]
    refused(client.get(f"/api/games/{first['id']}"), 404, first["id"])
    tables.close()


# ---------------------------------------------------------------- what the agent thinks
def test_a_searching_network_player_shows_policy_visits_and_value(client):
    state = start(client, players=("human", "pretrained:hive_base@16"))
    client.post(f"/api/games/{state['id']}/play", json={"move": "wS1"})
    reply = client.post(f"/api/games/{state['id']}/computer", json={"think": True}).json
    thoughts = reply["thoughts"]
    assert thoughts["player"] == "pretrained:hive_base@16" and thoughts["simulations"] == 16
    assert -1.0 <= thoughts["value"] <= 1.0
    rows = thoughts["moves"]
    assert 0 < len(rows) <= 8 and sum(r["visits"] for r in rows) <= 16
    assert all(0.0 < r["probability"] <= 1.0 and r["piece"] and r["to"] for r in rows)
    assert [r["visits"] for r in rows] == sorted((r["visits"] for r in rows), reverse=True)
    assert rows[0]["visits"] > 0
    for row in rows:  # a searched move's mean value; none for a move the search never tried
        assert (row["value"] is None) == (row["visits"] == 0)
        assert row["value"] is None or -1.0 <= row["value"] <= 1.0


def test_the_raw_policy_shows_probabilities_that_cover_the_legal_moves(client):
    state = start(client, players=("pretrained:hive_base", "human"), expansions="")
    thoughts = client.post(f"/api/games/{state['id']}/computer", json={"think": True}).json["thoughts"]
    assert thoughts["simulations"] == 0
    assert all(r["visits"] == 0 and r["value"] is None for r in thoughts["moves"])
    assert len(thoughts["moves"]) == 4  # the four first placements of the tournament opening
    assert sum(r["probability"] for r in thoughts["moves"]) == pytest.approx(1.0)


# ---------------------------------------------------------------- the games' drawings
def test_meta_names_each_drawn_games_seats_and_drawing_script_which_is_served_by_name(client):
    meta = client.get("/api/meta").json
    assert meta["boards"] == {name: f"boards/{name}.js" for name in meta["games"]}
    for name, url in meta["boards"].items():
        entry = GAMES[name]
        assert meta["seats"][name] == list(entry.seat_names)
        script = client.get(f"/{url}")
        assert script.status_code == 200 and script.mimetype == "text/javascript"
        assert script.get_data(as_text=True) == entry.presentation.web_drawer()
        assert "registerBoard(" in script.get_data(as_text=True)
    assert "aec" not in meta["boards"] and "pretrained:hive_base" in meta["pretrained"]


@pytest.mark.parametrize("name", ["aec", "chess", "..%2Fstatic%2Fapp", "hive_envs.hive.web_board:drawer"])
def test_a_drawing_script_of_a_game_the_page_does_not_draw_is_not_found(client, name):
    refused(client.get(f"/boards/{name}.js"), 404)  # a name is looked up, never a path or module


def test_an_unknown_drawing_says_which_name_it_did_not_find(client):
    refused(client.get("/boards/chess.js"), 404, "no drawing for a game named 'chess'")


def test_the_page_loads_no_games_script_of_its_own():
    static = ROOT / "hive_envs" / "web" / "static"
    assert "board_" not in (static / "index.html").read_text()  # the drawings come by name from meta
    assert sorted(path.name for path in static.glob("board*.js")) == ["board.js"]


# ---------------------------------------------------------------- replay
def test_an_arena_report_lists_every_game_and_each_replays_to_its_record(client, tmp_path):
    from hive_envs.evaluation import arena

    out = tmp_path / "arena.json"
    arena.run(["random"], ["greedy"], 2, arena.Settings(game="hive", opening_plies=0), out=str(out))
    summary = client.post("/api/replay", json={"text": out.read_text()}).json
    assert summary["games"] == [] and summary["pairs"][0]["wins"] + summary["pairs"][0]["losses"] <= 2
    assert "its games are in records/arena.json.gz" in summary["source"]
    text = gzip.decompress(records_path(out).read_bytes()).decode()  # as the page unpacks it
    listed = client.post("/api/replay", json={"text": text}).json
    played = json.loads(text)["matches"][0]["games_played"]
    assert [g["length"] for g in listed["games"]] == [g["plies"] for g in played]
    for game, row in zip(listed["games"], played):
        assert game["players"] == (["random", "greedy"] if row["seat_of_a"] == 0 else ["greedy", "random"])
        assert game["result"] == (row["result_for_a"] if row["seat_of_a"] == 0 else -row["result_for_a"])
        frames = client.post(
            "/api/replay/frames", json={"record": game["record"], "options": game["options"]}
        )
        frames = frames.json["frames"]
        assert len(frames) == row["plies"] + 1 and frames[0]["ply"] == 0 and frames[0]["stacks"] == []
        assert frames[-1]["record"] == row["record"] and frames[-1]["over"]
        names = row["record"].split(";")[3:]
        assert [f["last_move"] for f in frames[1:]] == names


def test_the_committed_ladder_summary_lists_its_pairs_as_tallies_and_names_its_records_file(client):
    listed = client.post("/api/replay", json={"text": LADDER.read_text()}).json
    report = json.loads(LADDER.read_text())
    assert listed["source"].startswith("ladder report") and listed["game"] == "hive"
    assert "records/ladder_hive_base.json.gz" in listed["source"]
    assert [(p["player"], p["opponent"], p["wins"]) for p in listed["pairs"]] == [
        (p["player"], p["opponent"], p["wins"]) for p in report["pairs"]
    ]
    assert listed["games"] == [] and all(p["replayable"] == 0 for p in listed["pairs"])


def test_a_shipped_agents_results_file_lists_the_games_its_rows_carry(client):
    game = new_game("hoyito")
    game.play_id(int(game.legal_move_ids()[0]))
    row = {"player": "pretrained:hoyito_2x6", "opponent": "random", "games": 2, "wins": 1, "draws": 0,
           "losses": 0, "mean_length": 1.0, "play": "argmax"}  # fmt: skip
    played = {"seat_of_a": 1, "result_for_a": None, "plies": 1, "reason": "stopped", "record": game.record()}
    report = {
        "name": "hoyito_2x6",
        "game": "hoyito",
        "game_options": {},
        "results": [row, {**row, "games_played": [played]}],
    }
    listed = client.post("/api/replay", json={"text": json.dumps(report)}).json
    assert listed["source"] == "shipped agent's results" and [p["replayable"] for p in listed["pairs"]] == [
        0,
        1,
    ]
    assert listed["games"][0]["players"] == ["random", "pretrained:hoyito_2x6"]


def test_a_ladder_pair_without_its_games_is_listed_as_a_tally(client):
    report = json.loads(LADDER.read_text())
    for pair in report["pairs"]:
        pair.pop("games_played", None)
    listed = client.post("/api/replay", json={"text": json.dumps(report)}).json
    assert listed["games"] == [] and all(p["replayable"] == 0 for p in listed["pairs"])


def test_a_ladder_pair_that_carries_its_games_lists_them(client):
    report = json.loads(LADDER.read_text())
    game = new_game("hive")
    for move in ["wS1", "bS1 -wS1"]:
        game.play_id(game.move_id(move))
    report["pairs"][0]["games_played"] = [
        {"seat_of_a": 1, "result_for_a": None, "plies": 2, "reason": "stopped", "record": game.record()}
    ]
    listed = client.post("/api/replay", json={"text": json.dumps(report)}).json
    assert listed["games"][0]["players"] == ["greedy", "random"] and listed["pairs"][0]["replayable"] == 1
    assert listed["games"][0]["options"]["max_turns"] == 300


def test_a_gamestring_and_a_hoyito_record_replay_ply_by_ply(client):
    hive = client.post("/api/replay", json={"text": "Base;InProgress;White[2];wS1;bS1 wS1-"}).json
    assert hive["source"] == "record" and hive["games"][0]["length"] == 2
    game = new_game("hoyito", {"holes_per_row": 12})
    for _ in range(5):
        game.play_id(int(game.legal_move_ids()[0]))
    frames = client.post("/api/replay/frames", json={"record": game.record()}).json["frames"]
    assert [f["ply"] for f in frames] == list(range(6)) and frames[-1]["holes_per_row"] == 12


# ---------------------------------------------------------------- bad input: a 4xx, the game unchanged
def unchanged(client, state) -> None:
    now = client.get(f"/api/games/{state['id']}").json
    assert now["record"] == state["record"] and now["ply"] == state["ply"]


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ("wQ", ["not legal", "Queen"]),  # tournament opening: no Queen on the first move
        ("wS1 -bQ", ["bQ"]),  # names a piece that is not on the board
        ("wZ1", ["not a piece name"]),
        ("", ["non-empty"]),
        (17, ["non-empty"]),
        ("pass", ["pass"]),
    ],
)
def test_an_illegal_or_malformed_move_is_refused_and_changes_nothing(client, move, words):
    state = start(client, max_turns=50)
    refused(client.post(f"/api/games/{state['id']}/play", json={"move": move}), 400, *words)
    unchanged(client, state)


def test_a_move_for_the_computers_seat_and_a_computer_move_for_a_humans_are_refused(client):
    state = start(client, players=("alphabeta:1", "human"))
    refused(client.post(f"/api/games/{state['id']}/play", json={"move": "wS1"}), 409, "computer's turn")
    human = start(client, players=("human", "human"))
    refused(client.post(f"/api/games/{human['id']}/computer", json={}), 409, "human's turn")
    unchanged(client, state)
    unchanged(client, human)


def test_moves_after_the_end_and_undo_at_the_start_are_refused(client):
    state = start(client, players=("random", "random"), max_turns=2)
    for _ in range(2):
        state = client.post(f"/api/games/{state['id']}/computer", json={}).json
    assert state["over"]
    refused(client.post(f"/api/games/{state['id']}/computer", json={}), 400, "the game is over")
    fresh = start(client)
    refused(client.post(f"/api/games/{fresh['id']}/undo", json={}), 400, "nothing to undo")
    unchanged(client, state)


def test_an_unknown_game_id_is_a_404_naming_it(client):
    for path in ("/api/games/nope", "/api/games/nope/moves"):
        refused(client.get(path), 404, "'nope'")
    refused(client.post("/api/games/nope/play", json={"move": "wS1"}), 404, "'nope'")


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "hive", "players": ["human", "alphabeta:x"]}, ["alphabeta"]),
        ({"game": "hive", "players": ["human", "no/such/file.pt@8"]}, ["no/such/file.pt", "not a player"]),
        ({"game": "hive", "players": ["human", "pretrained:nobody"]}, ["nobody"]),
        ({"game": "hive", "players": ["human", "pretrained:hoyito_2x6"]}, ["hoyito", "hive"]),
        (
            {"game": "hive", "options": {"expansions": "MLP"}, "players": ["human", "pretrained:hive_base"]},
            ["MLP"],
        ),
        ({"game": "hive", "players": ["human"]}, ["two specs"]),
        ({"game": "hive", "players": ["human", ""]}, ["seat 1"]),
        ({"game": "chess", "players": ["human", "human"]}, ["chess", "hive", "hoyito"]),
        ({"game": "hive", "options": {"colour": "red"}, "players": ["human", "human"]}, ["colour"]),
        ({"game": "hive", "options": {"expansions": "X"}, "players": ["human", "human"]}, ["expansions"]),
        (
            {"game": "hoyito", "options": {"holes_per_row": 0}, "players": ["human", "human"]},
            ["holes_per_row"],
        ),
    ],
)
def test_a_bad_spec_option_or_game_is_refused_and_no_game_is_kept(client, body, words):
    tables = client.application.config["TABLES"]
    before = len(tables._tables)
    refused(client.post("/api/games", json=body), 400, *words)
    assert len(tables._tables) == before


def test_a_body_that_is_not_a_json_object_is_refused(client):
    refused(client.post("/api/games", data="players=human", content_type="text/plain"), 400, "JSON object")
    refused(client.post("/api/replay", json=[1, 2]), 400, "JSON object")


WRONG = [None, True, 0, -1, 1.5, 10**30, "x", "", [], [1], [[1]], {}, {"a": 1}]
DEEP = "[" * 100_000 + "]" * 100_000


def every_field_of_every_endpoint(game_id: str):
    """(path, body) with each field of each endpoint set to each wrong value, the others right."""
    new = {"game": "hive", "options": {}, "players": ["human", "human"]}
    for name, options in client_meta()["games"].items():
        for option in options:
            for value in WRONG:
                yield "/api/games", {"game": name, "options": {option: value}, "players": ["human", "human"]}
    frames = {"record": "Base;InProgress;White[2];wS1;bS1 wS1-", "options": {}}
    for value in WRONG:
        yield from (("/api/games", {**new, key: value}) for key in new)
        yield from (("/api/replay/frames", {**frames, key: value}) for key in frames)
        for option in ("tournament_opening", "max_turns", "repetition_draw"):
            yield "/api/replay/frames", {**frames, "options": {option: value}}
        yield "/api/replay", {"text": value}
        yield f"/api/games/{game_id}/play", {"move": value}
        yield f"/api/games/{game_id}/computer", {"think": value}
        yield f"/api/games/{value}/undo", {}


def client_meta() -> dict:
    tables = Tables()
    meta = create_app(tables).test_client().get("/api/meta").json
    tables.close()
    return meta


def test_a_wrong_type_in_any_field_of_any_endpoint_is_a_4xx_json_error(client):
    state = start(client, players=("human", "human"))
    for path, body in every_field_of_every_endpoint(state["id"]):
        response = client.post(path, json=body)
        assert response.status_code < 500 and response.is_json, (path, body, response.status_code)
        if response.status_code >= 400:
            assert response.json["error"], (path, body)
    unchanged(client, state)


@pytest.mark.parametrize("path", ["/api/games", "/api/replay", "/api/replay/frames", "/api/games/x/play"])
def test_json_nested_100000_deep_is_refused_as_bad_input(client, path):
    refused(client.post(path, data=DEEP, content_type="application/json"), 400, "nests deeper than 64")


def test_a_report_nested_100000_deep_or_65_deep_is_refused_as_bad_input(client):
    refused(client.post("/api/replay", json={"text": DEEP}), 400, "the report nests deeper")
    report = json.loads(LADDER.read_text())
    nested: object = "x"
    for _ in range(65):
        nested = [nested]
    report["pairs"][0]["player"] = nested
    refused(client.post("/api/replay", json={"text": json.dumps(report)}), 400, "nests deeper than 64")


def test_options_that_are_not_an_object_are_refused(client):
    for options in ([1], True, 1.5, "max_turns=3"):
        body = {"game": "hive", "options": options, "players": ["human", "human"]}
        refused(client.post("/api/games", json=body), 400, "'options' must be a JSON object")


def test_a_game_the_page_cannot_draw_is_refused_before_it_is_made(client, monkeypatch):
    from hive_envs.core.definition import GameDefinition

    made = []
    monkeypatch.setattr(GameDefinition, "game", lambda definition, options=None: made.append(definition.name))
    options = {"env": "pettingzoo.classic.go_v5", "env_options": {"board_size": 30_000}}
    body = {"game": "aec", "options": options, "players": ["human", "human"]}
    refused(client.post("/api/games", json=body), 400, "cannot draw")
    assert made == []  # no env imported, no board allocated


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda r: "{not json", ["not valid JSON"]),
        (lambda r: json.dumps([r]), ["JSON object"]),
        (lambda r: json.dumps({**r, "game": "chess"}), ["chess"]),
        (
            lambda r: json.dumps({k: v for k, v in r.items() if k != "pairs"}),
            ["neither 'matches' nor 'pairs'"],
        ),
        (lambda r: json.dumps({**r, "pairs": [{**r["pairs"][0], "wins": "many"}]}), ["match 1", "'wins'"]),
        (lambda r: json.dumps({**r, "pairs": [{"opponent": "x"}]}), ["match 1", "'player'"]),
        (
            lambda r: json.dumps({**r, "pairs": [{**r["pairs"][0], "games_played": [{"seat_of_a": 2}]}]}),
            ["seat_of_a"],
        ),
        (lambda r: "Base;InProgress;White[2];wS1;bQ wS1-", ["not legal"]),
        (lambda r: "", ["nothing to replay"]),
    ],
)
def test_a_corrupt_report_or_record_is_refused_with_what_is_wrong(client, edit, words):
    text = edit(json.loads(LADDER.read_text()))
    refused(client.post("/api/replay", json={"text": text}), 400, *words)


def test_a_bad_record_to_step_through_is_refused(client):
    refused(
        client.post("/api/replay/frames", json={"record": "chess 1. e4"}),
        400,
        "not a record of a game",
        "Hive",
    )
    refused(client.post("/api/replay/frames", json={"record": "Base;InProgress;White[2];wQ"}), 400, "wQ")
    refused(client.post("/api/replay/frames", json={"record": "HoyitoII;moves=1"}), 400, "Hoyito record")
    refused(client.post("/api/replay/frames", json={"record": 5}), 400, "non-empty text")


@pytest.mark.parametrize(
    ("mode", "words"), [("die", ["failed"]), ("hang", ["failed"]), ("garbage", ["illegal"])]
)
def test_an_engine_that_crashes_hangs_or_cheats_is_a_422_and_the_server_keeps_serving(client, mode, words):
    state = start(client, players=("human", f"engine:{mode}"))
    client.post(f"/api/games/{state['id']}/play", json={"move": "wS1"})
    before = client.get(f"/api/games/{state['id']}").json
    began = time.perf_counter()
    refused(client.post(f"/api/games/{state['id']}/computer", json={}), 422, *words)
    assert time.perf_counter() - began < 10  # --move-timeout 1 s here
    unchanged(client, before)
    other = start(client, "hoyito", ("human", "greedy"))  # the server still serves
    assert client.post(f"/api/games/{other['id']}/play", json={"move": "0"}).status_code == 200


def test_a_second_request_while_the_computer_thinks_is_refused_as_busy(client):
    state = start(client)
    tables = client.application.config["TABLES"]
    with tables.use(state["id"], client.get_cookie(COOKIE).value):  # as a request in progress holds it
        refused(client.post(f"/api/games/{state['id']}/play", json={"move": "wS1"}), 409, "another request")
    unchanged(client, state)


def test_an_engine_that_cannot_start_is_a_bad_spec(client):
    refused(
        client.post("/api/games", json={"game": "hive", "players": ["human", "engine:start-exit"]}),
        400,
        "cannot be used",
    )


def test_the_command_refuses_a_bad_port_or_timeout_before_serving(capsys):
    for argv in (["--port", "70000"], ["--move-timeout", "0"]):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2
    assert "--move-timeout" in capsys.readouterr().err


class _StoppedServer:
    """Stands in for waitress's server: records where it was asked to listen, stops at once."""

    calls: ClassVar[list] = []
    effective_port = 8123

    def __init__(self, app, host, port, **settings):
        _StoppedServer.calls.append((host, port))
        self.effective_host = host

    def run(self):
        pass  # waitress's run returns on Ctrl-C

    def close(self):
        pass


@pytest.mark.parametrize(
    ("argv", "host", "warned"), [([], "127.0.0.1", False), (["--host", "0.0.0.0"], "0.0.0.0", True)]
)
def test_the_command_listens_on_this_machine_only_unless_told_and_then_warns(
    monkeypatch, capsys, argv, host, warned
):
    from hive_envs.web import serving

    _StoppedServer.calls = []
    monkeypatch.setattr(serving, "create_server", _StoppedServer)
    assert main([*argv, "--port", "0", "--no-browser"]) == 0
    assert _StoppedServer.calls == [(host, 0)]
    out = capsys.readouterr()
    assert "http://127.0.0.1:8123/" in out.out
    assert ("warning: listening on 0.0.0.0" in out.err) == warned
