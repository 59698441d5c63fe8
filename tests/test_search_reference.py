"""The alpha-beta searches of both games against their frozen results (`tests/data/search_reference.txt`,
written by `tests.data.make_search_reference`): the move, score, depth reached, nodes and principal
variation of every depth-limited search, and every root move's score, must stay as they were when the
search is reorganised or made faster."""

from tests.data.make_search_reference import COMMAND, PATH, render
from tests.frozen_text import assert_same_text


def test_the_searches_give_the_frozen_moves_scores_and_node_counts():
    assert_same_text(
        PATH.read_text(),
        render(),
        f"{PATH.name}: a search gives another result (rewrite with `{COMMAND}` only for a change of the "
        f"search that is meant).",
    )
