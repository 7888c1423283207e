"""The site's ASGI application with one more table message, ``{"op": "fail"}``, which raises
as a bug would: the socket's consumer dies with a server error and Daphne closes it with 1011.

Served only by ``test_socket_ends.py``; nothing deployed imports it.
"""

from typing import Any

from cardgames.asgi import application
from cardgames.live import TableConsumer

__all__ = ["application"]

_handle = TableConsumer._handle


def _failing_handle(self: TableConsumer, message: dict[str, Any]) -> Any:
    if message.get("op") == "fail":
        raise RuntimeError("a server error, on purpose")
    return _handle(self, message)


TableConsumer._handle = _failing_handle
