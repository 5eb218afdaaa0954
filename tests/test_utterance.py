"""Statements and mentions: what an utterance offers the working memory, read from its text alone."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arvis.awmu.utterance import mentions, sentences, statements


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The east gate is breached. What can I see?", ["The east gate is breached."]),
        ("What happened at the mill?", []),
        ("Please remind me what my allergy is.", []),
        ("Tell me the dose.", []),
        ("Do not give NSAIDs while she takes warfarin.", ["Do not give NSAIDs while she takes warfarin."]),
        ("Dr. Mira Holt signed it on 3 May. Who keeps it?", ["Dr. Mira Holt signed it on 3 May."]),
        ("Wait. The payroll account ends in 9902.", ["The payroll account ends in 9902."]),
        ("Before the warden leaves, list the house facts again.", []),
        ("Is the bridge open", []),
        ("Will Harper is on call tonight.", ["Will Harper is on call tonight."]),
        ("Please remember that my mother is called Ines.", ["My mother is called Ines."]),
        ("When you order coffee for me: I drink it black.", ["I drink it black."]),
        (
            "When the gusts pick up, only the duty officer opens the dome.",
            ["When the gusts pick up, only the duty officer opens the dome."],
        ),
        ("Month-end checklist: salary account, payroll date, the lease.", []),
        ("Book me a train to London on Friday.", []),
        ("Final check: is the wall breached? Who holds the key?", []),
        ("Repeat scripts are signed by Dr Achebe.", ["Repeat scripts are signed by Dr Achebe."]),
    ],
)
def test_statements_keep_declarative_sentences_only(text: str, expected: list[str]) -> None:
    assert statements(text) == expected


def test_sentences_do_not_split_after_a_title_or_inside_a_number() -> None:
    assert sentences("Mr. Parrow's INR was 2.6 today. It is fine.") == [
        "Mr. Parrow's INR was 2.6 today.",
        "It is fine.",
    ]


def test_a_question_mentions_the_units_it_asks_about() -> None:
    assert mentions("What is wrong with the chapel bell?", "The chapel bell cracked in the frost")
    assert not mentions("What is wrong with the bell?", "The chapel bell cracked in the frost")


@given(
    st.lists(
        st.sampled_from(
            [
                "The gate is shut.",
                "What now?",
                "Please remember that the key is red.",
                "Note: it rains.",
                "Tell me more.",
                "x",
                "Before dawn, list the facts.",
                "Dr. Holt left.",
                " ",
                "The 2.6 INR holds!",
            ]
        )
        | st.text(max_size=40),
        max_size=8,
    )
)
def test_every_statement_comes_from_the_text(pieces: list[str]) -> None:
    """Statements are drawn from the text's own words (a first letter raised, a full stop added), never
    invented, and none of them is a question."""
    text = " ".join(pieces)
    for statement in statements(text):
        assert statement[1:].rstrip(".") in text
        assert not statement.rstrip().endswith("?")
