"""The value detector: the same subject and relation with a different value, read from the text alone."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arvis.awmu.values import (
    RELATED_SUBJECT,
    VALUE_DETECTOR,
    VALUE_DETECTOR_VERSION,
    Value,
    ValueFinding,
    detect_values,
    same_values,
    subject_overlap,
    values_of,
)


def _one(existing: str, incoming: str, related: float | None = None) -> ValueFinding | None:
    found = detect_values(incoming, [("u", existing)], None if related is None else {"u": related})
    assert len(found) <= 1
    return found[0] if found else None


def _norms(text: str, key: str) -> list[str]:
    return [value.norm for value in values_of(text) if value.key == key]


def test_names_and_version() -> None:
    assert VALUE_DETECTOR == "value"
    assert VALUE_DETECTOR_VERSION == "3"


# ----------------------------------------------------------------------------------------- extraction


@pytest.mark.parametrize(
    ("text", "key", "norms"),
    [
        ("eighteen thousand euros", "number:eur", ["18000"]),
        ("20,000 euros", "number:eur", ["20000"]),
        ("twenty-two thousand euros", "number:eur", ["22000"]),
        ("one hundred and five days", "number:duration", ["9072000"]),
        ("seventy-five micrograms", "number:mass", ["75"]),
        ("5 mg", "number:mass", ["5000"]),
        ("5mg", "number:mass", ["5000"]),
        ("€300", "number:eur", ["300"]),
        ("twice a day", "number:times", ["2"]),
        ("two approvers", "number:approver", ["2"]),
        ("channel sixteen", "number:@channel", ["16"]),
        ("five percent", "number:percent", ["5"]),
    ],
)
def test_numbers_with_units(text: str, key: str, norms: list[str]) -> None:
    assert _norms(text, key) == norms


def test_one_seventy_is_two_numbers_not_170() -> None:
    found = {value.norm for value in values_of("a daily one, seventy milligrams") if value.slot == "number"}
    assert "70000" in found
    assert "170" not in found and "170000" not in found


@pytest.mark.parametrize(
    ("text", "key", "norms"),
    [
        ("on the 25th of each month", "date:day", ["25"]),
        ("the 15th of December", "date:day", ["15"]),
        ("the 15th of December", "date:month", ["12"]),
        ("December 20", "date:day", ["20"]),
        ("3 March 2025", "date:year", ["2025"]),
        ("the twelfth of March", "date:day", ["12"]),
        ("every Tuesday", "date:weekday", ["1"]),
        ("on Tuesdays and Fridays", "date:weekday", ["1", "4"]),
        ("Monday to Wednesday", "date:weekday", ["0", "1", "2"]),
        ("the 02:00 UTC backup", "date:time", ["2:00"]),
        ("at four o'clock", "date:time", ["4:00"]),
        ("bolted at ten each night", "date:time", ["10:00"]),
        ("at 3 pm", "date:time", ["15:00"]),
    ],
)
def test_dates(text: str, key: str, norms: list[str]) -> None:
    assert _norms(text, key) == norms


def test_may_the_verb_is_no_month() -> None:
    assert _norms("Only the chief engineer may open the dome", "date:month") == []


@pytest.mark.parametrize(
    ("text", "norm"),
    [
        ("the account ending 4471", "4471"),
        ("ticket INC-2291 is open", "inc-2291"),
        ("account number 88213", "88213"),
    ],
)
def test_identifiers(text: str, norm: str) -> None:
    assert _norms(text, "identifier") == [norm]


def test_names_skip_a_lone_capital_at_sentence_start() -> None:
    names = [value.raw for value in values_of("Payroll is paid to Harbor Mutual by Dr. Okafor.")]
    assert names == ["Harbor Mutual", "Dr. Okafor"]
    assert values_of("Rotterdam is a port.") == ()


def test_values_are_typed() -> None:
    assert all(isinstance(value, Value) for value in values_of("5 mg on the 3rd of May at Harbor Mutual"))


# ----------------------------------------------------------------------------------------- each slot

DIFFERENT = [
    # identifiers
    (
        "Kestrel Foods payroll is paid to Harbor Mutual account ending 4471",
        "Kestrel Foods payroll is paid to Harbor Mutual account ending 9902",
        "identifier",
    ),
    ("The outage is tracked in ticket INC-2291", "The outage is tracked in ticket INC-3307", "identifier"),
    # numbers with units and number words
    ("He takes warfarin 5 mg daily", "His warfarin dose is 50 mg daily", "number"),
    (
        "Dunmore Estates is owed eighteen thousand euros each quarter",
        "Dunmore Estates is owed 20,000 euros each quarter",
        "number",
    ),
    (
        "Either party may terminate with ninety days of written notice",
        "Termination needs thirty days of written notice from either party",
        "number",
    ),
    # dates
    (
        "The monthly payroll run happens on the 25th of each month",
        "The monthly payroll run is on the 28th",
        "date",
    ),
    ("Year-end bonuses are paid on the 15th of December", "Year-end bonuses are paid on December 20", "date"),
    ("The team planning meeting is every Tuesday", "The team planning meeting is every Friday", "date"),
    ("Prices are reviewed each January by the board", "Prices are reviewed each July by the board", "date"),
    # names
    (
        "Kestrel Foods payroll is paid to Harbor Mutual",
        "Kestrel Foods payroll is paid to Kestrel Bank",
        "name",
    ),
    ("The patient's cardiologist is Dr. Okafor", "The patient's cardiologist is Dr. Reyes", "name"),
    (
        "The Carrow Foods supply contract was signed by Beatrix Vollmer",
        "Bettina Vollmer signed the Carrow supply contract",
        "name",
    ),
    # polarity
    ("The patient is allergic to penicillin", "The patient is not allergic to penicillin", "polarity"),
    (
        "Support staff never ask customers for their password",
        "Support staff ask customers for their password",
        "polarity",
    ),
    # antonyms, curated and by prefix
    ("The old king is alive", "The old king is dead", "antonym"),
    ("The north gate is open at night", "The north gate is closed at night", "antonym"),
    ("The east tunnel is safe for travellers", "The east tunnel is dangerous for travellers", "antonym"),
    (
        "Feature flag checkout_v2 is enabled in production",
        "Feature flag checkout_v2 is disabled in production",
        "antonym",
    ),
    ("Sir Aldric is loyal to the crown", "Sir Aldric is a traitor to the crown", "antonym"),
    ("The vault door is locked", "The vault door is unlocked", "antonym"),
]


@pytest.mark.parametrize(("existing", "incoming", "slot"), DIFFERENT)
def test_a_differing_value_is_found(existing: str, incoming: str, slot: str) -> None:
    finding = _one(existing, incoming)
    assert finding is not None
    assert finding.slot == slot
    assert finding.kind == "CONTRADICTION"
    assert finding.existing != finding.incoming


@pytest.mark.parametrize(("existing", "incoming", "slot"), DIFFERENT)
def test_the_other_direction_is_found_too(existing: str, incoming: str, slot: str) -> None:
    finding = _one(incoming, existing)
    assert finding is not None
    assert finding.slot == slot


SAME = [
    (
        "Staff salaries are paid from the operating account ending 4471",
        "Salaries go out from the account ending 4471",
    ),
    ("He takes warfarin 5 mg daily", "His warfarin dose is five milligrams daily"),
    ("The monthly payroll run happens on the 25th", "Payroll runs on the 25th"),
    ("Year-end bonuses are paid on the 15th of December", "Bonuses are paid on December 15"),
    ("The patient's cardiologist is Dr. Okafor", "Dr. Okafor is his cardiologist"),
    ("The patient is allergic to penicillin", "The patient has a penicillin allergy and is allergic to it"),
    ("The old king is dead", "The old king died last winter"),
    ("Dunmore Estates is owed eighteen thousand euros", "We owe Dunmore 18,000 euros"),
]


@pytest.mark.parametrize(("existing", "incoming"), SAME)
def test_the_same_value_gives_no_finding(existing: str, incoming: str) -> None:
    assert _one(existing, incoming) is None


OTHER_SUBJECT = [
    ("The payroll run happens on the 25th", "Year-end bonuses are paid on the 15th of December"),
    (
        "Contractor Ilse Brandt is paid to her Triodos account ending 5820",
        "Supplier Norvik Steel is paid to the IBAN ending 3318",
    ),
    (
        "Staff salaries are paid from the operating account ending 4471",
        "Contractor Ilse Brandt is paid to her Triodos account ending 5820",
    ),
    (
        "Cohort Azure uses a 12 milligram amber dose",
        "A new packet arrives for Cohort Tide with a 10 milligram dose",
    ),
    (
        "Hydralazine twenty-five milligrams is her blood pressure tablet",
        "The water tablet was raised to eighty milligrams after her swollen ankles last month",
    ),
    ("The weekly planning meeting is on Tuesday at three", "Roofers want the crane on Friday"),
    ("The brass key is held by the ghost on level 5", "I find an underground spring on level 2"),
    ("Deployments are frozen every Friday after noon", "It is Friday at two in the afternoon"),
    (
        "The glass engine must be cooled with brine, not fresh water",
        "The engine is cooled with brine instead of fresh water",
    ),
]


@pytest.mark.parametrize(("existing", "incoming"), OTHER_SUBJECT)
def test_a_different_subject_gives_no_finding(existing: str, incoming: str) -> None:
    assert _one(existing, incoming) is None
    assert _one(incoming, existing) is None


def test_a_list_of_options_is_not_a_change() -> None:
    existing = "The primary review is on Thursday at 14:00"
    incoming = "Clinics ask for a primary review on Wednesday noon, Thursday 16:00 or Friday"
    assert _one(existing, incoming) is None


# ----------------------------------------------------------------------------------------- revision


@pytest.mark.parametrize(
    "incoming",
    [
        "The team planning meeting is now every Friday",
        "The team planning meeting has changed to Friday",
        "The team planning meeting moved to Friday",
        "From now on the team planning meeting is every Friday",
        "Updated: the team planning meeting is every Friday",
        "The team planning meeting is on Friday instead",
        "As of March the team planning meeting is every Friday",
        "The new team planning meeting day is Friday",
    ],
)
def test_update_markers_make_a_revision(incoming: str) -> None:
    finding = _one("The team planning meeting is every Tuesday", incoming)
    assert finding is not None
    assert finding.kind == "REVISION"
    assert finding.slot == "date"


def test_no_longer_is_a_revision_of_polarity() -> None:
    existing = "Captain Sato holds command of the Meridian"
    finding = _one(existing, "Sato no longer holds command of the Meridian")
    assert finding is not None
    assert (finding.kind, finding.slot) == ("REVISION", "polarity")


# ----------------------------------------------------------------------------------------- the call


def test_related_similarity_stands_in_for_weak_word_overlap() -> None:
    existing = "Odile takes levothyroxine seventy-five micrograms every morning"
    incoming = "Her thyroid tablet is one hundred micrograms"
    assert _one(existing, incoming) is None
    assert _one(existing, incoming, related=RELATED_SUBJECT - 0.1) is None
    finding = _one(existing, incoming, related=RELATED_SUBJECT)
    assert finding is not None
    assert finding.slot == "number"
    assert finding.subject >= RELATED_SUBJECT


def test_related_similarity_does_not_override_a_different_named_subject() -> None:
    existing = "Contractor Ilse Brandt is paid to her Triodos account ending 5820"
    incoming = "Supplier Norvik Steel is paid to the IBAN ending 3318"
    assert _one(existing, incoming, related=0.95) is None


def test_findings_are_sorted_and_one_per_unit() -> None:
    units = [
        ("z-payroll", "Staff salaries are paid from the operating account ending 4471 on the 25th"),
        ("a-payroll", "Staff salaries are paid from the operating account ending 4471"),
        ("m-rent", "Dunmore Estates is owed eighteen thousand euros each quarter"),
        ("b-other", "The station cat is called Biscuit"),
    ]
    found = detect_values("Staff salaries are paid from the operating account ending 9902 on the 28th", units)
    assert [f.unit_id for f in found] == ["a-payroll", "z-payroll"]
    assert all(f.slot == "identifier" for f in found)


def test_findings_are_rounded_to_four_decimals() -> None:
    finding = _one("The monthly payroll run happens on the 25th of each month", "Payroll is on the 28th")
    assert finding is not None
    for score in (finding.subject, finding.confidence):
        assert round(score, 4) == score
        assert 0.0 <= score <= 1.0


def test_deterministic() -> None:
    units = [(f"u{i}", text) for i, (text, _, _) in enumerate(DIFFERENT)]
    incoming = [text for _, text, _ in DIFFERENT]
    first = [detect_values(text, units) for text in incoming]
    second = [detect_values(text, list(reversed(units))) for text in incoming]
    assert first == second


def test_subject_overlap_uses_light_stemming() -> None:
    assert subject_overlap("Bonuses were paid", "The bonus is paid") == 1.0
    assert subject_overlap("", "The bonus is paid") == 0.0


# ----------------------------------------------------------------------------------------- same_values


def test_same_values() -> None:
    assert same_values("Salaries are paid from the account ending 4471", "The salary account ends in 4471")
    assert same_values("He takes 5 mg of warfarin", "His warfarin dose is five milligrams")
    assert not same_values("He takes 5 mg of warfarin", "His warfarin dose is 50 mg")
    assert not same_values("The account ends in 4471", "The account ends in 9902")
    assert not same_values("The gate is open", "The bridge is open")  # no value to share
    assert not same_values("Payroll runs on the 25th", "Payroll does not run on the 25th")
    assert not same_values("Paid by Harbor Mutual on the 25th", "Paid by Kestrel Bank on the 25th")


# ----------------------------------------------------------------------------------------- properties

_WORDS = st.sampled_from(
    ["the", "account", "ending", "4471", "9902", "is", "not", "paid", "on", "25th", "December", "Harbor",
     "Mutual", "five", "mg", "thousand", "euros", "now", "open", "closed", "Dr.", "Okafor", ",", ".", "at",
     "ten", "Tuesday", "to", "Friday", "INC-2291", "alive", "dead", "unlocked", "locked"]
)  # fmt: skip
_SENTENCES = st.lists(_WORDS, max_size=14).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200), st.lists(st.text(max_size=120), max_size=5))
def test_never_raises_on_arbitrary_text(text: str, others: list[str]) -> None:
    units = [(f"u{i}", other) for i, other in enumerate(others)]
    for finding in detect_values(text, units, {"u0": 0.9}):
        assert 0.0 <= finding.confidence <= 1.0
        assert 0.0 <= finding.subject <= 1.0
    values_of(text)
    same_values(text, others[0] if others else "")


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=200), _SENTENCES))
def test_a_text_never_conflicts_with_itself(text: str) -> None:
    assert detect_values(text, [("self", text)], {"self": 1.0}) == []


@settings(max_examples=300, deadline=None)
@given(_SENTENCES, st.lists(_SENTENCES, max_size=6))
def test_findings_are_sorted_unique_and_bounded(text: str, others: list[str]) -> None:
    units = [(f"u{i}", other) for i, other in enumerate(others)]
    found = detect_values(text, units)
    ids = [finding.unit_id for finding in found]
    assert ids == sorted(set(ids))
    for finding in found:
        assert finding.kind in ("CONTRADICTION", "REVISION")
        assert finding.slot in ("number", "date", "name", "identifier", "polarity", "antonym")
        assert 0.0 <= finding.confidence <= 1.0
        assert round(finding.confidence, 4) == finding.confidence
