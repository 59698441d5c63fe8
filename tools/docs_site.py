"""MkDocs hook of the documentation site (mkdocs.yml): the env pages are the env modules' docstrings.

A line ``<!-- docstring: hive_envs/hive_v0.py -->`` in a page of docs/ is replaced by that module's
docstring (reStructuredText, as `help()` shows it), rendered to HTML by docutils. The file is read,
not imported (no numba, no gymnasium at build time). A docutils warning fails the build, as MkDocs'
own warnings do under --strict.
"""

from __future__ import annotations

import ast
import io
import re
from pathlib import Path

import docutils.core
from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parent.parent
DOCSTRING = re.compile(r"^<!-- docstring: (?P<path>[\w/.]+\.py) -->$", re.MULTILINE)
# docutils writes ``literal`` text as a span the theme lays out as a block; the site's code style is <code>
LITERAL = re.compile(r'<span class="docutils literal">((?:<span class="pre">[^<]*</span>|[^<])*)</span>')
PRE = re.compile(r'<span class="pre">([^<]*)</span>')


def on_page_markdown(markdown: str, page, config, files) -> str:
    return DOCSTRING.sub(lambda match: docstring_html(match["path"]), markdown)


def docstring_html(path: str) -> str:
    """The module docstring of the file ``path`` (from the repository's root) as HTML."""
    docstring = ast.get_docstring(ast.parse((ROOT / path).read_text(encoding="utf-8")))
    if not docstring:
        raise PluginError(f"{path} has no module docstring to render")
    warnings = io.StringIO()
    parts = docutils.core.publish_parts(
        docstring,
        source_path=path,
        writer="html5",
        settings_overrides={"warning_stream": warnings, "report_level": 2, "doctitle_xform": False},
    )
    if warnings.getvalue():
        raise PluginError(f"the docstring of {path} is not clean reStructuredText:\n{warnings.getvalue()}")
    body = LITERAL.sub(lambda match: "<code>" + PRE.sub(r"\1", match[1]) + "</code>", parts["body"])
    return f'<div class="docstring">\n{body}\n</div>'
