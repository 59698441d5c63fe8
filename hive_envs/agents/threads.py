"""How many threads the rule features' searches run on: the ``threads`` argument of
`hive_envs.hive.agent.features.HiveRuleFeatures` and `hive_envs.hoyito.agent.features.HoyitoRuleFeatures`.

Their search kernels release the GIL, so plain Python threads, each with buffers of its own, search
rows at once; the values do not depend on the thread count."""

from __future__ import annotations

import numba


def thread_count(threads: int | None) -> int:
    """``threads`` (a positive int) checked, or numba's thread count for None."""
    if threads is None:
        return numba.get_num_threads()
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive int or None (numba's thread count), got {threads!r}")
    return threads
