"""The websocket routes: one table connection per game or room."""

from django.urls import path

from cardgames.live import TableConsumer

websocket_urlpatterns = [
    path("ws/game/<str:game_id>/", TableConsumer.as_asgi()),
    # Under the room's path, so that the room's seat key cookie comes along.
    path("room/<str:game_id>/ws/", TableConsumer.as_asgi()),
]
