"""Pure rules of the working memory, without a kernel: resolution, text, trust, lifecycle, assembly,
compaction, pressure and operator invariants.

Expected values are written down from the reference (``arc-mem-reference.md``) as literals or computed
independently (decimal, fractions) rather than by calling the code under test a second time.
"""

from __future__ import annotations

import math
from decimal import ROUND_FLOOR, Decimal, localcontext
from fractions import Fraction
from itertools import product

import pytest

from arvis.awmu.assembly import HEADER, assemble, estimate_tokens
from arvis.awmu.compaction import PRESSURE_WINDOW, key_terms, pressure, protected_losses
from arvis.awmu.config import (
    PROFILES,
    AwmuConfig,
    InvariantRule,
    InvariantStrength,
    InvariantType,
)
from arvis.awmu.invariants import Change, check_change
from arvis.awmu.lifecycle import (
    clamp_rank,
    decayed_rank,
    demoted_authority,
    tier_for,
    tier_multiplier,
    upgraded_authority,
)
from arvis.awmu.model import Authority, Tier, Unit, UnitStatus, authority_rank, tier_of
from arvis.awmu.resolution import Conflict, ConflictType, Resolution, detect_lexical, resolve
from arvis.awmu.text import NEGATIONS, content_words, is_negated, jaccard, normalize, words
from arvis.awmu.trust import Zone, assess_trust, ceiling_for

P, U, R, C = Authority.PROVISIONAL, Authority.UNRELIABLE, Authority.RELIABLE, Authority.CANON
KEEP, REPLACE, DEMOTE, COEXIST = (
    Resolution.KEEP_EXISTING,
    Resolution.REPLACE,
    Resolution.DEMOTE_EXISTING,
    Resolution.COEXIST,
)
DEFAULT = AwmuConfig()
TIER_RANK = {Tier.HOT: 700, Tier.WARM: 500, Tier.COLD: 200}


def make_unit(
    unit_id: str = "u1-0",
    *,
    text: str = "The king is dead.",
    authority: Authority = R,
    rank: int = 500,
    pinned: bool = False,
    ceiling: Authority = R,
    status: UnitStatus = UnitStatus.ACTIVE,
    seq: int = 1,
) -> Unit:
    return Unit(
        unit_id=unit_id,
        context_id="ctx",
        text=text,
        rank=rank,
        authority=authority,
        authority_ceiling=ceiling,
        pinned=pinned,
        confidence=1.0,
        tier=tier_of(rank, hot=600, warm=350),
        status=status,
        created_seq=seq,
        updated_seq=seq,
    )


def conflict(kind: ConflictType, confidence: float, unit_id: str = "u1-0") -> Conflict:
    return Conflict(unit_id, kind, confidence, "caller")


# --- resolution table ----------------------------------------------------------------------------

# Thresholds written as literals (no float arithmetic): (replace at, demote at) per authority and tier.
RELIABLE_THRESHOLDS = {Tier.HOT: (0.9, 0.7), Tier.WARM: (0.8, 0.6), Tier.COLD: (0.7, 0.5)}
UNRELIABLE_REPLACE = {Tier.HOT: 0.7, Tier.WARM: 0.6, Tier.COLD: 0.5}
LITERAL_THRESHOLDS = sorted({0.9, 0.8, 0.7, 0.6, 0.5, 0.75})
CONFIDENCES = sorted(
    {0.0, 0.3, 0.45, 0.55, 0.65, 0.85, 0.95, 1.0}
    | set(LITERAL_THRESHOLDS)
    | {math.nextafter(t, 0.0) for t in LITERAL_THRESHOLDS}
    | {math.nextafter(t, 1.0) for t in LITERAL_THRESHOLDS}
)


def expected_contradiction(authority: Authority, tier: Tier, confidence: float) -> Resolution:
    if authority is C:
        return KEEP
    if authority is R:
        replace_at, demote_at = RELIABLE_THRESHOLDS[tier]
        return REPLACE if confidence >= replace_at else DEMOTE if confidence >= demote_at else KEEP
    if authority is U:
        return REPLACE if confidence >= UNRELIABLE_REPLACE[tier] else DEMOTE
    return REPLACE


def expected_revision(authority: Authority, confidence: float, *, reliable_revisable: bool) -> Resolution:
    if authority is C:
        return KEEP
    if authority is P:
        return REPLACE
    if authority is U or reliable_revisable:
        return REPLACE if confidence >= 0.75 else KEEP
    return KEEP


@pytest.mark.parametrize("tier", list(Tier))
@pytest.mark.parametrize("authority", [P, U, R, C])
def test_contradiction_table(authority: Authority, tier: Tier) -> None:
    unit = make_unit(authority=authority, rank=TIER_RANK[tier])
    assert unit.tier is tier
    for confidence in CONFIDENCES:
        got = resolve(DEFAULT, conflict(ConflictType.CONTRADICTION, confidence), unit, R)
        assert got is expected_contradiction(authority, tier, confidence), confidence


@pytest.mark.parametrize("reliable_revisable", [False, True])
@pytest.mark.parametrize("tier", list(Tier))
@pytest.mark.parametrize("authority", [P, U, R, C])
def test_revision_table(authority: Authority, tier: Tier, reliable_revisable: bool) -> None:
    """REVISION ignores the tier bias: PROVISIONAL always replaced, UNRELIABLE (and RELIABLE when
    configured revisable) replaced at the revision threshold, else kept; CANON kept."""
    config = AwmuConfig(reliable_revisable=reliable_revisable)
    unit = make_unit(authority=authority, rank=TIER_RANK[tier])
    for confidence in CONFIDENCES:
        got = resolve(config, conflict(ConflictType.REVISION, confidence), unit, R)
        assert got is expected_revision(authority, confidence, reliable_revisable=reliable_revisable), (
            confidence
        )


