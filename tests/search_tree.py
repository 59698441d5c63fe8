"""What a search found and how, for the tests that compare two searches node for node."""

from __future__ import annotations


def tree(result) -> tuple:
    """A search result's move, score, nodes searched and principal variation: two searches give the
    same only when they searched the same tree to the same answer."""
    return result.move_id, result.score, result.nodes, result.pv
