"""The registry of keys the system may store, and the keys whose plain values are enumerable."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

__all__ = ["DEFAULT_MEMORY_LONG_REGISTRY", "MemoryLongRegistry"]


class MemoryLongRegistry:
    """Declared keys, and for some of them the closed set of plain values they may take."""

    def __init__(
        self,
        allowed_keys: Iterable[str],
        allowed_plain_values: Mapping[str, Iterable[str]] | None = None,
    ) -> None:
        self.allowed_keys: frozenset[str] = frozenset(allowed_keys)
        self.allowed_plain_values: dict[str, frozenset[str]] = {
            key: frozenset(values) for key, values in (allowed_plain_values or {}).items()
        }

    def is_allowed(self, key: str) -> bool:
        return key in self.allowed_keys

    def validate_value_plain(self, *, key: str, value: str) -> None:
        """Raise ValueError unless ``value`` is a declared plain value of ``key``."""
        allowed = self.allowed_plain_values.get(key)
        if allowed is None:
            raise ValueError(f"key '{key}' has no plain values")
        if value not in allowed:
            raise ValueError(f"value not allowed for key '{key}'")


DEFAULT_MEMORY_LONG_REGISTRY = MemoryLongRegistry(
    allowed_keys=(
        "language",
        "preferred_language",
        "tone_style",
        "timezone",
        "no_marketing_emails",
        "working_mode",
    ),
    allowed_plain_values={
        "tone_style": ("formal", "neutral", "casual"),
        "working_mode": ("focus", "collaborative", "async"),
    },
)