def test_revision_threshold_is_configurable() -> None:
    config = AwmuConfig(revision_confidence_threshold=0.9)
    unit = make_unit(authority=U)
    assert resolve(config, conflict(ConflictType.REVISION, 0.9), unit, R) is REPLACE
    assert resolve(config, conflict(ConflictType.REVISION, math.nextafter(0.9, 0)), unit, R) is KEEP


@pytest.mark.parametrize("pinned", [False, True])
@pytest.mark.parametrize("tier", list(Tier))
@pytest.mark.parametrize("authority", [P, U, R, C])
def test_world_progression_always_coexists(authority: Authority, tier: Tier, pinned: bool) -> None:
    unit = make_unit(authority=authority, rank=TIER_RANK[tier], pinned=pinned)
    for confidence in (0.0, 0.5, 0.9, 1.0):
        for ceiling in (P, U, R):
            got = resolve(DEFAULT, conflict(ConflictType.WORLD_PROGRESSION, confidence), unit, ceiling)
            assert got is COEXIST


@pytest.mark.parametrize("kind", [ConflictType.CONTRADICTION, ConflictType.REVISION])
@pytest.mark.parametrize("tier", list(Tier))
@pytest.mark.parametrize("authority", [P, U, R])
def test_pinned_units_are_always_kept(authority: Authority, tier: Tier, kind: ConflictType) -> None:
    unit = make_unit(authority=authority, rank=TIER_RANK[tier], pinned=True)
    for confidence in (0.0, 0.75, 0.9, 1.0):
        assert resolve(AwmuConfig(reliable_revisable=True), conflict(kind, confidence), unit, R) is KEEP


@pytest.mark.parametrize("kind", [ConflictType.CONTRADICTION, ConflictType.REVISION])
def test_canon_is_always_kept(kind: ConflictType) -> None:
    config = AwmuConfig(reliable_revisable=True)
    for tier, pinned, confidence in product(Tier, (False, True), (0.0, 0.9, 1.0)):
        unit = make_unit(authority=C, rank=TIER_RANK[tier], pinned=pinned)
        assert resolve(config, conflict(kind, confidence), unit, R) is KEEP


@pytest.mark.parametrize("kind", [ConflictType.CONTRADICTION, ConflictType.REVISION])
@pytest.mark.parametrize("tier", list(Tier))
def test_low_trust_ceiling_cannot_touch_higher_authority(kind: ConflictType, tier: Tier) -> None:
    """A proposal whose trust ceiling is below the unit's authority keeps the unit, at any confidence."""
    config = AwmuConfig(reliable_revisable=True)
    for existing, ceiling in [(U, P), (R, P), (R, U)]:
        unit = make_unit(authority=existing, rank=TIER_RANK[tier])
        for confidence in (0.5, 0.9, 1.0):
            assert resolve(config, conflict(kind, confidence), unit, ceiling) is KEEP, (existing, ceiling)
    # a ceiling equal to the unit's authority is enough to act on it
    assert resolve(config, conflict(kind, 1.0), make_unit(authority=U, rank=TIER_RANK[tier]), U) is REPLACE
    assert resolve(config, conflict(kind, 1.0), make_unit(authority=P, rank=TIER_RANK[tier]), P) is REPLACE


def test_floating_point_edges_of_the_tier_bias() -> None:
    hot_reliable = make_unit(authority=R, rank=700)
    cold_unreliable = make_unit(authority=U, rank=200)
    assert hot_reliable.tier is Tier.HOT and cold_unreliable.tier is Tier.COLD
    contradiction = ConflictType.CONTRADICTION
    # 0.9 against RELIABLE in HOT (0.8 + 0.1): replaced; just below: demoted
    assert resolve(DEFAULT, conflict(contradiction, 0.9), hot_reliable, R) is REPLACE
    assert resolve(DEFAULT, conflict(contradiction, math.nextafter(0.9, 0)), hot_reliable, R) is DEMOTE
    # 0.7 against RELIABLE in HOT (0.6 + 0.1): demoted; just below: kept
    assert resolve(DEFAULT, conflict(contradiction, 0.7), hot_reliable, R) is DEMOTE
    assert resolve(DEFAULT, conflict(contradiction, math.nextafter(0.7, 0)), hot_reliable, R) is KEEP
    # 0.5 against UNRELIABLE in COLD (0.6 - 0.1): replaced; just below: demoted
    assert resolve(DEFAULT, conflict(contradiction, 0.5), cold_unreliable, R) is REPLACE
    assert resolve(DEFAULT, conflict(contradiction, math.nextafter(0.5, 0)), cold_unreliable, R) is DEMOTE


def test_tier_of_the_existing_unit_decides_the_bias_at_tier_boundaries() -> None:
    at_hot = make_unit(authority=R, rank=600)
    below_hot = make_unit(authority=R, rank=599)
    at_warm = make_unit(authority=R, rank=350)
    below_warm = make_unit(authority=R, rank=349)
    assert (at_hot.tier, below_hot.tier, at_warm.tier, below_warm.tier) == (
        Tier.HOT,
        Tier.WARM,
        Tier.WARM,
        Tier.COLD,
    )
    c85 = conflict(ConflictType.CONTRADICTION, 0.85)
    assert resolve(DEFAULT, c85, at_hot, R) is DEMOTE
    assert resolve(DEFAULT, c85, below_hot, R) is REPLACE
    c55 = conflict(ConflictType.CONTRADICTION, 0.55)
    assert resolve(DEFAULT, c55, at_warm, R) is KEEP
    assert resolve(DEFAULT, c55, below_warm, R) is DEMOTE


