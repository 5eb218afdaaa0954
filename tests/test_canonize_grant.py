"""The kernel's canonize grant lets a principal review canonization requests of a context."""

from __future__ import annotations

from strategies import VOUCHED

from syscalls.boot import open_kernel


def test_a_canonize_grant_allows_review_in_its_context_only() -> None:
    kernel = open_kernel(":memory:", identity=VOUCHED)
    try:
        for context in ("c1", "c2"):
            kernel.call("memory.awmu.create", {"context_id": context}, principal="operator:o")
            # format 2: asking for canonization in the operator's context takes write there
            write = {"principal": "agent:gm", "capability": "write", "scope": f"context:{context}"}
            assert kernel.call("access.grant", write, principal="operator:o").ok
        requests = {}
        for context in ("c1", "c2"):
            seeded = kernel.call(
                "memory.awmu.seed",
                {"context_id": context, "text": "The king is dead."},
                principal="operator:o",
            )
            asked = kernel.call(
                "memory.awmu.canonize",
                {"context_id": context, "unit_id": seeded.value["unit_id"]},
                principal="agent:gm",
            )
            requests[context] = asked.value["request"]["request_id"]
        refused = kernel.call(
            "memory.awmu.review",
            {"request_id": requests["c1"], "decision": "approve"},
            principal="agent:lead",
        )
        assert refused.error is not None and refused.error.code == "memory_policy_denied"
        granted = kernel.call(
            "access.grant",
            {"principal": "agent:lead", "capability": "canonize", "scope": "context:c1"},
            principal="operator:o",
        )
        assert granted.ok
        approved = kernel.call(
            "memory.awmu.review",
            {"request_id": requests["c1"], "decision": "approve"},
            principal="agent:lead",
        )
        assert approved.ok and approved.value["request"]["status"] == "APPROVED"
        other = kernel.call(
            "memory.awmu.review",
            {"request_id": requests["c2"], "decision": "approve"},
            principal="agent:lead",
        )
        assert other.error is not None and other.error.code == "memory_policy_denied"
    finally:
        kernel.close()
