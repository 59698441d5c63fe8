"""Every request must be addressed to the server's own address and come from its own page, and a client
touches only its own games (`hive_envs.web.guards`)."""

from __future__ import annotations

import socket

import pytest

pytest.importorskip("flask")

from hive_envs.web.guards import COOKIE, OwnAddress
from hive_envs.web.server import create_app
from hive_envs.web.tables import Tables

LOOPBACK = ("127.0.0.1", 8123)


@pytest.fixture
def app():
    tables = Tables()
    yield create_app(tables, address=LOOPBACK)
    tables.close()


def forbidden(response, *words):
    assert response.status_code == 403 and response.is_json, (response.status_code, response.data[:200])
    for word in words:
        assert word in response.json["error"]


@pytest.mark.parametrize("host", ["127.0.0.1:8123", "localhost:8123", "[::1]:8123", "LOCALHOST:8123"])
def test_the_loopback_names_of_the_bound_port_are_served(app, host):
    assert app.test_client().get("/api/meta", base_url=f"http://{host}").status_code == 200


@pytest.mark.parametrize(
    "host", ["evil.example:8123", "127.0.0.1.nip.io:8123", "127.0.0.1:8124", "localhost", "", "[::1]:x"]
)
def test_a_foreign_host_is_refused_as_dns_rebinding_would_send_it(app, host):
    client = app.test_client()
    assert client.get("/api/meta", headers={"Host": "127.0.0.1:8123"}).status_code == 200
    for path in ("/", "/api/meta"):
        forbidden(client.get(path, headers={"Host": host}), "does not answer to the host")
    forbidden(
        client.post(
            "/api/games", json={"game": "hive", "players": ["human", "human"]}, headers={"Host": host}
        )
    )
    assert not app.config["TABLES"]._tables


def test_a_server_on_one_address_answers_to_that_address_only():
    own = OwnAddress.of([("192.168.1.5", 8000)])
    assert own.accepts("192.168.1.5:8000")
    assert not any(own.accepts(h) for h in ("localhost:8000", "127.0.0.1:8000", "192.168.1.6:8000", "x:8000"))


def test_a_server_on_every_interface_answers_to_its_name_and_addresses_but_no_other_name():
    own = OwnAddress.of([("0.0.0.0", 8000)])
    name = socket.gethostname()
    for host in ("localhost:8000", "127.0.0.1:8000", "192.168.1.5:8000", "[fe80::1]:8000", f"{name}:8000"):
        assert own.accepts(host), host
    for host in ("evil.example:8000", "192.168.1.5:8001", "localhost"):
        assert not own.accepts(host), host


def test_port_80_may_be_left_out():
    own = OwnAddress.of([("127.0.0.1", 80)])
    assert own.accepts("localhost") and own.accepts("127.0.0.1:80") and not own.accepts("localhost:8080")


@pytest.mark.parametrize(
    "origin", ["http://evil.example", "null", "https://127.0.0.1:8123", "http://127.0.0.1:9"]
)
def test_a_request_from_another_sites_page_is_refused(app, origin):
    client = app.test_client()
    body = {"game": "hive", "players": ["human", "human"]}
    response = client.post(
        "/api/games", json=body, base_url="http://127.0.0.1:8123", headers={"Origin": origin}
    )
    forbidden(response, "only this server's page")
    assert not app.config["TABLES"]._tables


@pytest.mark.parametrize("origin", ["http://127.0.0.1:8123", "http://localhost:8123", None])
def test_a_request_from_the_servers_own_page_or_no_page_is_served(app, origin):
    headers = {"Origin": origin} if origin else {}
    response = app.test_client().post(
        "/api/games",
        json={"game": "hive", "players": ["human", "human"]},
        base_url="http://localhost:8123",
        headers=headers,
    )
    assert response.status_code == 201


def test_a_client_is_named_by_a_cookie_only_script_cannot_read(app):
    client = app.test_client()
    response = client.get("/api/meta", base_url="http://127.0.0.1:8123")
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    again = client.get("/api/meta", base_url="http://127.0.0.1:8123")
    assert "Set-Cookie" not in again.headers  # the same client keeps its id


def test_a_client_cannot_see_play_undo_or_drop_another_clients_game(app):
    base = "http://127.0.0.1:8123"
    mine, theirs = app.test_client(), app.test_client()
    body = {"game": "hive", "players": ["human", "random"]}
    state = mine.post("/api/games", json=body, base_url=base).json
    game = f"/api/games/{state['id']}"
    for response in (
        theirs.get(game, base_url=base),
        theirs.get(f"{game}/moves", base_url=base),
        theirs.post(f"{game}/play", json={"move": "wS1"}, base_url=base),
        theirs.post(f"{game}/computer", json={}, base_url=base),
        theirs.post(f"{game}/undo", json={}, base_url=base),
        theirs.delete(game, base_url=base),
    ):
        assert response.status_code == 404 and state["id"] in response.json["error"]
    theirs.set_cookie(COOKIE, "not-an-id-the-server-made")
    assert theirs.get(game, base_url=base).status_code == 404
    assert mine.get(game, base_url=base).json["record"] == state["record"]


def test_the_page_drops_its_own_game_with_a_bodiless_delete_and_another_site_cannot(app):
    client, base = app.test_client(), "http://127.0.0.1:8123"
    state = client.post(
        "/api/games", json={"game": "hoyito", "players": ["human", "human"]}, base_url=base
    ).json
    game = f"/api/games/{state['id']}"
    forbidden(client.delete(game, base_url=base, headers={"Origin": "http://evil.example"}))
    forbidden(client.delete(game, headers={"Host": "evil.example:8123"}), "does not answer to the host")
    assert client.get(game, base_url=base).status_code == 200  # still there
    response = client.delete(game, base_url=base, headers={"Origin": base})  # no body, no Content-Type
    assert response.status_code == 200 and response.json == {"dropped": state["id"]}
    assert client.get(game, base_url=base).status_code == 404
