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


def seat_marks(names: list[str]) -> list[str]:
    """A short mark for each seat, for its badge: distinct, never cut, and read from the name
    the log uses. A name ending in a number keeps it ("Computer 2" is C2); other names give
    their initial, or their first two letters, or the initial and the seat's number where
    those clash too.

    >>> seat_marks(["You", "Computer 1", "Computer 2"])
    ['Y', 'C1', 'C2']
    >>> seat_marks(["Ana", "bob", "Ivan"]), seat_marks(["Ann", "Anna", "Computer 3"])
    (['A', 'B', 'I'], ['A1', 'A2', 'C3'])
    """
    marks = [_first_mark(name) for name in names]
    marks = [
        _initial(name) + "".join(char for char in name if char.isalnum())[1:2].lower()
        if marks.count(mark) > 1
        else mark
        for name, mark in zip(names, marks, strict=True)
    ]
    clashing = [number for number, mark in enumerate(marks) if marks.count(mark) > 1]
    for number in clashing:
        numbered = f"{_initial(names[number])}{number + 1}"
        marks[number] = numbered if numbered not in marks else f"#{number + 1}"
    return marks


def _initial(name: str) -> str:
    """The first letter or digit of ``name``, in capitals ("?" for a name with none)."""
    return next((char.upper() for char in name if char.isalnum()), "?")


def _first_mark(name: str) -> str:
    """The initial, and the number a name ends with if it has one ("Computer 12": C12)."""
    words = name.split()
    if len(words) > 1 and words[-1].isdigit():
        return _initial(name) + words[-1]
    return _initial(name)
