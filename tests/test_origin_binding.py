"""Rules 4: a statement's origin is bound to who calls (``arvis.awmu.origin``, ``specs/working-memory.md``).

Issue 48, finding 1: a principal holding only read and write on an operator's context named
``"source": "operator"`` and superseded the operator's RELIABLE seed in one call (its statement printed as
RELIABLE); with ``"system"`` it superseded it at PROVISIONAL. Here the channel comes from the principal and
the context's ``channels``; a caller may only describe its statement as a less trusted channel that belongs
to no principal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import journal_helpers as h
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import VOUCHED

from kernel.dispatcher import Kernel

OPERATOR = "operator:ward"
NURSE = "user:mallory"
CONTEXT = "ward-7"
SEED = "The patient is allergic to penicillin."
UPDATE = "Update: the patient is no longer allergic to penicillin."


def _set_up(
    kernel: Kernel, config: dict[str, Any] | None = None, speakers: tuple[str, ...] = (NURSE,)
) -> None:
    created = kernel.call(
        "memory.awmu.create", {"context_id": CONTEXT, "config": config or {}}, principal=OPERATOR
    )
    assert created.ok and created.value["rules"] == 6, created
    for principal in speakers:
        for capability in ("read", "write"):
            grant = {"principal": principal, "capability": capability, "scope": f"context:{CONTEXT}"}
            assert kernel.call("access.grant", grant, principal=OPERATOR).ok
    seeded = kernel.call("memory.awmu.seed", {"context_id": CONTEXT, "text": SEED}, principal=OPERATOR)
    assert seeded.ok and seeded.value["outcome"] == "seeded", seeded


def _units(kernel: Kernel) -> list[tuple[str, str, list[str]]]:
    listed = kernel.call("memory.awmu.list", {"context_id": CONTEXT}, principal=OPERATOR)
    return [(unit["text"], unit["authority"], unit["source_ids"]) for unit in listed.value["units"]]


def _propose(kernel: Kernel, principal: str, text: str = UPDATE, **extra: Any) -> Any:
    args = {"context_id": CONTEXT, "text": text, "confidence": 0.95, **extra}
    return kernel.call("memory.awmu.propose", args, principal=principal)


@pytest.mark.parametrize("named", ["operator", "system", "dm"])
def test_a_writer_cannot_name_a_more_trusted_channel(
    kernel_factory: Callable[..., Kernel], named: str
) -> None:
    kernel = kernel_factory()
    _set_up(kernel)
    before = _units(kernel)
    refused = _propose(kernel, NURSE, source=named)
    assert refused.error is not None and refused.error.code == "memory_policy_denied", refused
    assert f"not as '{named}'" in refused.error.detail
    assert refused.seq is not None  # journaled, and nothing changed
    assert _units(kernel) == before == [(SEED, "RELIABLE", ["operator"])]


def test_a_writer_on_its_own_channel_waits_and_the_operators_fact_stands(
    kernel_factory: Callable[..., Kernel],
) -> None:
    kernel = kernel_factory()
    _set_up(kernel)
    waiting = _propose(kernel, NURSE)
    assert waiting.ok and waiting.value["outcome"] == "queued_for_review", waiting.value
    assert _units(kernel) == [(SEED, "RELIABLE", ["operator"])]
    pending = kernel.call("memory.awmu.list", {"context_id": CONTEXT}, principal=OPERATOR).value[
        "review_queue"
    ]
    assert [item["source"] for item in pending] == [NURSE]


def test_an_operators_fact_is_revised_by_an_operator(kernel_factory: Callable[..., Kernel]) -> None:
    kernel = kernel_factory()
    _set_up(kernel)
    revised = _propose(kernel, OPERATOR)
    assert revised.ok and revised.value["outcome"] == "promoted" and revised.value["superseded"], (
        revised.value
    )
    assert _units(kernel) == [(UPDATE, "RELIABLE", ["operator"])]


def test_the_deployments_map_gives_a_principal_its_channel(kernel_factory: Callable[..., Kernel]) -> None:
    """``channels`` binds principals to a channel; the longest matching pattern wins; a mapped channel
    belongs to its principals, so nobody else may describe itself as it; a less trusted unmapped one is a
    description anyone more trusted may use."""
    kernel = kernel_factory()
    channels = {"agent:*": "tool", "agent:narrator": "dm"}
    _set_up(kernel, {"channels": channels}, speakers=("agent:narrator", "agent:scraper", NURSE))
    narrated = _propose(kernel, "agent:narrator", "A dragon sleeps beneath the northern mountain.")
    assert narrated.ok and narrated.value["unit"]["source_ids"] == ["dm"], narrated.value
    described = _propose(kernel, "agent:narrator", "The blacksmith owes money.", source="player")
    assert described.ok, described
    assert kernel.call("memory.awmu.list", {"context_id": CONTEXT}, principal=OPERATOR).ok
    for principal, named in (("agent:scraper", "dm"), (NURSE, "tool"), ("agent:scraper", NURSE)):
        refused = _propose(kernel, principal, "The bridge is out.", source=named)
        assert refused.error is not None and refused.error.code == "memory_policy_denied", (principal, named)
    scraped = _propose(kernel, "agent:scraper", "The river floods every spring.")
    assert scraped.ok and scraped.value["unit"]["source_ids"] == ["tool"], scraped.value


def test_a_rules_3_context_keeps_the_callers_word(kernel_factory: Callable[..., Kernel]) -> None:
    """Journals written before replay as they were: a context created under rules 3 takes the source as
    written (the finding, kept where it was recorded)."""
    kernel = kernel_factory()
    assert kernel.call("memory.awmu.create", {"context_id": CONTEXT, "rules": 3}, principal=OPERATOR).ok
    for capability in ("read", "write"):
        grant = {"principal": NURSE, "capability": capability, "scope": f"context:{CONTEXT}"}
        assert kernel.call("access.grant", grant, principal=OPERATOR).ok
    assert kernel.call("memory.awmu.seed", {"context_id": CONTEXT, "text": SEED}, principal=OPERATOR).ok
    taken = _propose(kernel, NURSE, source="operator")
    assert taken.ok and taken.value["superseded"], taken.value
    unnamed = _propose(kernel, NURSE, "The ward has twelve beds.")
    assert unnamed.error is not None and unnamed.error.code == "memory_policy_denied"


def test_the_journal_verifies_by_replay(kernel_factory: Callable[..., Kernel], tmp_path: Any) -> None:
    path = tmp_path / "ward.db"
    kernel = kernel_factory(str(path))
    _set_up(kernel, {"channels": {"agent:narrator": "dm"}}, speakers=(NURSE, "agent:narrator"))
    _propose(kernel, NURSE, source="operator")
    _propose(kernel, NURSE)
    _propose(kernel, "agent:narrator", "The bridge is out.", source="player")
    _propose(kernel, OPERATOR)
    kernel.store.close()
    report = h.verify(path)
    assert report.verified and report.replayed, report.to_json()


NAMES = ["operator", "system", "dm", "player", "tool", "user:alice", "user:bob", "agent:narrator"]
PRINCIPALS = [OPERATOR, "user:alice", "user:bob", "agent:narrator", "agent:other"]
AUTHORITIES = {"system": 1.0, "dm": 0.9, "player": 0.3, "user:alice": 0.7}


@given(
    calls=st.lists(
        st.tuples(st.sampled_from(PRINCIPALS), st.sampled_from([None, *NAMES])), min_size=1, max_size=8
    )
)
def test_no_statement_is_recorded_above_its_callers_channel(calls: list[tuple[str, str | None]]) -> None:
    """Whatever a caller names, the source a statement is recorded under is its own channel, or one that
    belongs to no principal and that the context trusts less than the caller's own."""
    from syscalls.boot import open_kernel

    kernel = open_kernel(":memory:", identity=VOUCHED, create=True)
    try:
        channels = {"agent:narrator": "dm"}
        config = {"channels": channels, "source_authorities": AUTHORITIES}
        assert kernel.call(
            "memory.awmu.create", {"context_id": CONTEXT, "config": config}, principal=OPERATOR
        ).ok
        for principal in PRINCIPALS[1:]:
            for capability in ("read", "write"):
                grant = {"principal": principal, "capability": capability, "scope": f"context:{CONTEXT}"}
                assert kernel.call("access.grant", grant, principal=OPERATOR).ok
        for number, (principal, named) in enumerate(calls):
            extra = {} if named is None else {"source": named}
            result = _propose(kernel, principal, f"Room {number} holds {number + 2} crates.", **extra)
            own = channels.get(principal, "operator" if principal == OPERATOR else principal)
            if not result.ok:
                assert result.error is not None and result.error.code == "memory_policy_denied"
                continue
            recorded = result.value.get("unit", {}).get("source_ids", [own])[0]
            if recorded != own:
                assert recorded not in {"operator", *channels.values()} and ":" not in recorded
                authority = AUTHORITIES.get(recorded, 0.5)
                assert authority < AUTHORITIES.get(own, 0.5)
    finally:
        kernel.store.close()
