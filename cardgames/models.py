"""The platform's models: browsers, games (which are also the saves) and their seats.

A game row holds the engine's whole state as JSON and a version that grows by one with every
accepted change; the row is the truth, everything sent to browsers is rendered from it.
"""

import secrets
from collections.abc import Iterable

from django.db import connections, models, router
from django.utils.translation import gettext_lazy as _

from cardgames.seatkeys import hash_key


def new_token() -> str:
    """An unguessable id: 128 random bits, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


def unheld_browser_id() -> str:
    """The id of a browser row whose cookie nobody holds (for rows made outside a request)."""
    return hash_key(new_token())


class Browser(models.Model):
    """An anonymous browser; it owns its saves. Its id is the SHA-256 of the random secret in
    its cookie (``cardgames.browser``): a leaked database names no browser's cookie."""

    id = models.CharField(
        primary_key=True, max_length=64, default=unheld_browser_id, editable=False
    )
    created = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(auto_now=True)
    # The level last chosen per game kind, e.g. {"durak": "hard"}.
    levels = models.JSONField(default=dict, blank=True)
    # The variant last played vs the computer per game kind, as its options.
    variants = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("browser")
        verbose_name_plural = _("browsers")

    def __str__(self) -> str:
        return self.id[:8]


class Mode(models.TextChoices):
    """How a game is played."""

    COMPUTER = "computer", _("Vs computer")
    HOTSEAT = "hotseat", _("Pass and play")
    ONLINE = "online", _("Online")


def _plain_select(manager: models.Manager, column: str, order_by: str = "") -> str:
    """``SELECT *`` from ``manager``'s table where ``column`` is the query's one parameter,
    ordered by the column ``order_by`` if given (names quoted for ``manager``'s database)."""
    quote = connections[manager.db].ops.quote_name
    sql = f"SELECT * FROM {quote(manager.model._meta.db_table)} WHERE {quote(column)} = %s"
    return f"{sql} ORDER BY {quote(order_by)}" if order_by else sql


class GameManager(models.Manager):
    """Games, with the plain read that every move and every render make."""

    def by_id(self, game_id: str, *, for_update: bool = False) -> "Game | None":
        """The game ``game_id``, or None; ``for_update`` locks its row until the transaction
        ends, where the database locks rows.

        One plain SQL query: on this path, building the ORM's query cost several times what
        running it did.
        """
        sql = _plain_select(self, "id")
        if for_update and connections[self.db].features.has_select_for_update:
            sql += " FOR UPDATE"
        return next(iter(self.raw(sql, [game_id])), None)

    def versions(self, game_ids: list[str]) -> list[tuple[str, int]]:
        """The id and version of each game of ``game_ids`` that exists, in one plain SQL query
        per 500 ids (the version watcher's, forty times a second: the ORM's query for it cost
        more to build than to run)."""
        connection = connections[self.db]
        quote = connection.ops.quote_name
        table = quote(self.model._meta.db_table)
        found: list[tuple[str, int]] = []
        with connection.cursor() as cursor:
            for start in range(0, len(game_ids), 500):
                chunk = game_ids[start : start + 500]
                marks = ", ".join(["%s"] * len(chunk))
                cursor.execute(
                    f"SELECT {quote('id')}, {quote('version')} FROM {table} "
                    f"WHERE {quote('id')} IN ({marks})",
                    chunk,
                )
                found += cursor.fetchall()
        return found

    def save_if_at(self, game: "Game", version: int, fields: Iterable[str]) -> bool:
        """Write ``fields`` of ``game`` only if its row is still at ``version``; whether it was
        (a compare-and-set). One plain SQL ``UPDATE``, for the reason :meth:`by_id` gives."""
        connection = connections[router.db_for_write(self.model)]
        quote = connection.ops.quote_name
        columns = [self.model._meta.get_field(name) for name in fields]
        assignments = ", ".join(f"{quote(field.column)} = %s" for field in columns)
        values = [
            field.get_db_prep_save(getattr(game, field.attname), connection) for field in columns
        ]
        sql = (
            f"UPDATE {quote(self.model._meta.db_table)} SET {assignments} "
            f"WHERE {quote('id')} = %s AND {quote('version')} = %s"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [*values, game.pk, version])
            return cursor.rowcount == 1


