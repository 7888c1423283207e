"""The Django admin (staff only): online rooms with their last activity and the idle purge, and
the saved games, to look at rather than to edit.
"""

from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from cardgames.models import Game, Mode, Room, Seat
from cardgames.retention import IDLE_DAYS, delete_games, idle_rooms, save_days, stale_saves

# The characters of a room's id staff see: enough to tell rooms apart, far too few to join.
SHORT_ID = 8


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

    def tell_purged(self, request: HttpRequest, deleted: str, kept: str | None) -> None:
        """Say what a purge action deleted and, if any, which of the rows selected it kept."""
        self.message_user(request, deleted, messages.SUCCESS)
        if kept:
            self.message_user(request, kept, messages.INFO)


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


def short_room_id(room_id: str) -> str:
    """What staff see of a room's id."""
    return room_id[:SHORT_ID]


@admin.register(Room)
class RoomAdmin(ReadMostly):
    """Online rooms, the longest idle first, with the purge as an action.

    A room's id is its invitation: staff see only its first characters, in the list and in the
    selection boxes, and no page of a room has its id in the URL (there is none but the list).
    """

    list_display = ("short_id", "kind", "variant", "seat_list", "created", "last_activity")
    list_display_links = None
    list_filter = ("kind", IdleFilter)
    ordering = ("updated",)
    actions = ("purge_idle",)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        """The rooms with their seats, in one query more."""
        return super().get_queryset(request).prefetch_related("seats")

    def has_view_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        """The list, never a room's own page (its URL would hold the room's id)."""
        return obj is None and super().has_view_permission(request)

    def get_actions(self, request: HttpRequest) -> dict:
        """The purge only: the site's "delete selected" confirms with links to each room."""
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def action_checkbox(self, room: Room) -> str:
        """The selection box, with the room's short id as its value."""
        attrs = {"class": "action-select", "aria-label": str(room)}
        return forms.CheckboxInput(attrs, lambda value: False).render(
            ACTION_CHECKBOX_NAME, self.short_id(room)
        )

    def response_action(self, request: HttpRequest, queryset: QuerySet):
        """Run an action on the rooms whose short ids were selected."""
        shorts = set(request.POST.getlist(ACTION_CHECKBOX_NAME))
        if shorts:
            post = request.POST.copy()
            starts = Q(pk__in=[])
            for short in shorts:
                starts |= Q(pk__startswith=short)
            rooms = Room.objects.filter(starts).values_list("pk", flat=True)
            post.setlist(ACTION_CHECKBOX_NAME, [pk for pk in rooms if short_room_id(pk) in shorts])
            request.POST = post
        return super().response_action(request, queryset)

    @admin.display(description=_("room"), ordering="id")
    def short_id(self, room: Room) -> str:
        """The start of the room's id: enough to tell rooms apart, not to join one."""
        return short_room_id(room.pk)

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
        deleted = delete_games(idle_rooms(IDLE_DAYS, rooms=queryset))
        kept = selected - deleted
        self.tell_purged(
            request,
            ngettext("%(count)d idle room deleted.", "%(count)d idle rooms deleted.", deleted)
            % {"count": deleted},
            ngettext(
                "%(count)d selected room was active in the last seven days and is kept.",
                "%(count)d selected rooms were active in the last seven days and are kept.",
                kept,
            )
            % {"count": kept}
            if kept
            else None,
        )


@admin.register(Game)
class GameAdmin(ReadMostly):
    """The saves of browsers (vs computer, pass and play), with the purge of the old ones as an
    action. Rooms are listed apart (``RoomAdmin``), without their ids."""

    list_display = ("__str__", "kind", "mode", "variant", "version", "created", "updated")
    list_filter = ("kind", "mode")
    ordering = ("-updated",)
    fields = ("kind", "mode", "variant", "version", "owner", "series", "created", "updated")
    readonly_fields = fields
    actions = ("purge_old",)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        """The saves only."""
        return super().get_queryset(request).exclude(mode=Mode.ONLINE)

    @admin.action(
        description=_("Delete saves untouched for the time saves are kept"), permissions=["delete"]
    )
    def purge_old(self, request: HttpRequest, queryset: QuerySet) -> None:
        """Delete the selected saves untouched for ``SAVE_DAYS`` days or more."""
        selected = queryset.count()
        deleted = delete_games(stale_saves(games=queryset))
        kept = selected - deleted
        self.tell_purged(
            request,
            ngettext("%(count)d old save deleted.", "%(count)d old saves deleted.", deleted)
            % {"count": deleted},
            ngettext(
                "%(count)d selected save was played in the last %(days)d days and is kept.",
                "%(count)d selected saves were played in the last %(days)d days and are kept.",
                kept,
            )
            % {"count": kept, "days": save_days()}
            if kept
            else None,
        )
