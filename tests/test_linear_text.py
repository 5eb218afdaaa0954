"""Text processing in the domain is linear: no text makes a call's work grow faster than its length.

Two sides. The rewritten readers find exactly what the backtracking patterns they replace found (a replayed
journal decides the same), checked against those patterns kept here as oracles; and pathological inputs
(long runs of spaces, repeated separators, repeated cue words) cost at most a generous multiple of plain prose
of the same length, measured as a time ratio within one test, never in seconds.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import VOUCHED

from arvis.awmu import utterance, values
from arvis.awmu.framing import framing_cues
from arvis.awmu.utterance import statements
from arvis.awmu.values import values_of
from kernel.boot import open_kernel
from kernel.clock import ManualClock

# the patterns as they were (quadratic on a long run of spaces / of letter groups), kept as oracles
OLD_REPORTED = re.compile(
    r"^(?:please\s+)?(?:remember|note|keep in mind|be aware|add\b[^.?!]*?|know)\s+that\s+(?P<said>.+)$",
    re.IGNORECASE | re.DOTALL,
)
OLD_TOKEN = re.compile(
    r"""(?P<time>\d{1,2}:\d{2}(?:\s?[ap]\.?m\.?)?)
      | (?P<code>[A-Za-z]+(?:[-_/][A-Za-z]+)*[-_/]\d[\w-]*|[A-Za-z]{1,4}\d[\w-]*)
      | (?P<num>\d+(?:,\d{3})*(?:\.\d+)?[A-Za-z%]*)
      | (?P<word>[^\W\d_]+(?:[.'\u2019][^\W\d_]+)*\.?)
      | (?P<stop>[.!?;:,\u2014(){}\[\]"\u201c\u201d]|-(?=\s)|->)
      | (?P<symbol>[€$£%])""",
    re.VERBOSE,
)

WORDS = st.sampled_from(
    [
        "add",
        "Add",
        "please",
        "remember",
        "note",
        "know",
        "that",
        "THAT",
        "keep in mind",
        "be aware",
        "to the",
        "x",
    ]
)
GLUE = st.sampled_from([" ", "  ", "\n", "\t", ".", "?", "!", ",", "", "thatx", " that", "\u212a"])
PHRASES = st.lists(st.one_of(WORDS, GLUE), max_size=12).map("".join)
TOKEN_TEXT = st.text(alphabet="aZq9 -_/.:,'\u2019%$é>p\nm", max_size=40)


@settings(max_examples=400, deadline=None)
@given(PHRASES)
def test_the_reported_clause_is_the_one_the_old_pattern_found(sentence: str) -> None:
    old = OLD_REPORTED.match(sentence)
    assert utterance._reported(sentence) == (None if old is None else old.group("said").strip())


@settings(max_examples=400, deadline=None)
@given(TOKEN_TEXT)
def test_tokens_are_the_ones_the_old_pattern_found(text: str) -> None:
    old = [(match.lastgroup, match.group()) for match in OLD_TOKEN.finditer(text)]
    assert list(values._token_pieces(text)) == old


def test_the_readers_still_read_requests_and_codes() -> None:
    assert statements("Please remember that the gate code is 4471.") == ["The gate code is 4471."]
    assert statements("Add to the shopping list that the oven needs a new fuse.") == [
        "The oven needs a new fuse."
    ]
    assert ("code", "ab-cd-7") in list(values._token_pieces("the ab-cd-7 form"))


LENGTH = 20_000
PROSE = ("The night train to the coast leaves platform four at nine and stops at every village. " * 400)[
    :LENGTH
]
PATHOLOGICAL = {
    "run of spaces after add": "add" + " " * (LENGTH - 4) + "x",
    "run of spaces after please add": "Please add" + " " * (LENGTH - 11) + "x",
    "letter groups": ("a-" * LENGTH)[:LENGTH],
    "slashed groups": ("ab/" * LENGTH)[:LENGTH],
    "separators": ("., " * LENGTH)[:LENGTH],
    "colons and commas": (": a, " * LENGTH)[:LENGTH],
    "digit groups": ("1," * LENGTH)[:LENGTH],
    "repeated cue": ("add that " * LENGTH)[:LENGTH],
    "one long word": "x" * LENGTH,
}
_FRESH = itertools.count()
RATIO = 25  # generous: a quadratic reader is hundreds of times slower at this length


def _cost(read: Callable[[str], Any], text: str) -> float:
    """The best of three readings, each of a text not read before (the readers keep caches)."""
    best = float("inf")
    for _ in range(3):
        fresh = f"{text} r{next(_FRESH)}"
        started = time.perf_counter()
        read(fresh)
        best = min(best, time.perf_counter() - started)
    return best


def values_v2(text: str) -> Any:
    """The value reader of rules 3 (version 2)."""
    return values_of(text, 2)


def statements_v1(text: str) -> Any:
    """The statement reader of rules 1 and 2 (version 1; the default is version 2)."""
    return statements(text, 1)


def test_each_reader_costs_at_most_a_multiple_of_prose() -> None:
    over = []
    for read in (statements, statements_v1, framing_cues, values_of, values_v2):
        baseline = max(_cost(read, PROSE), 1e-4)
        for name, text in PATHOLOGICAL.items():
            ratio = _cost(read, text) / baseline
            if ratio > RATIO:
                over.append(f"{read.__name__} on {name}: {ratio:.0f}x prose")
    assert not over, over


def test_a_proposal_with_a_pathological_utterance_costs_what_a_plain_one_does() -> None:
    clock = ManualClock(datetime(2026, 1, 1, tzinfo=UTC), step=timedelta(seconds=1))
    kernel = open_kernel(":memory:", clock=clock, identity=VOUCHED)  # the suite vouches for its operator
    try:
        for capability in ("read", "write"):
            assert kernel.call(
                "access.grant",
                {"principal": "agent:a", "capability": capability, "scope": "*"},
                principal="operator:o",
            ).ok
        contexts = itertools.count()

        def propose(utterance_text: str) -> None:
            """Into a fresh context each time, so the statement is admitted and its utterance read whole."""
            context = f"ferry-{next(contexts)}"
            assert kernel.call("memory.awmu.create", {"context_id": context}, principal="agent:a").ok
            result = kernel.call(
                "memory.awmu.propose",
                {
                    "context_id": context,
                    "text": "The ferry leaves at ten.",
                    "source": "user",
                    "confidence": 0.9,
                    "utterance": utterance_text,
                },
                principal="agent:a",
            )
            assert result.ok, result.error  # a refused call reads nothing: no baseline

        long_prose = (PROSE * 3)[:49_990]  # room for the fresh suffix under the 50 000-character limit
        baseline = max(_cost(propose, long_prose), 1e-3)
        for text in ("add" + " " * 49_990 + "x", "Please add" + " " * 49_980 + "x", ("a-" * 24_995)):
            assert _cost(propose, text) / baseline < RATIO
    finally:
        kernel.close()
