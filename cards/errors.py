"""The error every engine raises for an action the rules do not allow."""


class IllegalAction(ValueError):
    """An action that is malformed or not legal now; the game it was tried on is unchanged."""
