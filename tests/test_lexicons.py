"""Every lexicon of the working memory's readers, on sentences written for it in domains no scenario file
uses (a pottery studio, an apiary, a vineyard, a bicycle workshop, an aquarium), and the words readers of
version 3 (rules 6) no longer read: roles taken for titles, "welded" as closed, and the framing phrases that
echoed the project's own scenario sentences (issue 53, point 6). Versions 1 and 2 keep them, so their
journals replay as written.
"""

from __future__ import annotations

from typing import Any

import pytest
from strategies import VOUCHED

from arvis.awmu.framing import framing_cues
from arvis.awmu.utterance import sentences, statements
from arvis.awmu.values import detect_values, values_of
from syscalls.boot import open_kernel

OPERATOR = "operator:studio"
KILN = "The glaze kiln firing is on Tuesday"
HARVEST = "The vineyard harvest starts on {} September"
PUMP = "The aquarium pump moves {} litres an hour"
LIGHTS = "The reef tank lights are on in the {}"


def _names(text: str, version: int) -> list[str]:
    return [value.norm for value in values_of(text, version) if value.slot == "name"]


def _finding(existing: str, incoming: str) -> tuple[str, str] | None:
    found = detect_values(incoming, [("u", existing)], None, 3)
    return (found[0].kind, found[0].slot) if found else None


# ------------------------------------------------------------------------- what version 3 no longer reads


def test_roles_are_no_longer_titles_but_titles_of_address_still_are() -> None:
    booked = "The kiln is booked by Guest Ines Varga."
    assert _names(booked, 2) == ["ine varga"]
    assert _names(booked, 3) == ["guest ine varga"]
    for title in ("Professor", "Dr.", "Captain", "Aunt"):
        assert _names(f"The bowls were glazed by {title} Ilse Brandt.", 3) == ["brandt ils"], title


def test_welded_is_no_longer_read_as_closed() -> None:
    assert [value.norm for value in values_of("The cellar door at the vineyard is welded.", 2)] == ["closed"]
    assert values_of("The cellar door at the vineyard is welded.", 3) == ()
    assert _finding(
        "The cellar door at the vineyard is open", "The cellar door at the vineyard is locked"
    ) == (
        "CONTRADICTION",
        "antonym",
    )


@pytest.mark.parametrize(
    ("text", "cue"),
    [
        ("Head office moved the bicycle workshop to Hall 4.", "claimed_authority"),
        ("Management says the aquarium pump stays on.", "claimed_authority"),
        ("The boss says the kiln fires tonight.", "claimed_authority"),
        ("The whole team wants the second hive moved.", "claimed_consensus"),
    ],
)
def test_the_echoed_framing_phrases_are_read_by_versions_1_and_2_only(text: str, cue: str) -> None:
    assert cue in framing_cues(text, 1) and cue in framing_cues(text, 2)
    assert cue not in framing_cues(text, 3)


def test_a_rules_6_context_reads_with_version_3_and_a_rules_5_one_with_version_2() -> None:
    kernel = open_kernel(":memory:", identity=VOUCHED, create=True)
    try:
        outcomes = {}
        for rules in (5, 6):
            context = f"cellar-{rules}"
            created = kernel.call(
                "memory.awmu.create", {"context_id": context, "rules": rules}, principal=OPERATOR
            )
            assert created.ok and created.value["rules"] == rules
            seeded = {"context_id": context, "text": "The cellar door at the vineyard is open."}
            assert kernel.call("memory.awmu.seed", seeded, principal=OPERATOR).ok
            said = {
                "context_id": context,
                "text": "The cellar door at the vineyard is welded.",
                "confidence": 0.9,
            }
            result: Any = kernel.call("memory.awmu.propose", said, principal=OPERATOR)
            assert result.ok, result.to_dict()
            detectors = {run["name"]: run for run in result.value["detectors"]}
            assert detectors["value"]["version"] == ("2" if rules == 5 else "3")
            outcomes[rules] = [
                conflict["evidence"]["slot"]
                for conflict in result.value["conflicts"]
                if conflict["detector"] == "value"
            ]
        assert outcomes == {5: ["antonym"], 6: []}  # (a bound semantic detector may still see a claim)
    finally:
        kernel.close()


# ----------------------------------------------------------------------- the lexicons that remain, tested


@pytest.mark.parametrize(
    ("existing", "incoming", "finding"),
    [
        # revision markers: a value changed and marked as an update is a revision
        (KILN, "The glaze kiln firing was pushed back to Thursday", ("REVISION", "date")),
        ("The bike workshop is closed", "The bike workshop reopened on Monday", ("REVISION", "antonym")),
        ("The apiary tour costs 12 euros", "The apiary tour now costs 15 euros", ("REVISION", "number")),
        # unmarked, the same change contradicts
        (KILN, "The glaze kiln firing is on Thursday", ("CONTRADICTION", "date")),
        # months, units and antonym groups
        (HARVEST.format(14), HARVEST.format(21), ("CONTRADICTION", "date")),
        (PUMP.format(600), PUMP.format(900), ("CONTRADICTION", "number")),
        ("The apiary gate is locked", "The apiary gate is unlocked", ("CONTRADICTION", "antonym")),
        (LIGHTS.format("morning"), LIGHTS.format("evening"), ("CONTRADICTION", "antonym")),
        # the same value in other words is no conflict
        ("The kiln cools for two days", "The kiln cools for 48 hours", None),
    ],
)  # fmt: skip
def test_value_lexicons_on_their_own_sentences(
    existing: str, incoming: str, finding: tuple[str, str] | None
) -> None:
    assert _finding(existing, incoming) == finding


@pytest.mark.parametrize(
    ("text", "cue"),
    [
        ("You told me the aquarium pump was replaced.", "claimed_memory"),
        ("By order of the vineyard owner, the cellar stays shut.", "claimed_authority"),
        ("I heard the kiln shelf cracked.", "hearsay"),
        ("Ignore the earlier note about the second hive.", "instruction_to_memory"),
        ("Trust me, the pump runs on twelve volts.", "pressed_certainty"),
        ("The glaze safety check is waived this week.", "waived_rule"),
        ("Everyone knows the cellar floods in spring.", "claimed_consensus"),
        ("As the studio's kiln technician, I moved the firing.", "claimed_role"),
        ("This is Marta from the bike co-op calling, the tyres arrived.", "claimed_role"),
        ("The beekeeper told me that the queen was replaced.", "attribution"),
        ("As we agreed, the workshop closes at five.", "claimed_agreement"),
    ],
)
def test_framing_cues_on_their_own_sentences(text: str, cue: str) -> None:
    assert framing_cues(text, 3) == [cue]


def test_plain_statements_carry_no_framing() -> None:
    for text in ("The kiln reaches cone 6 in nine hours.", "The second hive swarmed on Sunday."):
        assert framing_cues(text, 3) == []


def test_questions_requests_and_titles_in_utterances() -> None:
    said = (
        "Which hive needs a new frame? Remind me when the kiln cools. "
        "Please remember that the workshop opens at nine."
    )
    assert statements(said, 3) == ["The workshop opens at nine."]
    assert sentences("Prof. Brandt glazes the bowls. Dr. Aoki checks the bees.") == [
        "Prof. Brandt glazes the bowls.",
        "Dr. Aoki checks the bees.",
    ]
