"""arvis: the memory domain (long-term entries and working-memory units). Pure: no I/O, and no clock on the
kernel's path (the one wall-clock read, ``arvis.memory.memory_long_snapshot.utcnow``, serves upstream-style
callers that pass no time; the kernel always passes the call's journaled time)."""
