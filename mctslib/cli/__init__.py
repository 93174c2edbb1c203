"""The command line, ``python -m mctslib``."""
