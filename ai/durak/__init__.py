"""The Durak bots: ``easy`` (lowest card), ``medium`` (heuristics), ``hard`` (search)."""