# --- text ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The KING is dead!", "the king is dead"),
        ("  the   king,is...dead  ", "the king is dead"),
        ("Élara's  tavern\t(2)", "élara s tavern 2"),
        ("STRASSE_und_Straße", "strasse und strasse"),
        ("!!!", ""),
        ("", ""),
    ],
)
def test_normalize(text: str, expected: str) -> None:
    assert normalize(text) == expected


def test_duplicates_are_normalised_string_equality() -> None:
    assert normalize("The king is dead.") == normalize("the KING   is dead")
    assert normalize("The king is dead.") == normalize("The king, is dead!!")
    assert normalize("The king is dead.") != normalize("The king is not dead.")
    assert normalize("The king is dead.") != normalize("The kings are dead.")


@pytest.mark.parametrize("word", ["nothing", "north", "knot", "normal", "another", "note", "snow"])
def test_substrings_of_negations_are_not_negations(word: str) -> None:
    text = f"The king knows {word}"
    assert not is_negated(text)
    assert word in content_words(text)
    # no lexical conflict with the same statement without the word (overlap 3/4 > 0.5)
    unit = make_unit(text="The king knows")
    assert detect_lexical(DEFAULT, text, [unit]) == []
    # control: a real negation in the same place does conflict
    assert is_negated("The king knows not")
    assert len(detect_lexical(DEFAULT, "The king knows not", [unit])) == 1


@pytest.mark.parametrize("word", sorted(NEGATIONS))
def test_whole_word_negations(word: str) -> None:
    assert is_negated(f"The king {word} sleeps")
    assert is_negated(f"{word.upper()}, the king sleeps")


@pytest.mark.parametrize(
    ("negated", "plain"),
    [
        ("The king isn't dead", "The king is dead"),
        ("The guard can't sleep", "The guard can sleep"),
        ("The guard won't sleep", "The guard will sleep"),
        ("The guards don't sleep", "The guards do sleep"),
        ("The guard doesn't sleep", "The guard does sleep"),
        ("The guard cannot sleep", "The guard can sleep"),
        ("The guard can\u2019t sleep", "The guard can sleep"),
    ],
)
def test_contractions_are_negations(negated: str, plain: str) -> None:
    assert is_negated(negated)
    assert not is_negated(plain)
    assert content_words(negated) == content_words(plain)
    found = detect_lexical(DEFAULT, negated, [make_unit(text=plain)])
    assert [(c.unit_id, c.type, c.confidence, c.detector) for c in found] == [
        ("u1-0", ConflictType.CONTRADICTION, 0.75, "lexical")
    ]
    found = detect_lexical(DEFAULT, plain, [make_unit(text=negated)])
    assert len(found) == 1


def test_words_expands_contractions() -> None:
    assert words("It isn't; I can't, won't, don't") == [
        "it",
        "is",
        "not",
        "i",
        "can",
        "not",
        "will",
        "not",
        "do",
        "not",
    ]
    assert words("The king's crown") == ["the", "king", "crown"]


def test_words_splits_every_cannot() -> None:
    assert words("x cannot y CANNOT z") == ["x", "can", "not", "y", "can", "not", "z"]


def test_words_are_unicode_letters_and_digits() -> None:
    assert words("Café déjà-vu, Ωmega 42") == ["café", "déjà", "vu", "ωmega", "42"]
    assert is_negated("Élara n'est pas là; she is not here")
    assert not is_negated("Élara est là")


def test_no_conflict_when_both_or_neither_negated() -> None:
    both = make_unit(text="The king is not dead")
    assert detect_lexical(DEFAULT, "The king isn't dead", [both]) == []
    assert detect_lexical(DEFAULT, "The king is never dead", [both]) == []
    neither = make_unit(text="The king is dead")
    assert detect_lexical(DEFAULT, "The king is dead today", [neither]) == []


def test_lexical_overlap_threshold_is_strict() -> None:
    # content words {a, b, c} vs {a, b, d}: jaccard 2/4 = 0.5, not above 0.5
    unit = make_unit(text="alpha beta delta")
    assert jaccard(content_words("alpha beta gamma not"), content_words(unit.text)) == 0.5
    assert detect_lexical(DEFAULT, "alpha beta gamma not", [unit]) == []
    assert len(detect_lexical(AwmuConfig(lexical_conflict_overlap=0.49), "alpha beta gamma not", [unit])) == 1
    # 3/5 = 0.6 > 0.5
    unit = make_unit(text="alpha beta gamma delta")
    assert len(detect_lexical(DEFAULT, "alpha beta gamma epsilon not", [unit])) == 1
    # unrelated texts never conflict
    assert detect_lexical(DEFAULT, "no dragons here", [make_unit(text="The king is dead")]) == []


def test_detect_lexical_reports_every_conflicting_unit_with_configured_confidence() -> None:
    config = AwmuConfig(lexical_conflict_confidence=0.66)
    units = [
        make_unit("u1-0", text="The king is dead"),
        make_unit("u2-0", text="The KING is dead!"),
        make_unit("u3-0", text="The queen is alive"),
        make_unit("u4-0", text="The king is not dead"),
    ]
    found = detect_lexical(config, "The king isn't dead", units)
    assert [(c.unit_id, c.confidence) for c in found] == [("u1-0", 0.66), ("u2-0", 0.66)]


def test_jaccard() -> None:
    assert jaccard(frozenset(), frozenset()) == 0.0
    assert jaccard(frozenset({"a"}), frozenset()) == 0.0
    assert jaccard(frozenset({"a", "b"}), frozenset({"b", "c"})) == 1 / 3


