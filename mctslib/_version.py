"""The version of mctslib, in a module of its own so that any layer can read it without
importing the package's public names (which come from every layer)."""

__version__ = "0.1.0"
