"""Storage: schema and migrations, the hash-chained journal, the SQL store, verification and replay."""
