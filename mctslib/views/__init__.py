"""Figures, live plots, boards and notebook widgets (matplotlib and ipywidgets live here)."""
