"""benchmarks/spec_to_network.py: a child times the spec's moves on its seeded positions; the parent
refuses a ``--before`` that is no checkout of the package."""

from __future__ import annotations

import pytest

from benchmarks import spec_to_network


def test_a_child_times_one_move_per_position_the_same_moves_for_the_same_seed():
    first = spec_to_network.child("greedy", "hoyito", 3, seed=2)
    assert len(first["cpu_s"]) == len(first["wall_s"]) == len(first["moves"]) == 3
    assert all(t >= 0 for t in first["cpu_s"] + first["wall_s"])
    assert spec_to_network.child("greedy", "hoyito", 3, seed=2)["moves"] == first["moves"]


def test_a_before_that_is_no_checkout_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as raised:
        spec_to_network.main(["--before", str(tmp_path)])
    assert raised.value.code == 2 and "--before" in capsys.readouterr().err
