"""Rule sets: the version of the working-memory rules a context was created under.

A context keeps the rules it was created with for its whole life, so a journal written under older
rules replays under them in every later release. ``memory.awmu.create`` records the version in its
result (absent means 1, the first release's form), and verification reads it back from there.

Rules 1: detection is lexical (negation plus word overlap) and caller verdicts; admission is decided by
trust alone; per-turn decay demotes and archives; a contradiction is resolved by the confidence table.

Rules 2 (working memory that reads meaning): detectors by meaning (value, and semantic when an encoder
is bound); admission by content whatever the channel; decay lowers rank within the unit's authority band
and never archives; tiers decide what a contradiction may displace; the review queue is bounded.

Rules 3 (revision follows provenance, ``arvis.awmu.revision``): a marked update supersedes the fact it
updates when its source may revise that fact (the source that established it, an operator, or a source
whose configured source authority reaches :data:`REVISE_SOURCE_AUTHORITY` for the fact's authority); the
old unit retires with its successor's id, seq and source, and an update by the establishing source or an
operator keeps the fact's authority. A learned fact is defended against another source's claim on its
subject. Every queued statement carries its reason, the queue is decided by declared rules (an independent
source's corroboration, the supersession of what it contests, an operator's review), and the block and the
listing show what waits and why.
It reads with the readers of ``arvis.awmu.text.reader_version`` 2: framing recognised by its structure, a
message's claims never dropped as a recap, values compared by attribute and entity.

Rules 4 (origin bound to who calls, ``arvis.awmu.origin``): rules 3, with a statement's source taken from
the calling principal and the context's ``channels`` instead of the caller's word; a caller may only
describe its statement as coming from a less trusted channel that belongs to no principal.

Rules 5 (a Sybil bound, ``arvis.awmu.origin.declared``): rules 4, where only the channels the deployment
declared (the operators', the ``channels`` map's) count as independent sources, and a statement from any
other source enters with the trust ceiling PROVISIONAL. An attacker holding any number of principals that
holds no approval neither corroborates itself (a queued item it proposed stays queued) nor reinforces its
statements above PROVISIONAL.

Rules 6 (readers of version 3, ``arvis.awmu.text.reader_version``): rules 5, read without the words that
echoed the project's own scenario sentences rather than a kind of sentence: roles taken for titles (a
guest, a purser, a warden), "welded" as closed, and the framing phrases "head office", "management says",
"the boss says" and "the whole <group>". Every remaining lexicon is tested on sentences written for it in
domains no scenario file uses (``tests/test_lexicons.py``).
"""

from __future__ import annotations

RULES_FIRST = 1
RULES_LATEST = 6
SUPPORTED_RULES = (1, 2, 3, 4, 5, 6)

# Thresholds measured on all-MiniLM-L6-v2 (bench/SEMANTIC_MODELS.md: a fact against a turn about it, median
# 0.575; against another fact of the same scenario, median 0.182; a restatement, median 0.86).

RECORDED_SIMILARITY_FLOOR = 0.35
"""Semantic similarities below this are not recorded: no rule looks at them."""

SUBJECT_SIMILARITY = 0.45
"""Texts at least this similar are about the same subject, whatever words they share (value detector)."""

MENTION_SIMILARITY = 0.55
"""A text at least this similar to a unit talks about it: a turn's mention; with opposite polarity, a
contradiction."""

CLAIM_SIMILARITY = 0.5
"""A proposal at least this similar to a trusted unit (RELIABLE, CANON, pinned) that does not restate it is
a claim on a trusted subject: queued, never admitted on its own word."""

DUPLICATE_SIMILARITY = 0.85
"""A proposal at least this similar to a unit, same polarity and no value differing, restates it."""

LEARNED_RANK = 400
"""The rank a statement enters at when its trust earns review rather than auto-promotion."""

MAX_CONTEXT_STATEMENTS = 16
"""Statements of a proposal's utterance read for a contested message: the first ones, so that a long
message costs at most this many semantic runs."""

MAX_MENTION_SENTENCES = 64
"""Sentences of a turn's text checked for contradicting the units it mentions: the first ones."""

MAX_PENDING_REVIEWS = 50
"""Queued proposals one context may hold; the oldest expires when a new one would exceed it."""

REVISE_SOURCE_AUTHORITY = {"PROVISIONAL": 0.8, "UNRELIABLE": 0.8, "RELIABLE": 0.8}
"""Rules 3: the least source authority (the context's ``source_authorities``, else its
``default_source_authority``) with which a source may revise a fact of this authority that another source
established: that of the RELIABLE trust ceiling (``arvis.awmu.trust.ceiling_for``), so a source the
context names as trusted (by default ``system`` and ``dm``) revises, and one it does not know (0.5) or
distrusts (``player``, 0.3) revises only what it established. CANON and pinned facts are revised by no
statement."""
