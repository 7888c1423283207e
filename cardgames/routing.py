"""The websocket routes: one table connection per game."""

from django.urls import path

from cardgames.live import TableConsumer

websocket_urlpatterns = [
    path("ws/game/<str:game_id>/", TableConsumer.as_asgi()),
]
