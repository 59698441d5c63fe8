"""The encoder/env contract of hive_v0 and hoyito_v0 against the golden playthrough files.

Each file in tests/data/playthroughs/ is regenerated in memory by `tests.data.make_playthroughs`
and must match byte for byte: observation and mask digests, legal-action counts, actions, move
names and final rewards of seeded games of every Hive game type and both Hoyito boards.
"""

import pytest

from tests.data.make_playthroughs import COMMAND, PLAYTHROUGHS, render
from tests.frozen_text import assert_same_text


@pytest.mark.parametrize("playthrough", PLAYTHROUGHS, ids=lambda p: p.name)
def test_playthrough_matches_the_golden_file(playthrough):
    assert_same_text(
        playthrough.path.read_text(),
        render(playthrough),
        f"{playthrough.path.name}: the encoder/env contract changed: bump the env version "
        f"({playthrough.env}_v0 -> {playthrough.env}_v1) and regenerate with `{COMMAND}`.",
    )
