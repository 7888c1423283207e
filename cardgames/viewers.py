"""Who is looking at a table, and what their seat lets them see and do.

Three kinds of viewer: the browser that owns a saved game (vs computer, pass and play), the
holder of one seat of an online room (proved by its seat key), and a spectator of a room, who
sees no hand at all.
"""

from dataclasses import dataclass

from cardgames.models import Game, Mode, Seat
from cardgames.seatkeys import key_matches


@dataclass(frozen=True)
class Viewer:
    """The owner of a saved game, one seat of a room, or (neither) a room's spectator."""

    owner: bool = False
    seat: int | None = None

    @property
    def spectator(self) -> bool:
        """A room's onlooker: no seat, no hand."""
        return not self.owner and self.seat is None


@dataclass(frozen=True)
class Seen:
    """Whose hand a viewer sees now, and which seat is asked to act."""

    seat: int | None  # the seat whose hand is shown (None: no hand)
    asked: int | None  # the seat asked to act
    handoff: bool  # pass and play: the device must change hands before anything is shown

    @property
    def may_act(self) -> bool:
        """Whether the hand shown is the one asked to act."""
        return self.seat is not None and self.seat == self.asked


def viewer_for(
    game: Game, browser_secret: str, seat_key: str, seats: list[Seat] | None = None
) -> Viewer | None:
    """Who the holder of these cookies (the browser's secret, the room's seat key) is at
    ``game`` (whose ``seats`` may have been read already); None if they may not look at all."""
    if game.mode != Mode.ONLINE:
        owner = key_matches(browser_secret, game.owner_id or "")
        return Viewer(owner=True) if owner else None
    for seat in game.seats.all() if seats is None else seats:
        if key_matches(seat_key, seat.key_hash):
            return Viewer(seat=seat.number)
    return Viewer()


def seen_by(game: Game, viewer: Viewer, asked: int | None) -> Seen:
    """What ``viewer`` sees of ``game`` when ``asked`` is the seat to act."""
    if not viewer.owner:
        return Seen(seat=viewer.seat, asked=asked, handoff=False)
    if game.mode == Mode.COMPUTER:
        return Seen(seat=0, asked=asked, handoff=False)
    if asked is None:
        return Seen(seat=None, asked=None, handoff=False)
    if game.shown_seat == asked:
        return Seen(seat=asked, asked=asked, handoff=False)
    return Seen(seat=None, asked=asked, handoff=True)
