"""Policy: the numbers that decide what is believed, loaded from TOML."""

from __future__ import annotations

import copy
import fnmatch
import sys
from dataclasses import dataclass, field
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

    @classmethod
    def default(cls) -> "Policy":
        return cls.load(DEFAULT_POLICY_PATH)

    @classmethod
    def load(cls, path: str | Path) -> "Policy":
        path = Path(path)
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError as exc:
            raise ConfigError(f"policy file not found: {path}") from exc
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"policy file {path} is not valid TOML: {exc}") from exc
        return cls.from_dict(raw, base=None if path == DEFAULT_POLICY_PATH else "default")

    @classmethod
    def from_dict(cls, raw: dict, base: str | None = "default") -> "Policy":
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
        for table in ("weights", "initial_confidence"):
            for key, value in self.data.get(table, {}).items():
                if not isinstance(value, (int, float)) or not (-1.0 <= float(value) <= 1.0):
                    raise ConfigError(f"[{table}] {key} must be a number in [-1, 1], got {value!r}")
        decay = self.data["decay"]
        for key, value in [("half_life_days", decay.get("half_life_days"))] + list(decay.get("classes", {}).items()):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or float(value) < 0:
                raise ConfigError(f"[decay] {key} must be a number of days >= 0 (0: no decay), got {value!r}")
        for cls, patterns in decay.get("class_of", {}).items():
            if cls not in decay.get("classes", {}):
                raise ConfigError(f"[decay.class_of] names class {cls!r}, which [decay.classes] does not define")
            if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
                raise ConfigError(f"[decay.class_of] {cls} must be a list of predicate patterns")

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

    @property
    def bands(self) -> dict[str, float]:
        return {k: float(v) for k, v in self.data["bands"].items()}

    @property
    def decision_line(self) -> float:
        return float(self.data["bands"]["decision"])

    def is_functional(self, predicate: str) -> bool:
        return any(fnmatch.fnmatchcase(predicate, pattern) for pattern in self.data["functional"]["predicates"])

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
