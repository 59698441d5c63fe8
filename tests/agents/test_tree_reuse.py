"""Tree reuse: a search continued from a node of an earlier tree (`search.subtree`, ``search_root(...,
root=)``) counts the node's visits as simulations made, keeps the tree's counts consistent and gives a
leaf made from its value alone its priors; a timed player keeps its last tree and starts its next move
in the same game from the node the game went on into (`agents.kept_tree`), and only then."""

from __future__ import annotations

import time

import numpy as np
import pytest

from hive_envs.agents.kept_tree import KeptTree
from hive_envs.agents.search import Node, SearchConfig, search_root, subtree
from hive_envs.games import game_entry
from hive_envs.hive import HiveGame
from hive_envs.players import PlayerContext, make_player
from tests.agents.test_leaf_batch import check_counts
from tests.agents.test_rule_value import random_positions
from tests.agents.test_value_first import hive_evaluators

SLACK_S = 0.05


def most_visited_line(root: Node, plies: int) -> list[int]:
    """The moves of the most visited child, then its most visited child, ``plies`` deep."""
    line, node = [], root
    for _ in range(plies):
        i = int(np.argmax(node.n))
        line.append(int(node.moves[i]))
        node = node.children[i]
        assert node is not None and node.has_priors
    return line


def line_to_a_leaf_without_priors(root: Node) -> list[int] | None:
    """Moves from ``root`` to a node made from its value alone (no priors yet), if the tree has one."""
    for i, child in enumerate(root.children):
        if child is None:
            continue
        if not child.has_priors:
            return [int(root.moves[i])]
        deeper = line_to_a_leaf_without_priors(child)
        if deeper is not None:
            return [int(root.moves[i]), *deeper]
    return None


@pytest.mark.parametrize("leaf_batch", [1, 8])
def test_a_search_continued_from_a_subtree_counts_its_visits(leaf_batch):
    evaluator, _, view = hive_evaluators()
    config = SearchConfig(simulations=300, prior_temperature=3.0, leaf_batch=leaf_batch)
    game = random_positions(view, 1, seed=3)[0]
    root = search_root(game, evaluator, config)
    line = most_visited_line(root, 2)
    node = subtree(root, line)
    assert node is not None and node.visits > 0
    for move in line:
        game.play_id(move)
    record, visits = game.record(), node.visits
    continued = search_root(
        game, evaluator, SearchConfig(simulations=visits + 50, prior_temperature=3.0), root=node
    )
    assert continued is node and node.visits == visits + 50
    check_counts(node)
    assert game.record() == record
    assert subtree(root, []) is root


def test_subtree_is_none_where_the_tree_has_not_grown():
    evaluator, _, view = hive_evaluators()
    game = random_positions(view, 1, seed=4)[0]
    root = search_root(game, evaluator, SearchConfig(simulations=40, prior_temperature=3.0))
    untried = [int(m) for m, n in zip(root.moves, root.n) if n == 0]
    assert untried, "every move was tried: pick a smaller search"
    assert subtree(root, [untried[0]]) is None
    assert subtree(root, [-5]) is None  # no such move


def test_a_leaf_made_from_its_value_alone_gets_its_priors_when_searched_from():
    evaluator, _, view = hive_evaluators()
    game = random_positions(view, 1, seed=5)[0]
    root = search_root(game, evaluator, SearchConfig(simulations=200, prior_temperature=3.0))
    line = line_to_a_leaf_without_priors(root)
    assert line is not None
    leaf = subtree(root, line)
    assert leaf is not None and not leaf.has_priors
    for move in line:
        game.play_id(move)
    search_root(game, evaluator, SearchConfig(simulations=30, prior_temperature=3.0), root=leaf)
    assert leaf.has_priors and leaf.visits == 30
    np.testing.assert_array_equal(np.sort(leaf.moves), np.sort(game.legal_move_ids()))
    assert leaf.priors.sum() == pytest.approx(1.0)


def test_a_timed_player_starts_its_next_move_from_the_node_the_game_went_on_into():
    player = make_player("pretrained:hive_base@T=0.3", PlayerContext("hive", 0))
    game = random_positions(player.view, 1, seed=6)[0]
    move = player.choose(game)
    kept = player.kept.root
    assert kept is not None and kept.visits > 0
    game.play_id(move)
    reply = most_visited_line(subtree(kept, [move]), 1)[0]
    game.play_id(reply)
    node = subtree(kept, [move, reply])
    assert node is not None
    before = node.visits
    player.choose(game)
    assert player.kept.root is node and node.visits > before
    check_counts(node)


def test_a_new_game_a_search_by_simulations_or_reuse_off_start_a_fresh_tree():
    player = make_player("pretrained:hive_base@T=0.2", PlayerContext("hive", 0))
    game = random_positions(player.view, 1, seed=8)[0]
    player.choose(game)
    assert player.kept.root is not None
    assert player.kept.root_for(HiveGame()) is None
    other = game.copy()
    other.undo()
    assert player.kept.root_for(other) is None  # the kept game's moves are not all in it
    assert player.kept.root_for(game) is player.kept.root  # the same position: the whole tree

    player.set_uhp_option("ReuseTree", False)
    assert player.kept.root is None
    player.choose(game)
    assert player.kept.root is None
    assert {row[0]: row[2] for row in player.uhp_options()}["ReuseTree"] is False

    by_simulations = make_player("pretrained:hive_base@16", PlayerContext("hive", 0))
    by_simulations.choose(game)
    assert by_simulations.kept.root is None


def test_a_game_without_a_move_history_is_searched_afresh():
    player = make_player("pretrained:hoyito_2x6@T=0.1", PlayerContext("hoyito", 0))
    entry = game_entry("hoyito")
    game = entry.new_game(entry.parse_options({}))
    player.choose(game)
    assert player.kept.root is None


def test_kept_tree_refuses_other_options_and_other_starts():
    evaluator, _, view = hive_evaluators()
    start = HiveGame()
    kept = KeptTree()
    kept.keep(start, search_root(start, evaluator, SearchConfig(simulations=20, prior_temperature=3.0)))
    assert kept.root_for(HiveGame()) is kept.root
    # the same start and moves; a repetition now ends the game, so the tree's results may not hold
    assert kept.root_for(HiveGame(repetition_draw=True)) is None
    assert kept.root_for(HiveGame("Base+MLP")) is None

    game = random_positions(view, 1, seed=9)[0]
    root = search_root(game, evaluator, SearchConfig(simulations=20, prior_temperature=3.0))
    kept.keep(game, root)
    assert kept.root_for(game) is root
    moved = HiveGame.from_state(game.state.copy())  # the same position, another start and history
    assert kept.root_for(moved) is None


def test_a_timed_player_playing_a_game_on_from_its_trees_keeps_the_limit():
    player = make_player("pretrained:hive_base@T=0.3", PlayerContext("hive", 0))
    player.warm_up()
    game = random_positions(player.view, 1, seed=10)[0]
    longest, reused = 0.0, 0
    for _ in range(8):
        if game.is_terminal:
            break
        reused += player.kept.root_for(game) is not None
        start = time.monotonic()
        move = player.choose(game)
        longest = max(longest, time.monotonic() - start)
        game.play_id(move)
    assert reused >= 4
    assert longest <= 0.3 + SLACK_S
