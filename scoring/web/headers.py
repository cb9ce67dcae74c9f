"""The headers every answer carries so that a browser keeps the display to itself.

The page keeps the table's token in ``localStorage``; the policy lets only the display's own scripts run
(``script-src 'self'``, no inline script, nothing from another site) and no other site frame it, so a
framed display cannot be clicked into Undo or Delete.
"""

from __future__ import annotations

from scoring.web.gate import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every answer, refusals included."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []),
                                      *((k, v) for k, v in SECURITY_HEADERS if k not in present)]
            await send(message)

        await self.app(scope, receive, send_with_headers)
