"""ARVIS-MEM-01 long-term memory: entries, snapshots, repository contract, policy, projection, service."""
