"""Knowledge packs: one folder per game (rulebook passages and FAQ as data, in each language)."""
