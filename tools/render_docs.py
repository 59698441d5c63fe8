"""Every generated table of the README and the docs, rendered from the committed results files.

    python -m tools.render_docs            # rewrite every generated block (and page) that differs
    python -m tools.render_docs --check    # only compare; exit 1 naming the stale ones (a test runs it)

A generated block sits between two marker lines, the only marker format of the repository:

    <!-- generated: NAME (python -m tools.render_docs) -->
    ...everything here is replaced...
    <!-- end: NAME -->

`blocks()` lists, per document, each block's name and the function that renders it from its results
files (benchmarks: docs/results/bench.json and cold_start.json; ladders: docs/results/ladder_*.json;
the pretrained agents: their model cards; the stock-framework baselines: the examples' results
files). `PAGES` lists the documents generated whole (docs/pretrained.md). So every figure a page
quotes comes from one file, and a result changes the docs only through this command.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def begin_marker(name: str) -> str:
    return f"<!-- generated: {name} (python -m tools.render_docs) -->"


def end_marker(name: str) -> str:
    return f"<!-- end: {name} -->"


def replace_block(text: str, document: str, name: str, content: str) -> str:
    """``text`` with block ``name``'s content replaced by ``content``; ValueError (naming the document and
    the block) unless the document holds exactly one such block."""
    begin, end = begin_marker(name), end_marker(name)
    if text.count(begin) != 1 or text.count(end) != 1 or text.find(end) < text.find(begin):
        raise ValueError(f"{document}: expected exactly one {begin!r} ... {end!r} block")
    start, stop = text.find(begin) + len(begin), text.find(end)
    return text[:start] + "\n" + content.strip() + "\n" + text[stop:]


# -- the sources, each read once per run ------------------------------------------------------------
@cache
def _json(path: str) -> dict:
    return json.loads((ROOT / path).read_text())


def _bench(render: Callable[[dict], str]) -> Callable[[], str]:
    from benchmarks import results, tables

    return lambda: render(results.read(ROOT / tables.RESULTS))


def _cold_start() -> str:
    from benchmarks import results, tables

    return tables.render_cold_start(results.read(ROOT / tables.COLD_RESULTS))


def _baselines() -> str:
    from benchmarks import baselines

    return baselines.render(baselines.read_reports())


def _ladder(report: str, picture: str) -> Callable[[], str]:
    """A ladder block of docs/results.md (its picture linked relative to docs/)."""

    def render() -> str:
        from tools.ladder_tables import markdown

        return markdown(_json(report), picture)

    return render


def _pretrained(headline: bool) -> Callable[[], str]:
    def render() -> str:
        from tools.model_cards import results_table

        return results_table(headline=headline)

    return render


def _pretrained_page() -> str:
    from tools.model_cards import docs_markdown

    return docs_markdown()


def blocks() -> dict[str, dict[str, Callable[[], str]]]:
    """Document -> {block name: its renderer} (a function, so that importing this module reads nothing)."""
    from benchmarks import tables

    return {
        "README.md": {"headline": _pretrained(headline=True)},
        "docs/results.md": {
            "pretrained": _pretrained(headline=False),
            "ladder-hive_base": _ladder("docs/results/ladder_hive_base.json", "images/ladder_hive_base.png"),
            "ladder-hive_base_mlp": _ladder(
                "docs/results/ladder_hive_base_mlp.json", "images/ladder_hive_base_mlp.png"
            ),
            "ladder-hoyito_2x6": _ladder(
                "docs/results/ladder_hoyito_2x6.json", "images/ladder_hoyito_2x6.png"
            ),
            "bench": _bench(tables.render_summary),
            "cold-start": _cold_start,
            "baselines": _baselines,
        },
        "docs/throughput.md": {"bench": _bench(tables.render_throughput)},
        "docs/hive_engine.md": {"bench": _bench(tables.render_engine)},
        "docs/hive_env.md": {"bench": _bench(tables.render_env)},
        "docs/hoyito.md": {"bench": _bench(tables.render_hoyito)},
        "docs/alphabeta.md": {"bench": _bench(tables.render_search)},
        "docs/stock_frameworks.md": {"baselines": _baselines},
    }


PAGES: dict[str, Callable[[], str]] = {"docs/pretrained.md": _pretrained_page}
"""Documents rendered whole."""


def rendered() -> dict[str, str]:
    """Every generated document's text as the results files render it."""
    texts = {}
    for document, renderers in blocks().items():
        text = (ROOT / document).read_text()
        for name, render in renderers.items():
            text = replace_block(text, document, name, render())
        texts[document] = text
    texts.update({document: render() for document, render in PAGES.items()})
    return texts


def stale_documents(write: bool = False) -> list[str]:
    """The documents whose text differs from what their results render (rewritten with ``write``)."""
    stale = []
    for document, text in rendered().items():
        path = ROOT / document
        if not path.is_file() or path.read_text() != text:
            stale.append(document)
            if write:
                path.write_text(text)
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if a document is stale")
    args = parser.parse_args(argv)
    stale = stale_documents(write=not args.check)
    if args.check and stale:
        print(f"stale (run python -m tools.render_docs): {', '.join(stale)}", file=sys.stderr)
        return 1
    print(("rewrote " if stale else "up to date: ") + ", ".join(stale or ["every document"]), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
