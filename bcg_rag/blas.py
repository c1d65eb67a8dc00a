"""Similarity products that do not wake OpenBLAS's worker threads, with numpy's own
arithmetic.

Several query vectors against a user's ~1,000 stored ones (ingestion links a batch's
messages of one user to their neighbours) is a matrix product past OpenBLAS's threshold
for threading: every call woke its worker threads, which cost ~1.2 ms of CPU per message
on a busy two-core machine, several times the product. Cutting the product into blocks
below the threshold, as ``names._products`` does for one vector, is not an option here:
OpenBLAS computes products that small with other kernels, whose sums differ in the last
bits (measured: 60% of the shapes), and scores must not change. A product of several
queries computed by one thread is the threaded one bit for bit (the threads only share
out the rows), so it runs with OpenBLAS held to one thread.

OpenBLAS's thread count is process-wide, so every product here holds one lock: a
one-query product (whose bits do depend on the thread count, past ~1,200 rows) never runs
while another thread has the count lowered. (A lock of two modes, products of one kind
side by side, was built and measured slower on two cores: OpenBLAS's pool already takes
both.) The count is set with OpenBLAS's own ``openblas_set_num_threads``: threadpoolctl's
setter does nothing, silently, when called from another thread than the first one that
set the count while that one lives (threadpoolctl 3.8, OpenBLAS 0.3.31), so a server's
other request threads woke the worker threads after all. Without threadpoolctl (it comes
with the sentence-transformers embedders) or without an OpenBLAS on its own pthreads pool
(numpy's wheels have one) the products are plain numpy.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

_LOCK = threading.Lock()
_openblas: tuple | None = None  # numpy's OpenBLAS, found on first use (threadpoolctl)


class _OpenBLAS:
    """One OpenBLAS: its thread count read through threadpoolctl, set by OpenBLAS itself."""

    def __init__(self, controller: Any, setter: Any) -> None:
        self._controller, self._set = controller, setter

    def get_num_threads(self) -> int:
        return self._controller.get_num_threads()

    def set_num_threads(self, n: int) -> None:
        self._set(n)


def _setter(controller: Any) -> Any:
    for prefix in ("", "scipy_"):  # the names threadpoolctl knows the symbol by
        for suffix in ("", "64_", "_64"):
            if (setter := getattr(controller.dynlib, f"{prefix}openblas_set_num_threads{suffix}", None)) is not None:
                setter.restype = None
                return setter
    return None


def _libraries() -> tuple:
    global _openblas
    if _openblas is None:
        try:
            from threadpoolctl import ThreadpoolController

            controllers = ThreadpoolController().select(internal_api="openblas").lib_controllers
            # an OpenBLAS on its own pthreads pool has one process-wide count (an OpenMP one
            # counts per calling thread, a sequential one has nothing to count)
            pairs = [(c, _setter(c)) for c in controllers if c.threading_layer == "pthreads"]
            _openblas = tuple(_OpenBLAS(c, setter) for c, setter in pairs if setter is not None)
        except Exception:  # no threadpoolctl, or a library it cannot drive: plain products
            _openblas = ()
    return _openblas


def similarities(queries: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``queries @ rows.T``, exactly as numpy computes it, on the calling thread when there
    are several queries (one query: as numpy runs it, threads and all)."""
    with _LOCK:
        libs: Any = _libraries() if len(queries) > 1 else ()
        before = [lib.get_num_threads() for lib in libs]
        try:
            for lib in libs:
                lib.set_num_threads(1)
            return queries @ rows.T
        finally:
            for lib, n in zip(libs, before):
                lib.set_num_threads(n)
