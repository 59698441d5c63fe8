"""`python -m benchmarks.cold_start`: each case runs in a new process whose numba cache is the one
given, so a cold run (empty cache) compiles and fills it, and a warm run after it does not compile."""

from __future__ import annotations

import pytest

from benchmarks import cold_start


def test_bad_cases_and_repeats_are_refused():
    with pytest.raises(ValueError, match="--cases"):
        cold_start.main(["--cases", "gym,nope"])
    with pytest.raises(ValueError, match="--repeats"):
        cold_start.main(["--repeats", "0"])


def test_the_table_shows_cold_and_warm_figures_and_the_target():
    row = {
        "case": "gym",
        "target_cold_cpu_s": 8.0,
        "cold": {"cpu_s": 7.26, "wall_s": 15.0},
        "warm": {"cpu_s": 1.04, "wall_s": 2.0},
    }
    line = cold_start.format_rows([row]).splitlines()[1].split()
    assert line == ["gym", "7.3", "15.0", "1.0", "2.0", "cold", "<=", "8", "CPU", "s"]


@pytest.mark.slow
def test_a_cold_gym_start_compiles_into_the_given_cache_and_a_warm_one_reuses_it(tmp_path):
    cold = cold_start.measure("gym", str(tmp_path))
    cached = sorted(path.name for path in tmp_path.rglob("*.nbi"))
    warm = cold_start.measure("gym", str(tmp_path))
    assert any(name.startswith("movegen.generate_moves") for name in cached)
    assert sorted(path.name for path in tmp_path.rglob("*.nbi")) == cached  # nothing new compiled
    assert warm["cpu_s"] < cold["cpu_s"] / 2