# --- trust ---------------------------------------------------------------------------------------

WEIGHTS = {  # from the reference table
    "BALANCED": (0.22, 0.22, 0.22, 0.22, 0.06, 0.06, 0.65, 0.40),
    "SECURE": (0.18, 0.18, 0.36, 0.18, 0.05, 0.05, 0.85, 0.50),
    "NARRATIVE": (0.35, 0.25, 0.15, 0.15, 0.05, 0.05, 0.60, 0.35),
}
SIGNALS = (
    "source_authority",
    "extraction_confidence",
    "graph_consistency",
    "corroboration",
    "novelty",
    "importance",
)


@pytest.mark.parametrize("name", sorted(WEIGHTS))
def test_profile_weights_match_the_reference(name: str) -> None:
    profile = PROFILES[name]
    got = tuple(getattr(profile, field) for field in (*SIGNALS, "auto_promote", "review"))
    assert got == WEIGHTS[name]
    assert sum(Fraction(str(w)) for w in WEIGHTS[name][:6]) == 1


@pytest.mark.parametrize("name", sorted(WEIGHTS))
def test_trust_score_is_the_weighted_sum(name: str) -> None:
    config = AwmuConfig(trust_profile=name)
    active = [make_unit(text="The king is dead")]
    # proposal content {the, king, sleeps, in, castle}; unit {the, king, is, dead}
    got = assess_trust(
        config,
        text="The king sleeps in the castle",
        source="dm",
        confidence=0.8,
        active=active,
        corroborating_sources=1,
    )
    signals = {
        "source_authority": Fraction("0.9"),
        "extraction_confidence": Fraction("0.8"),
        "graph_consistency": Fraction(2, 7),
        "corroboration": Fraction("0.3"),
        "novelty": Fraction(5, 7),
        "importance": Fraction(2, 5),
    }
    for key, value in signals.items():
        assert got.signals[key] == pytest.approx(float(value), abs=1e-12), key
    expected = sum(
        signals[key] * Fraction(str(weight)) for key, weight in zip(SIGNALS, WEIGHTS[name], strict=False)
    )
    assert got.score == pytest.approx(float(expected), abs=1e-6)
    assert got.score == round(got.score, 6)
    auto, review = WEIGHTS[name][6:]
    zone = Zone.AUTO_PROMOTE if expected >= auto else Zone.REVIEW if expected >= review else Zone.ARCHIVE
    assert got.zone is zone
    assert got.ceiling is ceiling_for(got.score)


def test_trust_signals_without_active_units() -> None:
    got = assess_trust(
        DEFAULT, text="A storm gathers", source="stranger", confidence=0.7, active=[], corroborating_sources=1
    )
    assert got.signals == {
        "source_authority": 0.5,
        "extraction_confidence": 0.7,
        "graph_consistency": 0.5,
        "corroboration": 0.3,
        "novelty": 1.0,
        "importance": 0.0,
    }
    assert got.score == pytest.approx(0.22 * (0.5 + 0.7 + 0.5 + 0.3) + 0.06, abs=1e-6)


@pytest.mark.parametrize(("sources", "value"), [(0, 0.3), (1, 0.3), (2, 0.6), (3, 0.9), (7, 0.9)])
def test_corroboration_by_distinct_sources(sources: int, value: float) -> None:
    got = assess_trust(
        DEFAULT, text="A storm", source="dm", confidence=0.9, active=[], corroborating_sources=sources
    )
    assert got.signals["corroboration"] == value


def test_source_authorities_per_source() -> None:
    for source, value in [("system", 1.0), ("dm", 0.9), ("player", 0.3), ("other", 0.5)]:
        got = assess_trust(
            DEFAULT, text="x", source=source, confidence=0.9, active=[], corroborating_sources=1
        )
        assert got.signals["source_authority"] == value


# Two shapes of context for which every signal but the source authority is known exactly:
# no active unit (graph 0.5, novelty 1, importance 0) or one active unit with the same words
# (graph 1, novelty 0, importance 1).
SHAPES = {"empty": (0.5, 1.0, 0.0), "same": (1.0, 0.0, 1.0)}


def _solve_source_authority(name: str, target: float) -> tuple[str, float, int, float] | None:
    """Shape, confidence, source count and source authority for which a proposal scores exactly
    ``target`` before the 6-place rounding."""
    sa, ec, gc, co, nov, imp, _, _ = WEIGHTS[name]
    for shape, (graph, novelty, importance) in SHAPES.items():
        for sources, corroboration in ((1, 0.3), (2, 0.6), (3, 0.9)):
            for tenths in range(10, -1, -1):
                confidence = tenths / 10
                rest = ec * confidence + gc * graph + co * corroboration + nov * novelty + imp * importance
                authority = (target - rest) / sa
                if 0.05 <= authority <= 0.95:
                    return shape, confidence, sources, authority
    return None


def _assess_at(
    name: str, shape: str, confidence: float, sources: int, authority: float, *, enabled: bool = True
):
    config = AwmuConfig(trust_profile=name, source_authorities={"src": authority}, trust_enabled=enabled)
    active = [] if shape == "empty" else [make_unit(text="Alpha, beta!")]
    got = assess_trust(
        config,
        text="alpha beta",
        source="src",
        confidence=confidence,
        active=active,
        corroborating_sources=sources,
    )
    graph, novelty, importance = SHAPES[shape]
    assert (got.signals["graph_consistency"], got.signals["novelty"], got.signals["importance"]) == (
        graph,
        novelty,
        importance,
    )
    return got


