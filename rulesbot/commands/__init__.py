"""One module per `rulesbot` command; each imports only Typer at module level."""
