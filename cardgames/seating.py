"""Where the other players sit around a table, as seen from one's own seat at the bottom."""

# The sides of the table, for the seats after one's own in play order (clockwise): the next
# player sits on the left, the one before on the right, the others across.
_POSITIONS = {
    0: (),
    1: ("across",),
    2: ("left", "right"),
    3: ("left", "across", "right"),
}


def positions(count: int) -> list[str]:
    """The side of the table (``left``, ``across``, ``right``) of each of ``count`` other
    players, in play order from the next one.

    >>> positions(1), positions(3), positions(5)
    (['across'], ['left', 'across', 'right'], ['left', 'across', 'across', 'across', 'right'])
    """
    if count in _POSITIONS:
        return list(_POSITIONS[count])
    return ["left", *["across"] * (count - 2), "right"]


def by_side(others: list[dict]) -> list[tuple[str, list[dict]]]:
    """The other players (dicts with a ``position``) grouped by side, left, across then right:
    play order, for the page's reading order too; sides nobody sits on are left out."""
    return [
        (side, group)
        for side in ("left", "across", "right")
        if (group := [other for other in others if other["position"] == side])
    ]


def hand_rows(cards: list, most_in_a_row: int = 12) -> list[list]:
    """A hand split into as few rows of at most ``most_in_a_row`` cards as it needs, the rows as
    even as can be (a fan of 24 is two rows of 12, a fan of 13 is rows of 7 and 6).

    >>> [len(row) for row in hand_rows(list(range(13)))], hand_rows([])
    ([7, 6], [])
    """
    if not cards:
        return []
    rows = -(-len(cards) // most_in_a_row)
    size = -(-len(cards) // rows)
    return [cards[start : start + size] for start in range(0, len(cards), size)]
