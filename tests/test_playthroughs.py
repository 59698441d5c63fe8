"""The encoder/env contract of hive_v0 and hoyito_v0 against the golden playthrough files.

Each file in tests/data/playthroughs/ is regenerated in memory by `tests.data.make_playthroughs`
and must match byte for byte: observation and mask digests, legal-action counts, actions, move
names and final rewards of seeded games of every Hive game type and both Hoyito boards.
"""

import itertools

import pytest

from tests.data.make_playthroughs import COMMAND, PLAYTHROUGHS, render


@pytest.mark.parametrize("playthrough", PLAYTHROUGHS, ids=lambda p: p.name)
def test_playthrough_matches_the_golden_file(playthrough):
    expected = playthrough.path.read_text()
    actual = render(playthrough)
    if actual != expected:
        pairs = itertools.zip_longest(expected.splitlines(), actual.splitlines(), fillvalue="(none)")
        line, (golden, now) = next((i, p) for i, p in enumerate(pairs, 1) if p[0] != p[1])
        pytest.fail(
            f"{playthrough.path.name}: the encoder/env contract changed: bump the env version "
            f"({playthrough.env}_v0 -> {playthrough.env}_v1) and regenerate with `{COMMAND}`.\n"
            f"First difference, line {line}:\n  golden: {golden}\n  now:    {now}"
        )
