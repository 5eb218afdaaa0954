"""Where ``journal/effects.py`` and ``journal/transaction.py`` still import the hash chain from: it is
``journal.entry``'s. Delete this module once they import it from there."""

from journal.entry import EMPTY_EFFECTS_HASH, compute_entry_hash, genesis_hash

__all__ = ["EMPTY_EFFECTS_HASH", "compute_entry_hash", "genesis_hash"]
