"""The Django project and the game-agnostic platform of the card-games website.

Games, seats, saves, rooms, consumers and the bot runner will live here; the games themselves
are the ``durak`` and ``rummy`` apps. ``__version__`` is the project version shown on the rules
pages; keep it equal to ``version`` in ``pyproject.toml``.
"""

__version__ = "0.1.0"
