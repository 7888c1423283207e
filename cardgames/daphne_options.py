"""One option of Daphne's websocket server that its command line does not offer.

A frame over Daphne's size limit (``--websocket-max-message-size``, 1 MiB) makes autobahn fail
the connection, and by default it fails it by dropping the TCP connection: the client sees
1006 and nothing else. With ``failByDrop`` off, autobahn first sends a close frame that says
why (1009, "message too big"), as it does for any protocol error. A table message is a few
short fields (``live.MAX_MESSAGE_BYTES``); those between that and the limit get a translated
error on the open socket.

Imported by ``cardgames.asgi``, which Daphne loads before it builds its websocket factory.
"""

from typing import Any

from daphne.ws_protocol import WebSocketFactory

_build = WebSocketFactory.__init__


def _failing_with_a_reason(self: WebSocketFactory, *args: Any, **kwargs: Any) -> None:
    _build(self, *args, **kwargs)
    self.setProtocolOptions(failByDrop=False)


WebSocketFactory.__init__ = _failing_with_a_reason
