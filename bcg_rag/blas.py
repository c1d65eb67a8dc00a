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
while another thread has the count lowered. Without threadpoolctl (it comes with the
sentence-transformers embedders) or without OpenBLAS the products are plain numpy.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

_LOCK = threading.Lock()
_openblas: tuple | None = None  # numpy's OpenBLAS, found on first use (threadpoolctl)


def _libraries() -> tuple:
    global _openblas
    if _openblas is None:
        try:
            from threadpoolctl import ThreadpoolController

            _openblas = tuple(ThreadpoolController().select(internal_api="openblas").lib_controllers)
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
