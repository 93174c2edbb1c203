"""Matches between players, their statistics and sequential tests."""
