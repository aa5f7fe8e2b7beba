"""The embeddable chat widget (widget.js) and the Canvas demo page, served by `rulesbot.api` as package data."""
