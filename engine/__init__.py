"""Executable rules engines, one module per game."""
