"""The ARC-Mem scenario schema, parsed tolerantly: a field of the wrong type or an unknown field is a
warning (unknown fields are kept in ``extras``), never an exception.

Our additions (optional, ignored by ARC-Mem): a turn's ``channel`` (what it arrives through: the user,
the agent's own narration, a tool result, a retrieved document), a turn's ``asserts`` and a fact's
``retiredAt`` (labels for the scorer only), a turn's ``confidence`` (kept for the model loop) and a seed
unit's ``pinned``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

EVALUATED_TURN_TYPES = frozenset({"ATTACK", "DISPLACEMENT", "DRIFT", "RECALL_PROBE"})
# a turn of this type asks: it asserts nothing unless labelled
ASKING_TURN_TYPES = frozenset({"RECALL_PROBE"})
TURN_TYPES = EVALUATED_TURN_TYPES | {"WARM_UP", "ESTABLISH"}
DEFAULT_PLAYER_CONFIDENCE = 0.8
AUTHORITIES = ("PROVISIONAL", "UNRELIABLE", "RELIABLE", "CANON")
CHANNELS = ("user", "narration", "tool", "document")
# the channel a turn arrives on when it names none: ARC-Mem's ``role`` read as a channel
ROLE_CHANNELS = {
    "PLAYER": "user",
    "USER": "user",
    "DM": "narration",
    "GM": "narration",
    "NARRATOR": "narration",
    "ASSISTANT": "narration",
    "AGENT": "narration",
    "TOOL": "tool",
    "DOCUMENT": "document",
    "RETRIEVAL": "document",
}

_KNOWN = {
    "id", "title", "category", "adversarial", "persona", "model", "temperature", "maxTurns", "warmUpTurns",
    "setting", "groundTruth", "seedUnits", "turns", "trustConfig", "compactionConfig", "dormancyConfig",
    "sessions", "adversaryMode", "adversaryConfig", "invariants", "assertions", "objective", "testFocus",
    "highlights", "extractionEnabled", "generatorModel", "evaluatorModel", "budgetStrategy",
    "enforcementStrategy",
}  # fmt: skip


@dataclass(frozen=True)
class Fact:
    id: str
    text: str
    established_at: int | None = None
    retired_at: int | None = None  # from this turn on the fact no longer holds (a legitimate update)


@dataclass(frozen=True)
class SeedUnit:
    text: str
    authority: str = "RELIABLE"
    rank: int = 500
    pinned: bool = False


@dataclass(frozen=True)
class Turn:
    turn: int
    role: str
    type: str
    prompt: str
    strategy: str | None = None
    target_fact: str | None = None
    confidence: float = DEFAULT_PLAYER_CONFIDENCE
    channel: str = "user"
    asserts: bool | None = None  # the scorer's label: None lets the scorer decide from the text

    @property
    def evaluated(self) -> bool:
        return self.type in EVALUATED_TURN_TYPES

    @property
    def is_attack(self) -> bool:
        return self.target_fact is not None


@dataclass(frozen=True)
class Assertion:
    type: str
    params: dict[str, Any]


@dataclass(frozen=True)
class Scenario:
    id: str
    category: str
    adversarial: bool
    facts: tuple[Fact, ...]
    seeds: tuple[SeedUnit, ...]
    turns: tuple[Turn, ...]
    assertions: tuple[Assertion, ...]
    invariants: tuple[dict[str, Any], ...]
    trust_profile: str | None
    compaction_turns: tuple[int, ...]
    warnings: tuple[str, ...]
    setting: str = ""
    persona: dict[str, Any] = field(default_factory=dict)
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def runnable(self) -> bool:
        """A scenario needs facts to judge and turns to play (the strategy catalogue has neither)."""
        return bool(self.facts) and bool(self.turns)


_T = TypeVar("_T")


class _Reader:
    def __init__(self) -> None:
        self.warnings: list[str] = []

    def warn(self, message: str) -> None:
        self.warnings.append(message)

    def _read(self, value: Any, where: str, default: _T, read: _T | None, expected: str) -> _T:
        """``read``, what ``value`` reads as; else (None) ``default``, with a warning that ``expected``
        was expected unless ``value`` is missing (None) too."""
        if value is None:
            return default
        if read is None:
            self.warn(f"{where}: expected {expected}")
            return default
        return read

    def text(self, value: Any, where: str, default: str = "") -> str:
        read = str(value) if isinstance(value, str | int | float | bool) else None
        return self._read(value, where, default, read, f"text, got {type(value).__name__}")

    def boolean(self, value: Any, where: str, default: bool) -> bool:
        quoted = value.strip().lower() if isinstance(value, str) else None
        if quoted in ("true", "false"):
            self.warn(f"{where}: a quoted boolean {value!r} read as {quoted}")
            return quoted == "true"
        read = value if isinstance(value, bool) else None
        return self._read(value, where, default, read, f"true or false, got {value!r}")

    def mapping(self, value: Any, where: str) -> dict[str, Any]:
        read = value if isinstance(value, dict) else None
        return self._read(value, where, {}, read, f"a mapping, got {type(value).__name__}")

    def unknown_keys(self, item: dict[str, Any], known: set[str], where: str) -> None:
        for key in sorted(set(item) - known, key=str):
            self.warn(f"{where}: unknown field {key!r} ignored")

    def integer(self, value: Any, where: str, default: int) -> int:
        digits = isinstance(value, str) and value.strip().lstrip("-").isdigit()
        read = int(value) if digits or (isinstance(value, int) and not isinstance(value, bool)) else None
        return self._read(value, where, default, read, f"an integer, got {value!r}")

    def number(self, value: Any, where: str, default: float) -> float:
        fits = isinstance(value, int | float) and not isinstance(value, bool) and 0.0 <= float(value) <= 1.0
        read = float(value) if fits else None
        return self._read(value, where, default, read, f"a number in [0, 1], got {value!r}")

    def items(self, value: Any, where: str) -> list[dict[str, Any]]:
        read = value if isinstance(value, list) else None
        listed: list[Any] = self._read(value, where, [], read, f"a list, got {type(value).__name__}")
        found = []
        for index, item in enumerate(listed):
            if isinstance(item, dict):
                found.append(item)
            else:
                self.warn(f"{where}[{index}]: expected a mapping, got {type(item).__name__}")
        return found


_INVARIANT_TYPES = ("authority-floor", "eviction-immunity", "min-authority-count", "archive-prohibition")
_INVARIANT_FIELDS = {
    "id",
    "type",
    "strength",
    "unitTextPattern",
    "minimumAuthority",
    "minimumCount",
    "contextId",
}


def _invariants(reader: _Reader, value: Any) -> tuple[dict[str, Any], ...]:
    """Operator invariants the working memory accepts; others are warned about and left out."""
    kept = []
    for index, item in enumerate(reader.items(value, "invariants")):
        where = f"invariants[{index}]"
        reader.unknown_keys(item, _INVARIANT_FIELDS, where)
        if item.get("contextId") is not None:
            reader.warn(f"{where}.contextId ignored: a scenario is one context")
        problems = []
        if not isinstance(item.get("id"), str) or not item["id"]:
            problems.append("no id")
        if item.get("type") not in _INVARIANT_TYPES:
            problems.append(f"type {item.get('type')!r} unknown")
        if item.get("strength", "MUST") not in ("MUST", "SHOULD"):
            problems.append(f"strength {item.get('strength')!r} unknown")
        if item.get("minimumAuthority", "RELIABLE") not in AUTHORITIES:
            problems.append(f"minimumAuthority {item.get('minimumAuthority')!r} unknown")
        count = item.get("minimumCount", 1)
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 1000:
            problems.append(f"minimumCount {count!r} is not an integer in [0, 1000]")
        if not isinstance(item.get("unitTextPattern", ""), str):
            problems.append("unitTextPattern is not text")
        if problems:
            reader.warn(f"{where} left out: {'; '.join(problems)}")
            continue
        kept.append({key: item[key] for key in sorted(item) if key in _INVARIANT_FIELDS - {"contextId"}})
    return tuple(kept)


def parse_scenario(document: Any, *, name: str = "scenario") -> Scenario:
    """A Scenario from a decoded YAML document; problems become warnings."""
    reader = _Reader()
    if not isinstance(document, dict):
        reader.warn(f"{name}: the document is not a mapping")
        document = {}
    extras = {key: value for key, value in document.items() if key not in _KNOWN}
    for key in sorted(extras, key=str):
        reader.warn(f"unknown field {key!r} kept as an extra")
    facts = _facts(reader, document.get("groundTruth"))
    seeds = _seeds(reader, document.get("seedUnits"))
    turns = [turn for index, item in enumerate(reader.items(document.get("turns"), "turns"))
             if (turn := _turn(reader, index, item)) is not None]  # fmt: skip
    known_facts = {fact.id for fact in facts}
    for turn in turns:
        if turn.target_fact is not None and turn.target_fact not in known_facts:
            reader.warn(f"turn {turn.turn} targets unknown fact {turn.target_fact!r}")
    assertions = tuple(
        Assertion(
            reader.text(item.get("type"), f"assertions[{index}].type"),
            reader.mapping(item.get("params"), f"assertions[{index}].params"),
        )
        for index, item in enumerate(reader.items(document.get("assertions"), "assertions"))
    )
    for key in ("dormancyConfig", "sessions", "adversaryMode", "adversaryConfig"):
        if document.get(key):
            reader.warn(f"{key} needs a model in the loop: ignored in offline mode")
    return Scenario(
        id=reader.text(document.get("id"), "id", default=name),
        category=reader.text(document.get("category"), "category", default="uncategorized"),
        adversarial=reader.boolean(document.get("adversarial"), "adversarial", False),
        facts=tuple(facts),
        seeds=tuple(seeds),
        turns=tuple(sorted(turns, key=lambda turn: turn.turn)),
        assertions=assertions,
        invariants=_invariants(reader, document.get("invariants")),
        trust_profile=_trust_profile(reader, document.get("trustConfig")),
        compaction_turns=_forced_compactions(reader, document.get("compactionConfig")),
        warnings=tuple(reader.warnings),
        extras=extras,
        setting=reader.text(document.get("setting"), "setting"),
        persona=dict(document["persona"]) if isinstance(document.get("persona"), dict) else {},
    )


def _facts(reader: _Reader, raw: Any) -> list[Fact]:
    """``groundTruth``: the facts the scorer judges (an item without text is skipped)."""
    facts = []
    for index, item in enumerate(reader.items(raw, "groundTruth")):
        where = f"groundTruth[{index}]"
        reader.unknown_keys(item, {"id", "text", "fact", "category", "establishedAt", "retiredAt"}, where)
        text = reader.text(item.get("text", item.get("fact")), f"{where}.text")
        fact_id = reader.text(item.get("id"), f"{where}.id", default=f"fact-{index + 1}")
        if not text:
            reader.warn(f"{where} has no text: skipped")
            continue
        established = item.get("establishedAt")
        retired = item.get("retiredAt")
        facts.append(
            Fact(
                fact_id,
                text.strip(),
                None if established is None else reader.integer(established, f"{where}.establishedAt", 1),
                None if retired is None else reader.integer(retired, f"{where}.retiredAt", 1),
            )
        )
    return facts


def _seeds(reader: _Reader, raw: Any) -> list[SeedUnit]:
    """``seedUnits``: the operator's units (authority RELIABLE unless known, rank clamped to 100..900)."""
    seeds = []
    for index, item in enumerate(reader.items(raw, "seedUnits")):
        where = f"seedUnits[{index}]"
        reader.unknown_keys(item, {"text", "authority", "rank", "pinned"}, where)
        text = reader.text(item.get("text"), f"{where}.text").strip()
        if not text:
            reader.warn(f"{where} has no text: skipped")
        authority = reader.text(item.get("authority"), f"{where}.authority", "RELIABLE").upper()
        if authority not in AUTHORITIES:
            reader.warn(f"{where}.authority {authority!r} unknown: RELIABLE used")
            authority = "RELIABLE"
        rank = min(max(reader.integer(item.get("rank"), f"{where}.rank", 500), 100), 900)
        if text:
            pinned = reader.boolean(item.get("pinned"), f"{where}.pinned", False)
            seeds.append(SeedUnit(text, authority, rank, pinned))
    return seeds