class Game(models.Model):
    """One game of one kind: its engine state, seats and version.

    A vs-computer or pass-and-play game belongs to one browser and is that browser's save for
    its kind, mode and variant: there is at most one per such key. An online game is a room:
    it has no owner, its seats are claimed with seat keys, and ``updated`` is its last activity.
    """

    id = models.CharField(primary_key=True, max_length=43, default=new_token, editable=False)
    kind = models.CharField(_("game"), max_length=20)
    mode = models.CharField(_("mode"), max_length=10, choices=Mode.choices)
    variant = models.CharField(_("variant"), max_length=40)
    options = models.JSONField(default=dict)
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    owner = models.ForeignKey(
        Browser, null=True, blank=True, on_delete=models.CASCADE, related_name="games"
    )
    # Wins and losses per seat over the games played at this table: {"wins": [], "losses": []}.
    series = models.JSONField(default=dict, blank=True)
    # Pass and play: the seat whose hand is on screen, once its player confirmed the hand-off.
    shown_seat = models.SmallIntegerField(null=True, blank=True)
    # A room is dealt once its last free seat is taken; until then its state is a placeholder
    # that nobody sees (the seats wait, the bots too).
    dealt = models.BooleanField(default=True)
    # A room's turn clock: the seconds a person has for each turn (0: no clock), and when the
    # person asked to act now loses this turn to the computer (None: no deadline runs).
    clock = models.PositiveSmallIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True)
    # A room's match ended early by the player who stayed (the seat number), the score so far
    # standing: nothing is played until a new match is accepted.
    ended_by = models.SmallIntegerField(null=True, blank=True)
    # A room's spectators: the sockets open without a seat (as the room page says it).
    watchers = models.PositiveIntegerField(default=0)
    # The moves of the deal in play that the computer made for a person, as the tables tell
    # them: [[index, why], …], the index of the move's entry in the deal's public log, and
    # "clock" (the turn's time ran out) or "stand_in" (the computer plays the seat).
    stood_in = models.JSONField(default=list, blank=True)
    # Against the computer: the hint found, {"position", "notation"}, shown while the game is
    # at that position (``play.position``: a change of level keeps it, a move makes it stale).
    hint = models.JSONField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = GameManager()

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "kind", "mode", "variant"],
                condition=models.Q(owner__isnull=False),
                name="one_save_per_browser_game_mode_variant",
            )
        ]
        indexes = [
            models.Index(fields=["owner", "-updated"]),
            models.Index(fields=["deadline"], name="game_deadline"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.mode} {self.variant} ({self.id[:8]})"


class RoomManager(models.Manager):
    """Only the online games."""

    def get_queryset(self) -> models.QuerySet:
        """The games played online, i.e. the rooms."""
        return super().get_queryset().filter(mode=Mode.ONLINE)


class Room(Game):
    """An online game, as the admin lists and purges it (the same rows as :class:`Game`)."""

    objects = RoomManager()

    class Meta:
        proxy = True
        verbose_name = _("room")
        verbose_name_plural = _("rooms")


class SeatManager(models.Manager):
    """Seats, with the plain read that every move and every render make."""

    def of_game(self, game_id: str) -> list["Seat"]:
        """The seats of the game ``game_id`` in seat order, read as :meth:`GameManager.by_id`
        reads the game."""
        return list(self.raw(_plain_select(self, "game_id", order_by="number"), [game_id]))


class Seat(models.Model):
    """A seat at a game: a person or a bot of some level."""

    class Kind(models.TextChoices):
        PERSON = "person", _("person")
        BOT = "bot", _("computer")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=6, choices=Kind.choices)
    name = models.CharField(max_length=40)
    level = models.CharField(max_length=10, blank=True)
    # Online rooms: the SHA-256 of the seat key its browser holds ("" while the seat is free),
    # and that browser, so that "Clear my data" can give the seat up.
    key_hash = models.CharField(max_length=64, blank=True)
    browser = models.ForeignKey(
        Browser, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    # Presence: open sockets of this seat, and when one of them last showed signs of life.
    connections = models.PositiveSmallIntegerField(default=0)
    seen_at = models.DateTimeField(null=True, blank=True)
    # Consent: the follow-up ("new", "next") this seat's player accepted, if any.
    accepted = models.CharField(max_length=10, blank=True)
    # A person's seat the computer plays for now (after two turns lost to the clock in a row,
    # a turn lost while away, a seat left for good); its player takes it back by acting.
    stand_in = models.BooleanField(default=False)
    # Turns lost to the clock in a row, and when the seat's last socket closed.
    timeouts = models.PositiveSmallIntegerField(default=0)
    away_since = models.DateTimeField(null=True, blank=True)
    # Rummy: what this player chose once the other had been away a whole turn ("wait",
    # "computer"; the match's end is the game's ``ended_by``).
    absent_choice = models.CharField(max_length=10, blank=True)

    objects = SeatManager()

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_seat_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.number}: {self.name}"

    @property
    def is_bot(self) -> bool:
        """Whether the computer plays this seat."""
        return self.kind == self.Kind.BOT

    @property
    def is_free(self) -> bool:
        """An online person's seat that nobody has taken yet (or that was given up)."""
        return self.kind == self.Kind.PERSON and not self.key_hash

    @property
    def waited_for(self) -> bool:
        """A free seat that play waits for: one the computer does not play meanwhile (a room
        is dealt once its seats are taken; a seat freed later is the computer's until a new
        person takes it)."""
        return self.is_free and not self.stand_in

    @property
    def computer_plays(self) -> bool:
        """Whether the computer makes this seat's moves now: a bot's seat, or a person's that
        it stands in for."""
        return self.kind == self.Kind.BOT or self.stand_in