ZONE_CASES = [
    (name, threshold, above, below)
    for name in sorted(WEIGHTS)
    for threshold, above, below in (
        (WEIGHTS[name][6], Zone.AUTO_PROMOTE, Zone.REVIEW),
        (WEIGHTS[name][7], Zone.REVIEW, Zone.ARCHIVE),
    )
]


@pytest.mark.parametrize(("name", "threshold", "at", "below"), ZONE_CASES)
def test_zone_at_exact_threshold(name: str, threshold: float, at: Zone, below: Zone) -> None:
    solved = _solve_source_authority(name, threshold)
    assert solved is not None
    exact = _assess_at(name, *solved)
    assert exact.score == threshold
    assert exact.zone is at
    shape, confidence, sources, authority = solved
    lower = _assess_at(name, shape, confidence, sources, authority - 1e-4)
    assert lower.score < threshold
    assert lower.zone is below
    higher = _assess_at(name, shape, confidence, sources, authority + 1e-4)
    assert higher.zone is at


def test_ceiling_thresholds() -> None:
    assert ceiling_for(1.0) is R
    assert ceiling_for(0.80) is R
    assert ceiling_for(math.nextafter(0.80, 0)) is U
    assert ceiling_for(0.50) is U
    assert ceiling_for(math.nextafter(0.50, 0)) is P
    assert ceiling_for(0.0) is P


CEILING_CASES = [
    (name, threshold, at, below)
    for name in sorted(WEIGHTS)
    for threshold, at, below in ((0.80, R, U), (0.50, U, P))
    if _solve_source_authority(name, threshold) is not None
]


def test_ceiling_cases_cover_each_threshold() -> None:
    assert {(name, t) for name, t, _, _ in CEILING_CASES} == {
        (name, t) for name in WEIGHTS for t in (0.8, 0.5)
    }


@pytest.mark.parametrize(("name", "threshold", "at", "below"), CEILING_CASES)
def test_ceiling_at_exact_trust_threshold(
    name: str, threshold: float, at: Authority, below: Authority
) -> None:
    solved = _solve_source_authority(name, threshold)
    assert solved is not None
    exact = _assess_at(name, *solved)
    assert exact.score == threshold
    assert exact.ceiling is at
    shape, confidence, sources, authority = solved
    assert _assess_at(name, shape, confidence, sources, authority - 1e-4).ceiling is below


def test_trust_never_gives_a_canon_ceiling() -> None:
    config = AwmuConfig(source_authorities={"god": 1.0})
    got = assess_trust(
        config,
        text="x y",
        source="god",
        confidence=1.0,
        active=[make_unit(text="x y z")],
        corroborating_sources=9,
    )
    assert got.ceiling is R


def test_trust_disabled_promotes_with_reliable_ceiling() -> None:
    low = _assess_at("BALANCED", "empty", 0.0, 1, 0.0, enabled=False)
    assert low.zone is Zone.AUTO_PROMOTE
    assert low.ceiling is R
    assert low.score == pytest.approx(0.22 * (0.5 + 0.3) + 0.06, abs=1e-6)
    enabled = _assess_at("BALANCED", "empty", 0.0, 1, 0.0)
    assert enabled.zone is Zone.ARCHIVE and enabled.ceiling is P


# --- lifecycle -----------------------------------------------------------------------------------

MULTIPLIERS = {Tier.HOT: "1.5", Tier.WARM: "1.0", Tier.COLD: "0.6"}


def _expected_decay(rank: int) -> int:
    """rank · exp(ln(0.5) / (12 · tier multiplier)), floored and clamped, in 60-digit decimal."""
    tier = Tier.HOT if rank >= 600 else Tier.WARM if rank >= 350 else Tier.COLD
    with localcontext() as ctx:
        ctx.prec = 60
        half_life = Decimal("12") * Decimal(MULTIPLIERS[tier])
        factor = (Decimal("0.5").ln() / half_life).exp()
        value = int((Decimal(rank) * factor).to_integral_value(rounding=ROUND_FLOOR))
    return max(100, min(900, value))


def test_decayed_rank_matches_an_independent_decimal_computation() -> None:
    for rank in range(100, 901):
        assert decayed_rank(DEFAULT, rank) == _expected_decay(rank), rank


def test_decay_spot_values() -> None:
    assert decayed_rank(DEFAULT, 700) == 673  # HOT: half-life 18 turns
    assert decayed_rank(DEFAULT, 500) == 471  # WARM: 12 turns
    assert decayed_rank(DEFAULT, 300) == 272  # COLD: 7.2 turns


def test_hot_decays_slowest() -> None:
    loss = {tier: 1 - decayed_rank(DEFAULT, r) / r for tier, r in TIER_RANK.items()}
    assert loss[Tier.HOT] < loss[Tier.WARM] < loss[Tier.COLD]
    # across the HOT/WARM and WARM/COLD boundaries: the higher tier loses a smaller share
    assert decayed_rank(DEFAULT, 600) / 600 > decayed_rank(DEFAULT, 599) / 599
    assert decayed_rank(DEFAULT, 350) / 350 > decayed_rank(DEFAULT, 349) / 349
    assert (
        tier_multiplier(DEFAULT, Tier.HOT)
        > tier_multiplier(DEFAULT, Tier.WARM)
        > tier_multiplier(DEFAULT, Tier.COLD)
    )


def test_decay_is_monotone_and_clamped() -> None:
    previous = None
    for rank in range(100, 901):
        value = decayed_rank(DEFAULT, rank)
        assert 100 <= value <= rank
        if rank > 100:
            assert value < rank
        if previous is not None and tier_for(DEFAULT, rank) is tier_for(DEFAULT, rank - 1):
            assert value >= previous
        previous = value
    assert decayed_rank(DEFAULT, 100) == 100
    assert decayed_rank(AwmuConfig(min_rank=200), 205) == 200


