"""The decorators of the hot kernels: ``njit(cache=True)`` without reference counting.

Numba increments and decrements the reference count of every array argument on entry to and exit
from a compiled function that is not inlined: two atomic operations per array per call. The move
generator calls small kernels (placement cells, pins, one bug's moves) thousands of times per
perft or batch step with two or three arrays each, and those counts took about a fifth of perft's
time. A kernel compiled with ``_nrt=False`` (numba's switch for its runtime, the NRT) passes
arrays as borrowed references and never touches their counts.

The price: such a kernel must not create arrays (``np.empty``, ``.copy()``, returning a new array,
``a[:] = b`` between arrays, which may copy ``b`` first); views, scalar fills and element writes are
fine. Numba refuses to compile a kernel that would allocate ("NRT required but not enabled"), so
the mistake cannot go unnoticed. The kernels that allocate (perft's move stacks, the playout's
buffers) keep the plain ``njit(cache=True)``; they may call these.
"""

from numba import njit

kernel = njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # _nrt: private, not in the stubs
"""``@kernel``: a compiled function that takes arrays and allocates none (see the module doc)."""

inline_kernel = njit(cache=True, _nrt=False, inline="always")  # type: ignore[call-overload]
"""``@inline_kernel``: the same, inlined into its callers by numba (tiny helpers on hot loops)."""
