"""The Django admin (staff only): online rooms with their last activity and the idle purge, and
the saved games, to look at rather than to edit.
"""

from datetime import timedelta

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from cardgames.models import Game, Room, Seat
from cardgames.rooms import IDLE_DAYS, purge_idle_rooms


class SeatInline(admin.TabularInline):
    """A game's seats, read only (the seat key's hash is left out: it is nobody's business)."""

    model = Seat
    fields = ("number", "kind", "name", "level", "connections", "seen_at", "accepted")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        """Seats come with their game."""
        return False


class ReadMostly(admin.ModelAdmin):
    """Games change only through play: the admin may look and delete, never add or edit."""

    inlines = (SeatInline,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        """Games are made by playing."""
        return False

    def has_change_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        """An edited state could break a game; the change page is view only."""
        return False


class IdleFilter(admin.SimpleListFilter):
    """Rooms idle long enough to be purged, or still in use."""

    title = _("activity")
    parameter_name = "idle"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin):
        """The two choices."""
        return [
            ("yes", _("Idle for seven days or more")),
            ("no", _("Active in the last seven days")),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        """The rooms of the choice made, if any."""
        cutoff = timezone.now() - timedelta(days=IDLE_DAYS)
        if self.value() == "yes":
            return queryset.filter(updated__lte=cutoff)
        if self.value() == "no":
            return queryset.filter(updated__gt=cutoff)
        return queryset


@admin.register(Room)
class RoomAdmin(ReadMostly):
    """Online rooms, the longest idle first, with the purge as an action."""

    list_display = ("short_id", "kind", "variant", "seat_list", "created", "last_activity")
    list_filter = ("kind", IdleFilter)
    ordering = ("updated",)
    actions = ("purge_idle",)
    fields = ("kind", "variant", "options", "version", "series", "created", "updated")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        """The rooms with their seats, in one query more."""
        return super().get_queryset(request).prefetch_related("seats")

    @admin.display(description=_("room"), ordering="id")
    def short_id(self, room: Room) -> str:
        """The start of the room's id: enough to tell rooms apart, not to join one."""
        return room.pk[:8]

    @admin.display(description=_("seats"))
    def seat_list(self, room: Room) -> str:
        """The seats' names in order, "free" for a seat nobody has taken."""
        return ", ".join(str(_("free")) if seat.is_free else seat.name for seat in room.seats.all())

    @admin.display(description=_("last activity"), ordering="updated")
    def last_activity(self, room: Room):
        """When the room last saw a move, a seat taken or given up, or a consent."""
        return room.updated

    @admin.action(description=_("Delete rooms idle for seven days or more"), permissions=["delete"])
    def purge_idle(self, request: HttpRequest, queryset: QuerySet) -> None:
        """Delete the selected rooms that are idle (select all to purge every idle room)."""
        selected = queryset.count()
        deleted = purge_idle_rooms(IDLE_DAYS, rooms=queryset)
        self.message_user(
            request,
            ngettext("%(count)d idle room deleted.", "%(count)d idle rooms deleted.", deleted)
            % {"count": deleted},
            messages.SUCCESS,
        )
        if selected > deleted:
            kept = selected - deleted
            self.message_user(
                request,
                ngettext(
                    "%(count)d selected room was active in the last seven days and is kept.",
                    "%(count)d selected rooms were active in the last seven days and are kept.",
                    kept,
                )
                % {"count": kept},
                messages.INFO,
            )


@admin.register(Game)
class GameAdmin(ReadMostly):
    """Every game: the saves of browsers (vs computer, pass and play) and the rooms."""

    list_display = ("__str__", "kind", "mode", "variant", "version", "created", "updated")
    list_filter = ("kind", "mode")
    ordering = ("-updated",)
    fields = ("kind", "mode", "variant", "version", "owner", "series", "created", "updated")
    readonly_fields = fields
