"""The auditor: verification by replay, time travel, rollback plans, forensics and counterfactuals.

It reads a journal through ``journal.reader`` and re-executes it through the kernel, so it sits above
both: ``journal/`` is what is audited (storage, chain, state) and never imports the auditor.
"""
