"""The 64-bit mix the engines and the searches hash with (compiled): position keys, table keys, the
seeded tie-break of move ordering."""

import numpy as np
from numba import njit


@njit(cache=True)
def mix64(x):
    """splitmix64 of a uint64: hashes positions and draws the seeded tie-break of move ordering."""
    x = (x + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))
