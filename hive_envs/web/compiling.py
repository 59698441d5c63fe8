"""Numba's compilations in this process as they happen, for the page to say why a request is slow.

The engines' kernels are compiled by numba on first use and kept in numba's cache (``cache=True``: a
``__pycache__`` folder beside each source file, or numba's user-wide cache folder where the package's
folder cannot be written), so the first games after an install wait on compilation once and later
runs load the compiled code in a fraction of a second per kernel. numba announces each compilation
(its ``"numba:compile"`` event, sent only for a function it compiles, never for one it loads from the
cache); `CompileWatch` counts them, and ``GET /api/warmup`` answers its `status` while the page
waits for a new game or a computer move.
"""

from __future__ import annotations

import threading
import time

from numba.core import event

FRESH_INSTALL_COMPILE_S = 120
"""About how long the kernels of a first Hive game against a network player take to compile on an
empty cache on 2 cores (docs/play.md gives the measurement); what the page shows as "~N s"."""


class CompileWatch(event.Listener):
    """Counts numba's compilations (see the module docstring); safe to read from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._depth = 0  # compilations in progress: a kernel compiles the kernels it calls inside its own
        self._began = 0.0
        self._function: str | None = None
        self.functions = 0
        self.seconds = 0.0

    def on_start(self, ev) -> None:
        dispatcher = ev.data["dispatcher"]
        function = getattr(dispatcher, "py_func", None)
        with self._lock:
            if self._depth == 0:
                self._began = time.monotonic()
            self._depth += 1
            self.functions += 1
            if function is not None:
                self._function = f"{function.__module__}.{function.__qualname__}"

    def on_end(self, ev) -> None:
        with self._lock:
            self._depth -= 1
            if self._depth == 0:
                self.seconds += time.monotonic() - self._began
                self._function = None

    def status(self) -> dict:
        """``compiling`` (now), ``function`` (the one being compiled, or None), ``functions`` and
        ``seconds`` (compiled in this process so far, the running compilation included) and
        ``estimate_s`` (`FRESH_INSTALL_COMPILE_S`)."""
        with self._lock:
            running = time.monotonic() - self._began if self._depth else 0.0
            return {
                "compiling": self._depth > 0,
                "function": self._function,
                "functions": self.functions,
                "seconds": round(self.seconds + running, 1),
                "estimate_s": FRESH_INSTALL_COMPILE_S,
            }


_WATCH: CompileWatch | None = None
_INSTALL = threading.Lock()


def compile_watch() -> CompileWatch:
    """The process's watch, registered with numba on first call."""
    global _WATCH
    with _INSTALL:
        if _WATCH is None:
            _WATCH = CompileWatch()
            event.register("numba:compile", _WATCH)
        return _WATCH