_TURN_FIELDS = {
    "turn", "role", "type", "strategy", "prompt", "targetFact", "confidence", "channel", "asserts",
}  # fmt: skip


def _turn(reader: _Reader, index: int, item: dict[str, Any]) -> Turn | None:
    """One ``turns`` item, or None when it cannot be played (no prompt, no channel, a number below 1)."""
    where = f"turns[{index}]"
    reader.unknown_keys(item, _TURN_FIELDS, where)
    prompt = reader.text(item.get("prompt"), f"{where}.prompt").strip()
    role = reader.text(item.get("role"), f"{where}.role", "PLAYER").upper()
    if not prompt:
        reader.warn(f"{where} has no prompt: skipped")
        return None
    target = item.get("targetFact")
    turn_type = reader.text(item.get("type"), f"{where}.type", "ESTABLISH").upper()
    if turn_type not in TURN_TYPES:
        reader.warn(f"{where}.type {turn_type!r} unknown: played, not evaluated")
    # the turn's channel: its own when known, else its role's ("" when neither names one)
    channel = reader.text(item.get("channel"), f"{where}.channel").strip().lower()
    if channel and channel not in CHANNELS:
        reader.warn(f"{where}.channel {channel!r} unknown: the role decides")
        channel = ""
    channel = channel or ROLE_CHANNELS.get(role, "")
    if not channel:
        reader.warn(f"{where}.role {role!r} names no channel: not played")
        return None
    asserts = item.get("asserts")
    number = reader.integer(item.get("turn"), f"{where}.turn", index + 1)
    if number < 1:
        reader.warn(f"{where}.turn {number} is below 1: not played")
        return None
    return Turn(
        turn=number,
        role=role,
        type=turn_type,
        prompt=prompt,
        strategy=reader.text(item.get("strategy"), f"{where}.strategy") or None,
        target_fact=None if target is None else reader.text(target, f"{where}.targetFact") or None,
        confidence=reader.number(item.get("confidence"), f"{where}.confidence", DEFAULT_PLAYER_CONFIDENCE),
        channel=channel,
        asserts=None if asserts is None else reader.boolean(asserts, f"{where}.asserts", True),
    )