def test_half_life_is_configurable() -> None:
    config = AwmuConfig(half_life_turns=1.0, warm_multiplier=1.0)
    assert decayed_rank(config, 500) == 250
    config = AwmuConfig(half_life_turns=2.0, hot_multiplier=0.5)
    assert decayed_rank(config, 800) == 400


def test_clamp_rank() -> None:
    assert clamp_rank(DEFAULT, 50) == 100
    assert clamp_rank(DEFAULT, 100) == 100
    assert clamp_rank(DEFAULT, 900) == 900
    assert clamp_rank(DEFAULT, 950) == 900
    assert clamp_rank(AwmuConfig(min_rank=200, max_rank=800), 850) == 800


@pytest.mark.parametrize(
    ("authority", "count", "ceiling", "expected"),
    [
        (P, 1, R, P),
        (P, 2, R, P),
        (P, 3, R, U),
        (P, 3, U, U),
        (P, 3, P, P),
        (U, 3, R, U),
        (U, 6, R, U),
        (U, 7, R, R),
        (U, 7, U, U),
        (U, 7, P, U),  # never down
        (R, 7, P, R),  # never down
        (R, 100, R, R),  # never to CANON
        (C, 100, P, C),  # never down, even under a low ceiling
        (P, 7, R, R),
        (P, 7, U, U),
    ],
)
def test_upgraded_authority(
    authority: Authority, count: int, ceiling: Authority, expected: Authority
) -> None:
    assert upgraded_authority(DEFAULT, authority, count, ceiling) is expected


def test_upgraded_authority_never_reaches_canon_or_goes_down() -> None:
    for authority, count, ceiling in product([P, U, R, C], range(0, 12), [P, U, R, C]):
        got = upgraded_authority(DEFAULT, authority, count, ceiling)
        assert authority_rank(got) >= authority_rank(authority)
        if authority is not C:
            assert got is not C
            assert authority_rank(got) <= max(authority_rank(authority), authority_rank(ceiling))


@pytest.mark.parametrize(
    ("authority", "rank", "expected"),
    [
        (R, 400, R),
        (R, 399, U),
        (R, 200, U),
        (R, 199, P),
        (U, 200, U),
        (U, 199, P),
        (U, 399, U),
        (P, 100, P),
        (C, 100, C),
        (R, 900, R),
    ],
)
def test_demoted_authority(authority: Authority, rank: int, expected: Authority) -> None:
    assert demoted_authority(DEFAULT, authority, rank) is expected


# --- assembly ------------------------------------------------------------------------------------


def _units_for_assembly() -> list[Unit]:
    return [
        make_unit("u1-0", text="Magic is real.", authority=C, rank=300),
        make_unit("u2-0", text="The king is dead.", authority=R, rank=800),
        make_unit("u3-0", text="The bridge is broken.", authority=R, rank=400),
        make_unit("u4-0", text="Elara keeps the tavern.", authority=U, rank=700),
        make_unit("u5-0", text="A storm gathers.", authority=P, rank=900),
        make_unit("u6-0", text="Gold is scarce.", authority=P, rank=200),
    ]


