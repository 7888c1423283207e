"""The site's URLs: the platform's pages, then one prefix per game app."""

from django.contrib import admin
from django.urls import include, path

import cardgames.converters  # noqa: F401  (registers the <token:…> converter)
from cardgames import views
from cardgames.registry import all_kinds

urlpatterns = [
    path("", views.home, name="home"),
    path("play/<str:kind_name>/computer/", views.play_computer, name="play_computer"),
    path("play/<str:kind_name>/hotseat/", views.play_hotseat, name="play_hotseat"),
    path("play/<str:kind_name>/online/", views.open_room, name="open_room"),
    path("game/<token:game_id>/", views.table, name="table"),
    path("game/<token:game_id>/history/", views.game_history, name="game_history"),
    path("room/<token:game_id>/history/", views.room_history, name="room_history"),
    path("room/<token:game_id>/", views.room, name="room"),
    path("room/<token:game_id>/join/", views.join_room, name="join_room"),
    path("room/<token:game_id>/leave/", views.leave_room, name="leave_room"),
    path("record/<token:record_id>/", views.replay, name="replay"),
    path("record/<token:record_id>/download/", views.record_download, name="record_download"),
    path("record/<token:record_id>/review/", views.record_review, name="record_review"),
    path("stats/", views.statistics, name="statistics"),
    path("clear/", views.clear_data, name="clear_data"),
    # Each registered game's own pages (rules …) under its name.
    *(path(f"{kind.name}/", include(kind.urls)) for kind in all_kinds()),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
