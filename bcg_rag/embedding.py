"""Embedding on the write path: recent texts remembered, and a batch embedded in a worker
thread while the caller's Python work for the same batch goes on.

Why remember: ingestion links a message to its neighbours right after storing it, and
must not pay for its vector twice.

Why a worker: a model (torch, a remote service) lets go of Python's lock while it
computes, so with a second core the store's writes (``observe_many``) or the offline
extraction (``add_messages``) run beside it instead of after it. The result is the same
vectors; only when they arrive changes, and the caller takes them before it commits,
so a failed embedding still writes nothing. An embedder that computes in Python (the
hash embedder) would only take turns with the caller: it runs in the caller's thread.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Sequence

CACHE_SIZE = 4096


class Embeddings:
    """A memory's embedding calls: ``embed`` now, ``ahead`` for later; ``clear``, ``close``."""

    def __init__(self, index: Any):
        self._index = index
        self._cache: OrderedDict[str, list[float]] = OrderedDict()
        self._lock = threading.Lock()  # the cache, for callers in several threads
        # One model call at a time: a tokenizer or a model may not be used from two threads
        # at once, and the worker may be embedding the next batch while the caller embeds here.
        self._model_lock = threading.Lock()
        self._worker: ThreadPoolExecutor | None = None
        self._worker_pid = 0

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self.ahead(texts, here=True).result()

    def ahead(self, texts: Sequence[str], *, here: bool = False) -> "Pending":
        """Start embedding ``texts`` (those not remembered); ``Pending.result()`` returns
        their vectors in order. In a worker thread when the embedder computes outside
        Python's lock (its ``releases_gil``) and ``here`` is false, else on ``result()``."""
        texts = list(texts)
        with self._lock:
            known = {t: self._cache[t] for t in dict.fromkeys(texts) if t in self._cache}
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        if not missing or here or not getattr(getattr(self._index, "embedder", None), "releases_gil", False):
            return Pending(self, texts, known, missing, None)
        with self._lock:
            if self._worker is None or self._worker_pid != os.getpid():  # a forked child has no worker thread
                self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bcg-embed")
                self._worker_pid = os.getpid()
            future = self._worker.submit(self._model, missing)
        return Pending(self, texts, known, missing, future)

    def _model(self, texts: list[str]) -> list[list[float]]:
        with self._model_lock:
            return self._index.embed(texts)

    def clear(self) -> None:
        with self._lock:
            self._cache.clear()

    def close(self) -> None:
        with self._lock:
            worker, self._worker = self._worker, None
        if worker is not None:
            worker.shutdown(wait=True)

    def _remember(self, texts: Sequence[str], vectors: dict[str, list[float]]) -> None:
        """Newest last; the oldest beyond CACHE_SIZE go."""
        with self._lock:
            cache = self._cache
            for t in texts:
                cache[t] = vectors[t]
                cache.move_to_end(t)
            while len(cache) > CACHE_SIZE:
                cache.popitem(last=False)


class Pending:
    """Vectors on their way (``Embeddings.ahead``)."""

    def __init__(self, owner: Embeddings, texts: list[str], known: dict[str, list[float]], missing: list[str],
                 future: Future | None):
        self._owner, self._texts, self._missing, self._future = owner, texts, missing, future
        self._vectors: dict[str, list[float]] = known
        self._done = False

    def result(self) -> list[list[float]]:
        """The texts' vectors in order (waits for the worker; raises what the embedder raised)."""
        if not self._done:
            if self._missing:
                computed = self._future.result() if self._future else self._owner._model(self._missing)
                self._vectors.update(zip(self._missing, computed))
            self._owner._remember(self._texts, self._vectors)
            self._done = True
        return [self._vectors[t] for t in self._texts]