def test_assembly_groups_wording_and_numbering() -> None:
    block = assemble(list(reversed(_units_for_assembly())), token_budget=0, chars_per_token=4)
    lines = block.text.split("\n")
    assert lines[0] == HEADER
    assert lines[1].startswith("CANON") and "MUST be preserved" in lines[1]
    assert lines[2] == "1. Magic is real. (activation score: 300)"
    assert lines[3].startswith("RELIABLE") and "MUST be preserved" in lines[3]
    assert lines[4] == "1. The king is dead. (activation score: 800)"
    assert lines[5] == "2. The bridge is broken. (activation score: 400)"
    assert lines[6].startswith("UNRELIABLE") and "SHOULD be considered" in lines[6]
    assert lines[7] == "1. Elara keeps the tavern. (activation score: 700)"
    assert lines[8].startswith("PROVISIONAL") and "MAY be reconsidered" in lines[8]
    assert lines[9] == "1. A storm gathers. (activation score: 900)"
    assert lines[10] == "2. Gold is scarce. (activation score: 200)"
    assert len(lines) == 11
    assert block.dropped == ()
    assert block.over_budget is False
    assert block.estimated_tokens == -(-len(block.text) // 4)
    assert set(block.included) == {f"u{i}-0" for i in range(1, 7)}


def test_assembly_skips_empty_groups_and_empty_input() -> None:
    block = assemble([make_unit(authority=U)], token_budget=0, chars_per_token=4)
    assert block.text.split("\n")[1].startswith("UNRELIABLE")
    assert "CANON" not in block.text and "RELIABLE facts" not in block.text.replace("UNRELIABLE", "")
    empty = assemble([], token_budget=10, chars_per_token=4)
    assert (empty.text, empty.included, empty.dropped, empty.estimated_tokens, empty.over_budget) == (
        "",
        (),
        (),
        0,
        False,
    )


def test_estimate_tokens_rounds_up() -> None:
    assert estimate_tokens("", 4) == 0
    assert estimate_tokens("abcd", 4) == 1
    assert estimate_tokens("abcde", 4) == 2
    assert estimate_tokens("abcde", 1) == 5


DROP_ORDER = ["u6-0", "u5-0", "u4-0", "u3-0", "u2-0"]  # PROVISIONAL, UNRELIABLE, RELIABLE, lowest first


def test_token_budget_drops_in_order_and_never_canon() -> None:
    units = _units_for_assembly()
    full = assemble(units, token_budget=0, chars_per_token=4).estimated_tokens
    by_id = {unit.unit_id: unit for unit in units}
    seen_counts = set()
    for budget in range(full + 5, 0, -1):
        block = assemble(units, token_budget=budget, chars_per_token=4)
        k = len(block.dropped)
        assert list(block.dropped) == DROP_ORDER[:k]
        assert "u1-0" in block.included
        # minimal: the block without the first k - 1 victims did not fit
        if k > 0:
            bigger = [by_id[i] for i in by_id if i not in DROP_ORDER[: k - 1]]
            assert assemble(bigger, token_budget=0, chars_per_token=4).estimated_tokens > budget
        fits = block.estimated_tokens <= budget
        assert block.over_budget is (not fits)
        if not fits:
            assert block.included == ("u1-0",)
        seen_counts.add(k)
    assert seen_counts == set(range(len(DROP_ORDER) + 1))


def test_over_budget_when_canon_alone_exceeds() -> None:
    units = [make_unit("u1-0", authority=C, text="x" * 200), make_unit("u2-0", authority=P)]
    block = assemble(units, token_budget=10, chars_per_token=4)
    assert block.included == ("u1-0",)
    assert block.dropped == ("u2-0",)
    assert block.over_budget is True
    assert block.estimated_tokens > 10


def test_drop_tie_breaks_on_highest_id_within_a_rank() -> None:
    units = [
        make_unit("u1-0", text="First fact.", authority=P, rank=500),
        make_unit("u2-0", text="Second fact.", authority=P, rank=500),
    ]
    full = assemble(units, token_budget=0, chars_per_token=4).estimated_tokens
    block = assemble(units, token_budget=full - 1, chars_per_token=4)
    assert block.dropped == ("u2-0",)


# --- compaction and pressure ---------------------------------------------------------------------


def test_key_terms() -> None:
    assert key_terms("The dragon sleeps under the mountain") == ("dragon", "sleeps", "under", "mountain")
    assert key_terms("The king is not dead") == ("king", "not", "dead")
    assert key_terms("The king isn't dead, the KING") == ("king", "not", "dead")
    assert key_terms("A b c") == ()


def test_protected_units_are_canon_pinned_and_reliable() -> None:
    units = [
        make_unit("u1-0", text="alpha", authority=C),
        make_unit("u2-0", text="bravo", authority=R),
        make_unit("u3-0", text="charlie", authority=U, pinned=True),
        make_unit("u4-0", text="delta", authority=U),
        make_unit("u5-0", text="echo", authority=P),
    ]
    protected, losses = protected_losses(units, "", strict=False)
    assert protected == 3
    assert [loss.unit_id for loss in losses] == ["u1-0", "u2-0", "u3-0"]


def test_protected_losses_default_needs_half_the_terms_as_substrings() -> None:
    unit = make_unit(text="The dragon sleeps under the mountain")  # 4 key terms
    assert protected_losses([unit], "dragon and mountain", strict=False)[1] == []  # 2 of 4
    assert protected_losses([unit], "Dragons, mountains.", strict=False)[1] == []  # substrings count
    _, losses = protected_losses([unit], "a dragon", strict=False)  # 1 of 4
    assert [(loss.unit_id, loss.missing_terms) for loss in losses] == [
        ("u1-0", ("sleeps", "under", "mountain"))
    ]
    # a unit without key terms is never lost
    assert protected_losses([make_unit(text="A b c")], "", strict=False) == (1, [])


def test_protected_losses_strict_needs_every_term_as_a_word() -> None:
    unit = make_unit(text="The king is not dead")
    assert protected_losses([unit], "The king is not dead.", strict=True)[1] == []
    assert protected_losses([unit], "the KING isn't dead", strict=True)[1] == []
    _, losses = protected_losses([unit], "The king is dead", strict=True)
    assert losses[0].missing_terms == ("not",)
    # the default check lets the dropped negation through (2 of 3 terms)
    assert protected_losses([unit], "The king is dead", strict=False)[1] == []
    _, losses = protected_losses([make_unit(text="The dragon sleeps")], "dragons sleeps", strict=True)
    assert losses[0].missing_terms == ("dragon",)


def test_pressure_formula() -> None:
    config = AwmuConfig(budget=10)
    got = pressure(config, active=4, conflicts=2, demotions=1, compactions=7)
    assert PRESSURE_WINDOW == 5
    with localcontext() as ctx:
        ctx.prec = 40
        utilisation = Decimal("0.4") ** Decimal("1.5")
    expected = (
        Decimal("0.4") * utilisation
        + Decimal("0.3") * Decimal(2) / 5
        + Decimal("0.2") * Decimal(1) / 5
        + Decimal("0.1") * 1
    )
    assert got["utilisation"] == pytest.approx(float(utilisation), abs=1e-12)
    assert (got["conflicts"], got["demotions"], got["compactions"]) == (0.4, 0.2, 1.0)
    assert got["score"] == pytest.approx(float(expected), abs=1e-12)


def test_pressure_bounds() -> None:
    config = AwmuConfig(budget=4)
    assert pressure(config, active=0, conflicts=0, demotions=0, compactions=0)["score"] == 0.0
    full = pressure(config, active=4, conflicts=5, demotions=5, compactions=5)
    assert full["score"] == pytest.approx(1.0) and full["score"] <= 1.0
    over = pressure(config, active=9, conflicts=50, demotions=50, compactions=50)
    assert over["score"] <= 1.0 and over["utilisation"] == 1.0
    assert pressure(config, active=4, conflicts=0, demotions=0, compactions=0)["score"] == pytest.approx(0.4)
    assert pressure(config, active=1, conflicts=0, demotions=0, compactions=0)["score"] == pytest.approx(
        0.4 * 0.25**1.5
    )


# --- invariants ----------------------------------------------------------------------------------


def _rule(
    kind: InvariantType, strength: InvariantStrength = InvariantStrength.MUST, **extra
) -> InvariantRule:
    return InvariantRule(id="r1", type=kind, strength=strength, unit_text_pattern="king", **extra)


def _with(unit: Unit, **changes) -> Unit:
    import msgspec

    return msgspec.structs.replace(unit, **changes)


KING = make_unit("u1-0", text="The KING is dead", authority=R)
QUEEN = make_unit("u2-0", text="The queen is dead", authority=R)


@pytest.mark.parametrize("strength", list(InvariantStrength))
def test_authority_floor(strength: InvariantStrength) -> None:
    rule = _rule(InvariantType.AUTHORITY_FLOOR, strength, minimum_authority=R)
    demoted = _with(KING, authority=U)
    found = check_change([rule], KING, demoted, Change.DEMOTE, [KING])
    assert [(v.rule_id, v.strength) for v in found] == [("r1", strength)]
    assert "u1-0" in found[0].message
    # unmatched text, or a change that leaves the active set, is not covered
    assert check_change([rule], QUEEN, _with(QUEEN, authority=U), Change.DEMOTE, [QUEEN]) == []
    gone = _with(KING, status=UnitStatus.ARCHIVED)
    assert check_change([rule], KING, gone, Change.ARCHIVE, [KING]) == []
    # a floor of UNRELIABLE lets RELIABLE -> UNRELIABLE through
    lower = _rule(InvariantType.AUTHORITY_FLOOR, minimum_authority=U)
    assert check_change([lower], KING, demoted, Change.DEMOTE, [KING]) == []


def test_eviction_immunity() -> None:
    rule = _rule(InvariantType.EVICTION_IMMUNITY)
    evicted = _with(KING, status=UnitStatus.EVICTED)
    assert len(check_change([rule], KING, evicted, Change.EVICT, [KING])) == 1
    archived = _with(KING, status=UnitStatus.ARCHIVED)
    assert check_change([rule], KING, archived, Change.ARCHIVE, [KING]) == []
    assert check_change([rule], QUEEN, _with(QUEEN, status=UnitStatus.EVICTED), Change.EVICT, [QUEEN]) == []


@pytest.mark.parametrize(
    ("change", "status"),
    [
        (Change.ARCHIVE, UnitStatus.ARCHIVED),
        (Change.EVICT, UnitStatus.EVICTED),
        (Change.SUPERSEDE, UnitStatus.SUPERSEDED),
    ],
)
def test_archive_prohibition_covers_every_exit(change: Change, status: UnitStatus) -> None:
    rule = _rule(InvariantType.ARCHIVE_PROHIBITION, InvariantStrength.SHOULD)
    found = check_change([rule], KING, _with(KING, status=status), change, [KING])
    assert [(v.rule_id, v.strength) for v in found] == [("r1", InvariantStrength.SHOULD)]
    # a demotion keeps the unit active: not covered
    assert check_change([rule], KING, _with(KING, authority=U), Change.DEMOTE, [KING]) == []


def test_min_authority_count() -> None:
    rule = _rule(InvariantType.MIN_AUTHORITY_COUNT, minimum_authority=R, minimum_count=2)
    other_king = make_unit("u3-0", text="The king had a son", authority=R)
    active = [KING, other_king, QUEEN]
    # two matching RELIABLE units: demoting one leaves 1 < 2
    assert len(check_change([rule], KING, _with(KING, authority=U), Change.DEMOTE, active)) == 1
    assert (
        len(check_change([rule], KING, _with(KING, status=UnitStatus.ARCHIVED), Change.ARCHIVE, active)) == 1
    )
    # with a third matching unit it is allowed
    third = make_unit("u4-0", text="Long live the king", authority=C)
    assert check_change([rule], KING, _with(KING, authority=U), Change.DEMOTE, [*active, third]) == []
    # minimum 1: one left is enough
    one = _rule(InvariantType.MIN_AUTHORITY_COUNT, minimum_authority=R, minimum_count=1)
    assert check_change([one], KING, _with(KING, authority=U), Change.DEMOTE, active) == []
    # a change that does not lower the count is allowed even while the rule is unmet
    low_king = make_unit("u5-0", text="A king of nothing", authority=P)
    gone = _with(low_king, status=UnitStatus.ARCHIVED)
    assert check_change([rule], low_king, gone, Change.ARCHIVE, [KING, low_king]) == []
    # ... but lowering it further is not
    assert len(check_change([rule], KING, _with(KING, authority=U), Change.DEMOTE, [KING, low_king])) == 1


def test_several_rules_report_each_violation_with_its_strength() -> None:
    rules = [
        InvariantRule(id="must", type=InvariantType.ARCHIVE_PROHIBITION, unit_text_pattern="king"),
        InvariantRule(
            id="should",
            type=InvariantType.EVICTION_IMMUNITY,
            strength=InvariantStrength.SHOULD,
            unit_text_pattern="",
        ),
    ]
    found = check_change(rules, KING, _with(KING, status=UnitStatus.EVICTED), Change.EVICT, [KING])
    assert [(v.rule_id, v.strength) for v in found] == [
        ("must", InvariantStrength.MUST),
        ("should", InvariantStrength.SHOULD),
    ]
    # an empty pattern matches every unit
    assert len(check_change(rules[1:], QUEEN, _with(QUEEN, status=UnitStatus.EVICTED), Change.EVICT, [])) == 1
