"""Projection of a snapshot into cognition-safe signals: keys and flags, never values or payloads."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from arvis.memory.memory_long_snapshot import MemoryLongSnapshot

_LANGUAGE_KEYS = frozenset({"language", "preferred_language"})


class MemoryLongContextProjector:
    """Deterministic projection: constraints are sorted; every derived number is schema-bounded."""

    def project(self, snapshot: MemoryLongSnapshot) -> dict[str, Any]:
        return self.project_keys(entry.key for entry in snapshot.active_entries)

    def project_keys(self, active_keys: Iterable[str]) -> dict[str, Any]:
        """The projection from the keys of the snapshot's active entries alone (all it depends on)."""
        keys = set(active_keys)
        constraints = sorted(key for key in keys if key.startswith("no_"))
        has_language = not _LANGUAGE_KEYS.isdisjoint(keys)
        has_timezone = "timezone" in keys
        return {
            "constraints": constraints,
            "preferences": {"language": has_language, "timezone": has_timezone},
            "has_timezone": has_timezone,
            "has_language_pref": has_language,
            "memory_pressure": len(keys),
            "has_constraints": bool(constraints),
            "memory_instability": min(len(keys), 10) / 10,
        }