class Record(models.Model):
    """One deal of a game, kept to be replayed: a whole Durak game, or one round of a Rummy
    match. Made when the cards are dealt (the engine's state then, ``deal``), finished when
    play stops (the moves, in order, and the result). Only a finished record is ever shown:
    by then no card of the deal is hidden to anyone. Its id is unguessable, like a room's,
    and a link with it shows the replay to anyone it is given to."""

    id = models.CharField(primary_key=True, max_length=43, default=new_token, editable=False)
    # The game it was dealt in (None once that game is gone: a save replaced, a room purged).
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="records"
    )
    # A save's browser: its records go with it ("Clear my data").
    owner = models.ForeignKey(
        Browser, null=True, blank=True, on_delete=models.CASCADE, related_name="records"
    )
    kind = models.CharField(_("game"), max_length=20)
    mode = models.CharField(_("mode"), max_length=10, choices=Mode.choices)
    variant = models.CharField(_("variant"), max_length=40)
    options = models.JSONField(default=dict)
    deal = models.JSONField()
    # [[seat, notation], …] in the order played, and who sat where: [{"name", "player":
    # "person" | "computer", "level"}, …]; set when play stops.
    moves = models.JSONField(default=list)
    seats = models.JSONField(default=list)
    # The moves the computer made for a person, as ``Game.stood_in`` kept them.
    stood_in = models.JSONField(default=list, blank=True)
    result = models.JSONField(null=True, blank=True)
    # The hints given and the moves taken back during the deal (against the computer); and
    # whether this deal, or an earlier round of its Rummy match, had any: the statistics keep
    # the games played with help apart.
    hints = models.PositiveIntegerField(default=0)
    take_backs = models.PositiveIntegerField(default=0)
    helped = models.BooleanField(default=False)
    dealt = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("game record")
        verbose_name_plural = _("game records")
        indexes = [models.Index(fields=["game", "finished"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.mode} {self.variant} ({self.id[:8]})"


class RecordSeat(models.Model):
    """Which browser played a seat of a finished record: the browser's statistics count it.
    A browser's seats go with it ("Clear my data"); the record stays for the other players."""

    record = models.ForeignKey(Record, on_delete=models.CASCADE, related_name="players")
    number = models.PositiveSmallIntegerField()
    browser = models.ForeignKey(Browser, on_delete=models.CASCADE, related_name="record_seats")
    # What the deal came to for this seat (``GameKind.seat_result``): {"won": …, …}.
    result = models.JSONField(default=dict)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["record", "number", "browser"], name="one_record_seat_per_browser"
            )
        ]


class Review(models.Model):
    """The computer's review of a finished record's people's decisions (``cardgames.reviews``):
    asked once, made by the bot workers a part at a time, kept with the record.

    ``decisions`` holds one entry per decision judged so far, in the order played: ``{"move":
    <index into the record's moves>, "seat", "played", "best", "win_played", "win_best",
    "mark", "exact"}``; ``total`` is how many there are to judge in all."""

    record = models.OneToOneField(
        Record, primary_key=True, on_delete=models.CASCADE, related_name="review"
    )
    seed = models.BigIntegerField()
    total = models.PositiveIntegerField()
    decisions = models.JSONField(default=list)
    asked = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("game review")
        verbose_name_plural = _("game reviews")

    def __str__(self) -> str:
        return f"review of {self.record_id[:8]} ({len(self.decisions)}/{self.total})"

    @property
    def done(self) -> bool:
        """Whether every decision is judged."""
        return len(self.decisions) >= self.total


class Rating(models.Model):
    """A browser's rating at one game (``cardgames.ratings``): OpenSkill's skill estimate
    ``mu`` and its uncertainty ``sigma``, from ``games`` rated games. Goes with the browser
    ("Clear my data")."""

    browser = models.ForeignKey(Browser, on_delete=models.CASCADE, related_name="ratings")
    kind = models.CharField(_("game"), max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["browser", "kind"], name="one_rating_per_game")
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.mu:.1f} ± {self.sigma:.1f}"
