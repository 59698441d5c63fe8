"""JSON read from a request or a report: parsed with a ceiling on nesting, so that no later code (a
check, an error message quoting a value) walks a structure deep enough to exhaust the stack."""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 64  #: levels of nested lists and objects (an arena report has 5)


def parse_json(text: str | bytes, what: str) -> Any:
    """The value of JSON ``text``; ValueError naming ``what`` when it is not JSON or nests deeper than
    `MAX_DEPTH` (the parser's own recursion limit stops a deeper text before it is all read)."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError(f"{what} nests deeper than {MAX_DEPTH} levels") from None
    except ValueError as error:  # JSONDecodeError, or bytes that are not UTF-8
        raise ValueError(f"{what} is not valid JSON: {error}") from None
    level: list[Any] = [value]
    for _ in range(MAX_DEPTH + 1):
        level = [
            item
            for container in level
            if isinstance(container, (list, dict))
            for item in (container.values() if isinstance(container, dict) else container)
        ]
        if not level:
            return value
    raise ValueError(f"{what} nests deeper than {MAX_DEPTH} levels")
