"""Benchmarks: the kernel against a baseline doing the same work, in the same process run.

Not part of ``make test``. Run them with ``make bench`` (full sizes) or ``make bench-quick``; one
alone with ``.venv/bin/python -m bench.<module> [--quick]``.
"""
