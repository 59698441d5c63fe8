"""The thoughts the page shows are those of the search that chose the computer's move: one search per
move, its visits, simulations and time as they were (no second search for the panel), and an alpha-beta
player's depth, nodes and principal variation."""

from __future__ import annotations

import pytest

pytest.importorskip("flask")

import hive_envs.agents.search as search_module
from hive_envs.players import checkpoint
from hive_envs.players.checkpoint import MAX_SIMULATIONS
from hive_envs.web.records import game_of_record
from hive_envs.web.server import create_app
from hive_envs.web.tables import Tables
from tests.players.search_roots import record_search_roots


@pytest.fixture
def client():
    tables = Tables(move_timeout_s=30.0)
    yield create_app(tables).test_client()
    tables.close()


@pytest.fixture
def searches(monkeypatch):
    """Every PUCT search run from here on, by anyone, as (root moves, visits, value sums, simulations)
    when it returned."""
    return record_search_roots(monkeypatch, search_module, checkpoint)


def computer_moves(client, players, count, searches=None, game="hive"):
    """Start a game of ``players`` (then forget the searches made so far: a timed player's warm-up),
    play ``count`` plies (a human plays the first listed move) and return the computer's replies."""
    state = client.post("/api/games", json={"game": game, "players": list(players)}).json
    if searches is not None:
        searches.clear()
    replies = []
    for _ in range(count):
        if state["computer_to_move"]:
            state = client.post(f"/api/games/{state['id']}/computer", json={"think": True}).json
            replies.append(state)
        else:
            state = client.post(
                f"/api/games/{state['id']}/play", json={"move": state["moves"][0]["name"]}
            ).json
    return replies


def visits_by_name(reply, moves, visits) -> dict[str, int]:
    """A search's root visits by move name, on the position before ``reply``'s move."""
    before = game_of_record(reply["record"])
    before.undo()
    return {before.move_name(int(m)): int(n) for m, n in zip(moves, visits)}


@pytest.mark.parametrize("spec", ["pretrained:hive_base@16", "pretrained:hive_base@T=0.3"])
def test_the_panels_visits_are_those_of_the_one_search_that_chose_the_move(client, searches, spec):
    replies = computer_moves(client, ["human", spec], 6, searches)
    assert len(searches) == len(replies) == 3  # one search per computer move, none for the panel
    for reply, (moves, visits, _, _) in zip(replies, searches):
        thoughts = reply["thoughts"]
        assert thoughts["kind"] == "tree" and thoughts["played"] == reply["computer_move"]
        assert thoughts["visits"] == sum(visits)
        assert thoughts["simulations"] + thoughts["kept_visits"] == sum(visits)
        assert 0 < thoughts["simulations"] < MAX_SIMULATIONS
        assert (thoughts["time_limit_s"] is not None) == spec.endswith("T=0.3")
        searched = visits_by_name(reply, moves, visits)
        assert all(row["visits"] == searched[row["name"]] for row in thoughts["moves"])
        assert [row["name"] for row in thoughts["moves"] if row["played"]] == [reply["computer_move"]]
    if spec.endswith("@16"):
        assert all(r["thoughts"]["simulations"] == 16 for r in replies)


def test_a_position_with_few_moves_lists_them_all_with_every_visit(client, searches):
    (reply,) = computer_moves(client, ["pretrained:hive_base@24", "human"], 1, searches)
    ((moves, visits, _, _),) = searches
    rows = reply["thoughts"]["moves"]
    assert len(rows) == len(moves) == 4  # the tournament opening's four first placements
    assert sum(row["visits"] for row in rows) == sum(visits) == 24


def test_without_the_panel_the_computer_still_searches_once(client, searches):
    state = client.post(
        "/api/games", json={"game": "hive", "players": ["pretrained:hive_base@8", "human"]}
    ).json
    reply = client.post(f"/api/games/{state['id']}/computer", json={"think": False}).json
    assert reply["thoughts"] is None and len(searches) == 1


def test_an_alpha_beta_player_shows_its_depth_nodes_and_principal_variation(client):
    (reply,) = computer_moves(client, ["human", "alphabeta:2"], 2)
    thoughts = reply["thoughts"]
    assert thoughts["kind"] == "alphabeta" and thoughts["played"] == reply["computer_move"]
    assert thoughts["depth"] == 2 and thoughts["nodes"] > 0 and thoughts["elapsed_s"] >= 0
    assert thoughts["pv"][0] == reply["computer_move"] and len(thoughts["pv"]) <= 2
    (row,) = thoughts["moves"]
    assert row["played"] and row["name"] == reply["computer_move"] and row["to"] is not None


def test_players_that_keep_no_search_show_no_thoughts(client):
    (reply,) = computer_moves(client, ["human", "greedy"], 2)
    assert reply["thoughts"] is None


def test_a_hoyito_network_players_rows_name_their_holes(client):
    (reply,) = computer_moves(client, ["pretrained:hoyito_2x6@16", "human"], 1, game="hoyito")
    rows = reply["thoughts"]["moves"]
    assert all(str(row["hole"]) == row["name"] for row in rows)
    assert sum(row["visits"] for row in rows) == reply["thoughts"]["visits"] == 16
