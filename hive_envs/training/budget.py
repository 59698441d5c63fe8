"""The training wall-time budget (`time_limit_minutes`): work starts only if it is expected to end
within the budget, so a run stops before the update that would cross it, not after it.

The expected length of each kind of work (an update, a periodic evaluation) is the longest seen so
far in this process: updates differ (a rollout against `alphabeta:1` is slower than self-play), and
a run that stops one update early keeps its promise, one that overshoots does not. Work of a kind
not yet timed starts whenever time is left.
"""

from __future__ import annotations

import math


class TimeBudget:
    """``limit_s`` seconds of training wall time; 0 means no limit."""

    def __init__(self, limit_s: float):
        self.limit_s = limit_s
        self.longest: dict[str, float] = {}

    def fits(self, elapsed_s: float, kind: str) -> bool:
        """Whether work of ``kind`` started at ``elapsed_s`` is expected to end within the budget."""
        if not self.limit_s:
            return True
        return elapsed_s + self.longest.get(kind, 0.0) < self.limit_s

    def record(self, kind: str, seconds: float) -> None:
        """One piece of work of ``kind`` took ``seconds``."""
        self.longest[kind] = max(seconds, self.longest.get(kind, 0.0))


def expected_final_step(step: int, elapsed_s: float, total_steps: int, limit_s: float) -> int | None:
    """The step the run will end on: ``total_steps``, or earlier where the time limit ends it first, at
    the rate so far (``step`` steps in ``elapsed_s``). None while a time limit is set and no rate is
    known yet. The progress bar's total, so that its ETA is the run's and not ``total_steps``'s (the
    quickstart's 20,000,000 steps read 19 hours for a run its 3-minute budget ends)."""
    if not limit_s:
        return total_steps
    if step <= 0 or elapsed_s <= 0:
        return None
    at_limit = step + (step / elapsed_s) * max(limit_s - elapsed_s, 0.0)
    return max(step, min(total_steps, round(at_limit)))


def resume_note(step: int, updates: int, elapsed_s: float, total_steps: int, limit_s: float) -> str:
    """What a resumed run (at ``step`` after ``updates`` updates, ``elapsed_s`` of training time behind
    it) has left, as a line to print; ValueError, saying which key to raise, when it has nothing left:
    ``time_limit_minutes`` counts every segment of a run, so a run that used its budget trains no more
    on --resume alone. Less time left than its mean update took counts as none (the budget stopped
    that run because its next update would not fit)."""
    if step >= total_steps:
        raise ValueError(
            f"nothing left to train: the run is at step {step:,} of total_steps {total_steps:,}; "
            f"raise it to train on, e.g. --total_steps {2 * total_steps}"
        )
    if not limit_s:
        return f"resuming at step {step:,}: {total_steps - step:,} of total_steps {total_steps:,} left"
    used, limit = elapsed_s / 60, limit_s / 60
    if limit_s - elapsed_s < (elapsed_s / updates if updates else 0.0):
        raise ValueError(
            f"nothing left to train: the run has used {used:.1f} min of its time_limit_minutes {limit:g}, "
            f"which counts every segment of the run (--resume too); raise it to train on, e.g. "
            f"--time_limit_minutes {math.ceil((used + limit) * 10) / 10:g} for {limit:g} more minutes"
        )
    return (
        f"resuming at step {step:,}: {limit - used:.1f} of time_limit_minutes {limit:g} left (the budget "
        f"counts every segment of the run; raise it with --time_limit_minutes)"
    )
