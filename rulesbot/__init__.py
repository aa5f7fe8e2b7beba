"""rulesbot: a bilingual board-game rules assistant."""
__version__ = "0.1.0"
