"""Games the page leaves are dropped (`Tables.drop`): gone at once for later requests, their players
closed at once or, while the computer thinks, when its move ends; and the page lists and starts only
games it can draw."""

from __future__ import annotations

import pytest

pytest.importorskip("flask")

from hive_envs.games import GAMES
from hive_envs.web.server import create_app
from hive_envs.web.tables import NotFound, Tables


class Counted:
    """A player whose closing is counted."""

    name = "counted"

    def __init__(self):
        self.closed = 0

    def close(self):
        self.closed += 1


@pytest.fixture
def tables():
    tables = Tables()
    yield tables
    tables.close()


def a_table(tables):
    table = tables.create("hoyito", {}, ["human", "greedy"])
    player = Counted()
    table.players = (None, player)
    return table, player


def test_a_dropped_game_is_gone_and_its_players_closed(tables):
    table, player = a_table(tables)
    tables.drop(table.id)
    assert player.closed == 1
    with pytest.raises(NotFound), tables.use(table.id):
        pass
    with pytest.raises(NotFound):
        tables.drop(table.id)


def test_a_game_dropped_while_its_computer_thinks_is_closed_when_the_move_ends(tables):
    table, player = a_table(tables)
    with tables.use(table.id):  # as the computer's move in progress holds it
        tables.drop(table.id)
        assert player.closed == 0  # a search cannot be cut short; its players stay open meanwhile
        with pytest.raises(NotFound), tables.use(table.id):
            pass
    assert player.closed == 1
    tables.close()
    assert player.closed == 1  # closed once


def test_the_delete_request_drops_the_game():
    tables = Tables()
    client = create_app(tables).test_client()
    state = client.post("/api/games", json={"game": "hive", "players": ["human", "human"]}).json
    assert client.delete(f"/api/games/{state['id']}").json == {"dropped": state["id"]}
    assert client.get(f"/api/games/{state['id']}").status_code == 404
    assert client.delete(f"/api/games/{state['id']}").status_code == 404
    tables.close()


def test_only_games_the_page_can_draw_are_listed_or_started():
    tables = Tables()
    client = create_app(tables).test_client()
    listed = client.get("/api/meta").json["games"]
    drawable = [name for name, entry in GAMES.items() if entry.ref("web_board") is not None]
    assert list(listed) == drawable and len(drawable) < len(GAMES)  # the PettingZoo AEC adapter: no drawing
    (undrawable,) = set(GAMES) - set(drawable)
    response = client.post("/api/games", json={"game": undrawable, "players": ["human", "human"]})
    assert response.status_code == 400 and "cannot draw" in response.json["error"]
    assert len(tables._tables) == 0
    tables.close()
