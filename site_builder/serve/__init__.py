"""Serving while you write: the local host, watching, the incremental rebuild, live reload."""
