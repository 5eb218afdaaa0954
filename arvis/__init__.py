"""arvis: the memory domain (long-term entries and working-memory units). Pure: no I/O, no clock."""
