"""What requests may hold of the machine, per client and in all (`hive_envs.web.caps`, `tables`): games,
engine processes (closed when their game ends or is dropped) and moves computed at once; a client's
cap drops only its own games, and a full server refuses rather than drop another client's."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("flask")

from hive_envs.web.caps import Caps
from hive_envs.web.guards import COOKIE
from hive_envs.web.server import create_app
from hive_envs.web.tables import Tables
from hive_envs.web.trust import Offer

ROOT = Path(__file__).resolve().parents[2]
FAKE = f"{sys.executable} {ROOT / 'tests' / 'evaluation' / 'fake_uhp_engine.py'} garbage"


class Clock:
    now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def server(tmp_path):
    """server(caps) -> (tables, clients()): each call of clients() is a new browser."""
    made = []
    started = tmp_path / "started"  # one line per engine process started

    def make(caps: Caps):
        engine = f"sh -c 'echo >> {started}; exec {FAKE}'"
        made.append(Tables(move_timeout_s=5.0, caps=caps, offer=Offer({"fake": engine}), clock=Clock()))
        app = create_app(made[-1])
        return made[-1], app.test_client

    make.started = lambda: len(started.read_text().splitlines()) if started.exists() else 0
    yield make
    for tables in made:
        tables.close()


def create(client, *players, status=201, **options):
    body = {"game": "hive", "options": options, "players": list(players) or ["human", "human"]}
    response = client.post("/api/games", json=body)
    assert response.status_code == status, (response.status_code, response.json)
    return response.json


def exists(client, state) -> bool:
    return client.get(f"/api/games/{state['id']}").status_code == 200


def test_a_clients_new_game_drops_its_own_oldest_never_anothers(server):
    _, browser = server(Caps(games_per_client=2))
    mine, theirs = browser(), browser()
    their_game = create(theirs)
    first, second, third = create(mine), create(mine), create(mine)
    assert not exists(mine, first) and exists(mine, second) and exists(mine, third)
    assert exists(theirs, their_game)


def test_a_full_server_refuses_a_new_game_rather_than_drop_another_clients(server):
    tables, browser = server(Caps(games=2, idle_s=600))
    a, b, c = browser(), browser(), browser()
    game_a, game_b = create(a), create(b)
    message = create(c, "human", "engine:fake", status=503)["error"]
    assert "maximum of 2 games" in message and exists(a, game_a) and exists(b, game_b)
    assert server.started() == 0  # refused before any player was made
    tables.clock.now += 601  # both idle now; b uses its game again
    assert exists(b, game_b)
    create(c)  # replaces the game left unused, a's
    assert not exists(a, game_a) and exists(b, game_b)


def test_an_engine_process_is_closed_when_its_game_ends(server):
    tables, browser = server(Caps())
    client = browser()
    state = create(client, "human", "engine:fake", max_turns=1)
    assert tables._engines() == 1
    over = client.post(f"/api/games/{state['id']}/play", json={"move": "wS1"}).json
    assert over["over"] and tables._engines() == 0


def test_at_most_n_engine_processes_run_per_client_and_in_all(server):
    tables, browser = server(Caps(engines=2, engines_per_client=1))
    a, b, c = browser(), browser(), browser()
    first = create(a, "human", "engine:fake")
    second = create(a, "human", "engine:fake")  # a's first game is dropped, its engine closed
    assert not exists(a, first) and exists(a, second) and tables._engines() == 1
    create(b, "engine:fake", "human")
    assert tables._engines() == 2 and server.started() == 3
    message = create(c, "human", "engine:fake", status=503)["error"]
    assert "at most 2 engine processes" in message
    assert tables._engines() == 2 and server.started() == 3  # nothing was started for it
    create(c, "human", "random")  # a game without an engine is still made
    assert create(a, "engine:fake", "engine:fake", status=429)["error"].startswith("at most 1 engine")


def test_a_game_left_while_its_engine_thinks_counts_against_the_caps_until_its_move_ends(server):
    tables, browser = server(Caps(engines=2, engines_per_client=1))
    a = browser()
    state = create(a, "engine:fake", "human")
    me = a.get_cookie(COOKIE).value
    with tables.use(state["id"], me):  # as the engine's move in progress holds the game
        assert a.delete(f"/api/games/{state['id']}").status_code == 200  # the page left it
        assert not exists(a, state) and tables._engines() == tables._engines(me) == 1  # still running
        message = create(a, "human", "engine:fake", status=429)["error"]
        assert message.startswith("at most 1 engine") and server.started() == 1
    assert tables._engines() == 0  # closed when the move ended
    create(a, "human", "engine:fake")
    assert tables._engines() == 1 and server.started() == 2


def test_an_engine_started_again_after_a_failure_counts_against_the_caps(server):
    tables, browser = server(Caps(engines=1, engines_per_client=1))
    a, b = browser(), browser()
    state = create(a, "human", "engine:fake")
    a.post(f"/api/games/{state['id']}/play", json={"move": "wS1"})
    failed = a.post(f"/api/games/{state['id']}/computer", json={})
    assert failed.status_code == 422 and tables._engines() == 0  # the failed engine was closed
    create(b, "human", "engine:fake")
    refused = a.post(f"/api/games/{state['id']}/computer", json={})
    assert refused.status_code == 503 and "engine processes" in refused.json["error"]
    assert tables._engines() == 1


def test_moves_computed_at_once_are_capped_per_client_and_in_all(server):
    tables, browser = server(Caps(thinking=3, thinking_per_client=2))
    a, b = browser(), browser()
    state = create(a, "random", "human")
    me = a.get_cookie(COOKIE).value
    computer = f"/api/games/{state['id']}/computer"
    with tables.thinking.hold(me), tables.thinking.hold(me):
        response = a.post(computer, json={})
        assert response.status_code == 429 and "per client" in response.json["error"]
    with tables.thinking.hold("x"), tables.thinking.hold("y"), tables.thinking.hold("z"):
        response = a.post(computer, json={})
        assert response.status_code == 503 and "at most 3 computer moves" in response.json["error"]
    with tables.thinking.hold(b.get("/api/meta") and b.get_cookie(COOKIE).value):
        assert a.post(computer, json={}).json["ply"] == 1  # another client's move takes no slot of a's


def test_a_move_of_a_game_its_client_left_is_stopped_not_searched_to_its_limit(server):
    _, browser = server(Caps())
    a = browser()
    state = create(a, "alphabeta:T=20", "human")
    other = browser()  # the same browser's second connection: its cookie
    other.set_cookie(COOKIE, a.get_cookie(COOKIE).value)
    answers = []
    move = threading.Thread(
        target=lambda: answers.append(a.post(f"/api/games/{state['id']}/computer", json={}))
    )
    started = time.perf_counter()
    move.start()
    time.sleep(1.0)  # the search is under way (its kernels compile first on a cold cache)
    assert other.delete(f"/api/games/{state['id']}").status_code == 200  # the page left the game
    move.join(timeout=60)
    assert not move.is_alive() and time.perf_counter() - started < 15.0  # not its 20 s
    assert answers[0].status_code == 200 and answers[0].json["ply"] == 1  # it answered a move
