"""The alpha-beta searches of both games against their frozen results (`tests/data/search_reference.txt`,
written by `tests.data.make_search_reference`): the move, score, depth reached, nodes and principal
variation of every depth-limited search, and every root move's score, must stay as they were when the
search is reorganised or made faster."""

import itertools

import pytest

from tests.data.make_search_reference import COMMAND, PATH, render


def test_the_searches_give_the_frozen_moves_scores_and_node_counts():
    expected = PATH.read_text()
    actual = render()
    if actual != expected:
        pairs = itertools.zip_longest(expected.splitlines(), actual.splitlines(), fillvalue="(none)")
        line, (frozen, now) = next((i, p) for i, p in enumerate(pairs, 1) if p[0] != p[1])
        pytest.fail(
            f"{PATH.name}: a search gives another result (rewrite with `{COMMAND}` only for a change "
            f"of the search that is meant).\nFirst difference, line {line}:\n  frozen: {frozen}\n  now:    {now}"
        )
