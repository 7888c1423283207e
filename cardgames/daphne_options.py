"""Two options of Daphne's websocket server that its command line does not offer.

- ``failByDrop`` off. A frame over Daphne's size limit (``--websocket-max-message-size``,
  1 MiB) makes autobahn fail the connection, and by default it fails it by dropping the TCP
  connection: the client sees 1006 and nothing else. With ``failByDrop`` off, autobahn first
  sends a close frame that says why (1009, "message too big"), as it does for any protocol
  error. A table message is a few short fields (``live.MAX_MESSAGE_BYTES``); those between that
  and the limit get a translated error on the open socket.
- A longer closing handshake (``CLOSE_HANDSHAKE_TIMEOUT``). When the server closes a socket
  (4008 for a flood, 4404 for a game that is gone), autobahn waits one second for the page's
  answering close frame, then drops the connection. Chromium answers only once the page has
  read every message before the close, so a page still busy with the tables it was sent (a slow
  phone, a loaded machine) saw 1006, the code of a broken connection, and reconnected by itself
  instead of saying why it was closed.

Imported by ``cardgames.asgi``, which Daphne loads before it builds its websocket factory.
"""

from typing import Any

from daphne.ws_protocol import WebSocketFactory

# Seconds a closing socket waits for the page's answer before the connection is dropped.
CLOSE_HANDSHAKE_TIMEOUT = 10

_build = WebSocketFactory.__init__


def _closing_with_a_reason(self: WebSocketFactory, *args: Any, **kwargs: Any) -> None:
    _build(self, *args, **kwargs)
    self.setProtocolOptions(failByDrop=False, closeHandshakeTimeout=CLOSE_HANDSHAKE_TIMEOUT)


WebSocketFactory.__init__ = _closing_with_a_reason