def _trust_profile(reader: _Reader, raw: Any) -> str | None:
    """``trustConfig.profile`` when known (weight overrides are not applied)."""
    trust = reader.mapping(raw, "trustConfig")
    if trust.get("weightOverrides"):
        reader.warn("trustConfig.weightOverrides are not applied: the profile's weights are used")
    if trust.get("profile") is None:
        return None
    profile = reader.text(trust.get("profile"), "trustConfig.profile").upper()
    if profile not in ("BALANCED", "SECURE", "NARRATIVE"):
        reader.warn(f"trustConfig.profile {profile!r} unknown: BALANCED used")
        return None
    return profile


def _forced_compactions(reader: _Reader, raw: Any) -> tuple[int, ...]:
    """``compactionConfig.forceAtTurns`` (positive turns, sorted) when compaction is enabled."""
    compaction = reader.mapping(raw, "compactionConfig")
    if not compaction or not reader.boolean(compaction.get("enabled"), "compactionConfig.enabled", True):
        return ()
    forced = compaction.get("forceAtTurns") or []
    if not isinstance(forced, list):
        forced = [forced]
    turns = {reader.integer(t, "compactionConfig.forceAtTurns", 0) for t in forced if t is not None}
    return tuple(sorted(turn for turn in turns if turn > 0))
