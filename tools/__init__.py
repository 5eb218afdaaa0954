"""The ``arvis`` command line: one module per command, over the library's public APIs."""
