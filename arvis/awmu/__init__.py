"""Working memory of activation-ranked units (AWMUs): pure rules, no I/O, no clock, no randomness."""
