"""Adapters that let other frameworks keep their state in an arvis journal (each imports its framework:
install the matching extra, e.g. ``pip install -e '.[langgraph]'``)."""
