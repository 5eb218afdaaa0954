"""The registry of keys the system may store, and the keys whose plain values are enumerable."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType


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

    def validate_value_plain(self, *, key: str, value: str | None) -> bool:
        """Whether ``value`` may be stored in plain for ``key``: always for no value (None), otherwise only
        when it is one of the plain values declared for ``key``."""
        if value is None:
            return True
        allowed = self.allowed_plain_values.get(key)
        return allowed is not None and value in allowed


DEFAULT_MEMORY_LONG_KEYS: frozenset[str] = frozenset(
    {
        "language",
        "preferred_language",
        "tone_style",
        "timezone",
        "no_marketing_emails",
        "working_mode",
    }
)

DEFAULT_PLAIN_VALUE_WHITELIST: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "language": frozenset({"fr", "en", "es", "de"}),
        "timezone": frozenset({"UTC", "Europe/Paris"}),
    }
)

DEFAULT_MEMORY_LONG_REGISTRY = MemoryLongRegistry(
    allowed_keys=DEFAULT_MEMORY_LONG_KEYS,
    allowed_plain_values=DEFAULT_PLAIN_VALUE_WHITELIST,
)
