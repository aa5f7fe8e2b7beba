"""Canvas intents: one module per question type (compute functions; their slots, cues and exemplars are in intents.json)."""
