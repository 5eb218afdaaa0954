"""Adversarial scenarios in ARC-Mem's schema: parsing, judging facts, conditions, assertions, metrics."""
