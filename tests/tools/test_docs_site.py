"""The documentation site's env pages: each names a module whose docstring renders as clean reST."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("docutils")
pytest.importorskip("mkdocs")

from tools.docs_site import DOCSTRING, docstring_html  # after the skips: the docs extra

ROOT = Path(__file__).resolve().parents[2]
MARKED = sorted(
    (page.relative_to(ROOT).as_posix(), match["path"])
    for page in (ROOT / "docs").rglob("*.md")
    for match in DOCSTRING.finditer(page.read_text(encoding="utf-8"))
)


def test_each_env_module_has_a_page_rendered_from_its_docstring():
    assert [path for _, path in MARKED] == ["hive_envs/hive_v0.py", "hive_envs/hoyito_v0.py"]


@pytest.mark.parametrize(("page", "path"), MARKED)
def test_the_docstring_renders_without_a_docutils_warning(page, path):
    html = docstring_html(path)
    assert "<table" in html and "docutils literal" not in html  # the spaces table; literals as <code>
    assert re.search(r"<dt>Actions</dt>", html), page
