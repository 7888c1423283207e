"""Helpers for the table tests: start games as a browser would, talk to the table's socket."""

import json
import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone
from django_tasks.base import Task, TaskResultStatus
from django_tasks_db.models import DBTaskResult

from cardgames.asgi import application
from cardgames.models import Game

VERSION = re.compile(r'<div id="table"[^>]*data-version="(\d+)"')
ALERT = re.compile(r'role="alert">([^<]*)<')


def lost_by_a_killed_worker(task: Task, *args: Any, **kwargs: Any) -> None:
    """Enqueue ``task`` with ``args`` as claimed a minute ago by a worker that died (no worker
    runs it meanwhile: it is scheduled far ahead until claimed), as the sweep finds it."""
    later = timezone.now() + timedelta(hours=1)
    result = task.using(run_after=later).enqueue(*args, **kwargs)
    long_ago = timezone.now() - timedelta(seconds=60)
    DBTaskResult.objects.filter(pk=result.id).update(
        status=TaskResultStatus.RUNNING, started_at=long_ago, run_after=long_ago
    )


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


def text_of(html: str) -> str:
    """The text of a fragment, without its tags (the move log marks each card it names)."""
    return re.sub(r"<[^>]+>", "", html)


def alert_in(html: str) -> str | None:
    """The error message in a fragment, if any."""
    match = ALERT.search(html)
    return match.group(1) if match else None


class Table:
    """One browser's websocket to one game's table.

    A saved game's socket sends the client's ``browser`` cookie; a room's (``room=True``, at
    ``/room/<id>/ws/``) sends all the client's cookies, as a browser does under the room's
    path, unless ``cookies`` says exactly which to send. Every fragment received is kept in
    ``frames``. ``app`` is the ASGI application the socket talks to (the site's, or one that
    wraps it); ``query`` is added to the socket's query string (``shows=3&told=5``).
    """

    def __init__(
        self,
        client: Client,
        game_id: str,
        language: str = "en",
        *,
        room: bool = False,
        cookies: dict[str, str] | None = None,
        app: Any = application,
        query: str = "",
    ) -> None:
        if cookies is None and room:
            cookies = {
                name: morsel.value for name, morsel in client.cookies.items() if morsel.value
            }
        elif cookies is None:
            cookies = {"browser": client.cookies["browser"].value}
        header = "; ".join(f"{name}={value}" for name, value in cookies.items())
        path = f"/room/{game_id}/ws/" if room else f"/ws/game/{game_id}/"
        self.communicator = WebsocketCommunicator(
            app,
            f"{path}?lang={language}" + (f"&{query}" if query else ""),
            headers=[
                (b"cookie", header.encode()),
                (b"origin", b"http://localhost"),
                (b"host", b"localhost"),
            ],
        )
        self.game_id = game_id
        self.html = ""
        self.frames: list[str] = []

    async def __aenter__(self) -> "Table":
        connected, _code = await self.communicator.connect()
        assert connected
        await self.receive()
        return self

    async def receive(self) -> str:
        """The next fragment the table pushes."""
        self.html = await self.communicator.receive_from(timeout=10)
        self.frames.append(self.html)
        return self.html

    async def __aexit__(self, *exc: object) -> None:
        await self.communicator.disconnect()

    async def send(self, message: Any) -> str:
        """Send ``message`` (JSON-encoded unless it is a str) and return the next fragment."""
        text = message if isinstance(message, str) else json.dumps(message)
        await self.communicator.send_to(text_data=text)
        return await self.receive()

    async def wait_for(self, text: str) -> str:
        """Receive fragments until one contains ``text``."""
        return await self.wait_until(lambda html: text in html)

    async def wait_until(self, check: Callable[[str], bool]) -> str:
        """Receive fragments until one passes ``check`` (the latest one may already)."""
        while not check(self.html):
            await self.receive()
        return self.html

    async def game(self) -> Game:
        """The game's row as it is now."""
        return await database_sync_to_async(Game.objects.get)(pk=self.game_id)
