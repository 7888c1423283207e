"""Helpers for the table tests: start games as a browser would, talk to the table's socket."""

import json
import re
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from cardgames.asgi import application
from cardgames.models import Game

VERSION = re.compile(r'<div id="table"[^>]*data-version="(\d+)"')
ALERT = re.compile(r'role="alert">([^<]*)<')


def start_computer_game(client: Client, kind: str = "durak", **options: Any) -> Game:
    """Press "Vs computer" on the home page with ``options``; the game it opened."""
    response = client.post(f"/play/{kind}/computer/", options)
    assert response.status_code == 302, response.content
    return Game.objects.get(pk=response["Location"].split("/")[2])


def version_of(html: str) -> int:
    """The game version a table fragment was rendered at."""
    match = VERSION.search(html)
    assert match, html[:500]
    return int(match.group(1))


def alert_in(html: str) -> str | None:
    """The error message in a fragment, if any."""
    match = ALERT.search(html)
    return match.group(1) if match else None


class Table:
    """One browser's websocket to one game's table."""

    def __init__(self, client: Client, game_id: str, language: str = "en") -> None:
        cookie = client.cookies["browser"].value
        self.communicator = WebsocketCommunicator(
            application,
            f"/ws/game/{game_id}/?lang={language}",
            headers=[(b"cookie", f"browser={cookie}".encode()), (b"origin", b"http://localhost")],
        )
        self.game_id = game_id
        self.html = ""

    async def __aenter__(self) -> "Table":
        connected, _code = await self.communicator.connect()
        assert connected
        self.html = await self.communicator.receive_from(timeout=10)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.communicator.disconnect()

    async def send(self, message: Any) -> str:
        """Send ``message`` (JSON-encoded unless it is a str) and return the next fragment."""
        text = message if isinstance(message, str) else json.dumps(message)
        await self.communicator.send_to(text_data=text)
        self.html = await self.communicator.receive_from(timeout=10)
        return self.html

    async def wait_for(self, text: str) -> str:
        """Receive fragments until one contains ``text``."""
        while text not in self.html:
            self.html = await self.communicator.receive_from(timeout=10)
        return self.html

    async def game(self) -> Game:
        """The game's row as it is now."""
        return await database_sync_to_async(Game.objects.get)(pk=self.game_id)
