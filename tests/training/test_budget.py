"""`training.budget.TimeBudget`: work starts only if its longest length so far ends within the budget."""

from __future__ import annotations

import pytest

from hive_envs.training.budget import TimeBudget, expected_final_step, resume_note


def test_no_limit_always_fits():
    budget = TimeBudget(0.0)
    budget.record("update", 1e9)
    assert budget.fits(1e12, "update")


def test_untimed_work_starts_while_time_is_left():
    budget = TimeBudget(60.0)
    assert budget.fits(59.9, "update")
    assert not budget.fits(60.0, "update")


def test_an_update_that_would_cross_the_limit_does_not_start():
    budget = TimeBudget(3600.0)
    budget.record("update", 110.0)
    assert budget.fits(3489.0, "update")  # ends at 3599 s
    assert not budget.fits(3491.0, "update")  # would end at 3601 s: the run stops here instead


def test_the_longest_length_of_each_kind_is_expected():
    budget = TimeBudget(100.0)
    budget.record("update", 30.0)
    budget.record("update", 10.0)  # a shorter one does not lower the expectation
    budget.record("evaluation", 5.0)
    assert not budget.fits(71.0, "update")
    assert budget.fits(71.0, "evaluation")


def test_the_progress_total_is_the_step_the_time_limit_ends_the_run_on():
    # the quickstart: 20 M steps asked, 3 minutes allowed, 1,000 steps/s so far
    assert expected_final_step(60_000, 60.0, 20_000_000, 180.0) == 180_000
    assert expected_final_step(60_000, 60.0, 100_000, 180.0) == 100_000  # the step budget ends it first
    assert expected_final_step(60_000, 60.0, 20_000_000, 0.0) == 20_000_000  # no time limit
    assert expected_final_step(0, 0.0, 20_000_000, 180.0) is None  # no rate yet: no total, no ETA
    assert expected_final_step(200_000, 200.0, 20_000_000, 180.0) == 200_000  # past the limit: now


def test_a_resumed_run_is_told_the_budget_it_has_left():
    assert resume_note(100, 10, 60.0, 1000, 180.0).startswith(
        "resuming at step 100: 2.0 of time_limit_minutes 3 left"
    )
    assert resume_note(100, 10, 60.0, 1000, 0.0) == "resuming at step 100: 900 of total_steps 1,000 left"


def test_a_resumed_run_with_nothing_left_is_refused_naming_the_key_to_raise():
    with pytest.raises(
        ValueError, match=r"used 3.1 min of its time_limit_minutes 3.*--time_limit_minutes 6.1 "
    ):
        resume_note(100, 10, 185.0, 1000, 180.0)
    with pytest.raises(ValueError, match=r"step 1,000 of total_steps 1,000.*--total_steps 2000"):
        resume_note(1000, 10, 60.0, 1000, 180.0)


def test_less_time_left_than_a_mean_update_counts_as_none():
    """The quick start stops 0.05 s short of its 3 minutes (its next update would not fit): a
    --resume would otherwise run one more update and the whole final evaluation again."""
    with pytest.raises(ValueError, match="nothing left to train"):
        resume_note(827_392, 101, 179.95, 20_000_000, 180.0)  # 1.8 s an update, 0.05 s left
    assert resume_note(827_392, 101, 170.0, 20_000_000, 180.0).startswith("resuming at step 827,392: 0.2 ")
