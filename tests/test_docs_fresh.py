"""Every generated table of the README and the docs is what `tools.render_docs` renders from the
committed results files, so no page can drift from its results (or from the other pages)."""

from __future__ import annotations

import pytest

from hive_envs.pretrained import pretrained_names
from tools import render_docs

PNG = b"\x89PNG\r\n\x1a\n"


def test_every_generated_document_matches_its_results_files():
    assert render_docs.stale_documents() == [], "stale generated tables: run python -m tools.render_docs"


def test_the_check_command_agrees():
    assert render_docs.main(["--check"]) == 0


def test_the_ladder_pictures_the_results_page_shows_exist():
    text = (render_docs.ROOT / "docs" / "results.md").read_text()
    pictures = [line.split("](")[1].rstrip(")") for line in text.splitlines() if line.startswith("![")]
    assert len(pictures) == 3
    for picture in pictures:
        assert (render_docs.ROOT / "docs" / picture).read_bytes()[:8] == PNG, picture


def test_the_readme_stays_a_front_door():
    readme = (render_docs.ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 200
    table = render_docs.replace_block(readme, "README.md", "headline", "")  # the block exists, once
    assert table.count("<!-- generated:") == 1
    block = readme.split(render_docs.begin_marker("headline"))[1].split(render_docs.end_marker("headline"))[0]
    rows = [line for line in block.splitlines() if line.startswith("| `")]
    assert 0 < len(rows) <= 2 * len(pretrained_names())  # argmax and the default search of each agent


def test_a_block_is_replaced_between_its_own_markers_only():
    begin, end = render_docs.begin_marker("a"), render_docs.end_marker("a")
    other = f"{render_docs.begin_marker('b')}\nkept\n{render_docs.end_marker('b')}"
    text = f"intro\n{begin}\nold\n{end}\n{other}\n"
    assert render_docs.replace_block(text, "X.md", "a", "new") == f"intro\n{begin}\nnew\n{end}\n{other}\n"


@pytest.mark.parametrize(
    "text",
    [
        "no markers here",
        f"{render_docs.begin_marker('a')}\n{render_docs.end_marker('a')}\n" * 2,
        f"{render_docs.end_marker('a')}\n{render_docs.begin_marker('a')}\n",
    ],
)
def test_a_document_without_exactly_one_well_formed_block_is_refused(text):
    with pytest.raises(ValueError, match="X.md: expected exactly one"):
        render_docs.replace_block(text, "X.md", "a", "new")
