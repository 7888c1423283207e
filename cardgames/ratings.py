"""Ratings: each browser's skill at each game, from the games it finished.

OpenSkill's Plackett-Luce model (the ``openskill`` library) rates a finished game from the
finishing order of its seats, for two to six of them (``GameKind.finishing_ranks``): in Durak
the order the players went out, the durak last; in Rummy, a match's winner first. Rated are
the games against the computer and the rooms; pass and play is not (one person plays every
seat), nor a game played with help (a hint or a take-back).

Against the computer the person is rated against the computer's seats, whose ratings are
fixed (``GameKind.computer_ratings``): they never move, however the person does. The levels'
ratings are set from the arena's measured results (README, "How strong is the computer"):
with the model's win probability between two nearly certain ratings,
``1 / (1 + exp(-(mu_a - mu_b) / c))`` with ``c = sqrt(2 * BETA**2 + 2 * FIXED_SIGMA**2)``
(about 6.06), each measured share gives a difference of ``c * ln(p / (1 - p))``; Medium is set
at the library's starting 25 and the others fitted by least squares (``docs/review.md`` gives
the sums).
"""

from collections.abc import Sequence

from openskill.models import PlackettLuce

from cardgames.models import Browser, Mode, Rating, Record
from cardgames.registry import all_kinds, get_kind

MODEL = PlackettLuce()
# The computer's ratings are known this closely (and never updated).
FIXED_SIGMA = 1.0
# A computer level its game gives no rating (``GameKind.computer_ratings``): the starting one.
DEFAULT_COMPUTER = 25.0


def counts(record: Record) -> bool:
    """Whether ``record`` may move ratings: not pass and play, not played with help."""
    return record.mode != Mode.HOTSEAT and not record.helped


def rate(record: Record, ranks: Sequence[int] | None) -> list[Rating]:
    """Rate the finished ``record`` whose seats finished in ``ranks`` (by seat, 0 first, ties
    equal; None: not a rated end, such as a Rummy round inside a match). The people's new
    ratings, saved; nothing when the record does not count."""
    if ranks is None or not counts(record):
        return []
    players = {player.number: player.browser for player in record.players.all()}
    if not players:
        return []
    current = {number: _rating(browser, record.kind) for number, browser in players.items()}
    teams = []
    for number, seat in enumerate(record.seats):
        if number in current:
            rating = current[number]
            teams.append([MODEL.rating(mu=rating.mu, sigma=rating.sigma)])
        else:
            level = seat.get("level") or ""
            mu = get_kind(record.kind).computer_ratings.get(level, DEFAULT_COMPUTER)
            teams.append([MODEL.rating(mu=mu, sigma=FIXED_SIGMA)])
    rated = MODEL.rate(teams, ranks=list(ranks))
    saved = []
    for number, rating in current.items():
        [after] = rated[number]
        rating.mu, rating.sigma = after.mu, after.sigma
        rating.games += 1
        rating.save()
        saved.append(rating)
    return saved


def _rating(browser: Browser, kind: str) -> Rating:
    rating, _created = Rating.objects.get_or_create(
        browser=browser, kind=kind, defaults={"mu": MODEL.mu, "sigma": MODEL.sigma}
    )
    return rating


def of(browser: Browser | None) -> dict[str, Rating]:
    """``browser``'s ratings by game (only the games it has a rated game of)."""
    if browser is None:
        return {}
    return {rating.kind: rating for rating in browser.ratings.filter(games__gt=0)}


def shown(browser: Browser | None) -> list[dict[str, object]]:
    """``browser``'s ratings as the home page and the statistics show them: by game, in the
    registry's order, the estimate and its uncertainty to one decimal, and the games rated."""
    ratings = of(browser)
    return [
        {
            "title": kind.title,
            "mu": f"{ratings[kind.name].mu:.1f}",
            "sigma": f"{ratings[kind.name].sigma:.1f}",
            "games": ratings[kind.name].games,
        }
        for kind in all_kinds()
        if kind.name in ratings
    ]
