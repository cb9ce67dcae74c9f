"""The phone's browser as the table's camera (``borne run --source browser``): the source its pictures feed,
the feed's news on the display's camera panel, and what ``borne run`` prints so a person can open the page.

>>> lines = phone_instructions("https://127.0.0.1:8000", host="127.0.0.1", addresses=("127.0.0.1", "192.168.1.20"),
...                            token="k7mqx-2pt9r-hw4cz", fingerprint="AB:CD", certificate="/data/https-certificate.pem")
>>> print("\\n".join(lines))  # doctest: +NORMALIZE_WHITESPACE
Phone camera: open https://127.0.0.1:8000/camera?token=k7mqx-2pt9r-hw4cz
  a phone cannot reach 127.0.0.1: start with --host 0.0.0.0 to open the display to the LAN
HTTPS certificate: /data/https-certificate.pem, SHA-256 AB:CD
  the browser warns once about it: check that it shows this fingerprint, then go on (Advanced, Proceed);
  or install https://127.0.0.1:8000/camera/certificate.pem on the phone as a trusted certificate
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scoring.web.camera import CameraState
    from vision.sources.pushed import FeedCounts, PushedSource

BROWSER_SOURCE = "browser"
"""``--source browser``: the pictures come from the page ``/camera`` opened on a phone."""

BROWSER_FRAME_SIZE = (1280, 720)
"""The picture size the page asks the phone's camera for: the default zones are drawn for it until one arrives."""

NEWS_EVERY_S = 1.0
"""How often the feed's counts are written into the camera panel's message."""


def browser_source() -> PushedSource:
    from vision.sources.pushed import PushedSource

    return PushedSource(name="the phone's camera")


def feed_news(counts: FeedCounts) -> str:
    """The camera panel's line about the feed.

    >>> from vision.sources.pushed import FeedCounts
    >>> feed_news(FeedCounts(received=120, taken=80, dropped=40, corrupt=0, received_per_second=8.04, senders=1))
    "the phone's camera: 8.0 pictures/s received, 40 dropped (the pipeline took 80 of 120)"
    >>> feed_news(FeedCounts(received=0, taken=0, dropped=0, corrupt=0, received_per_second=0.0, senders=0))
    "the phone's camera: waiting for the page /camera to connect"
    >>> feed_news(FeedCounts(received=9, taken=9, dropped=0, corrupt=0, received_per_second=0.0, senders=1))
    "the phone's camera: connected, but no picture comes (is the phone's screen on, the page in front?)"
    """
    if counts.senders == 0:
        return "the phone's camera: waiting for the page /camera to connect"
    if counts.received_per_second == 0:
        return "the phone's camera: connected, but no picture comes (is the phone's screen on, the page in front?)"
    bad = f", {counts.corrupt} unreadable" if counts.corrupt else ""
    return (f"the phone's camera: {counts.received_per_second:.1f} pictures/s received, {counts.dropped} dropped"
            f"{bad} (the pipeline took {counts.taken} of {counts.received})")


def watch_feed(source: PushedSource, camera: CameraState, stop: threading.Event) -> None:
    """Keep the camera panel's message saying how the feed goes (the display's camera watcher copies it); a page
    still connected that sends nothing (a phone whose screen went off) is a camera lost."""
    while not stop.wait(NEWS_EVERY_S):
        if camera.status.ended:
            return
        counts = source.counts()
        source.stats.message = feed_news(counts)
        source.stats.connected = counts.senders > 0 and counts.received_per_second > 0


def phone_instructions(url: str, *, host: str, addresses: tuple[str, ...], token: str,
                       fingerprint: str | None, certificate: str | None) -> list[str]:
    """What ``borne run --source browser`` prints: the page to open on the phone, and how to trust the certificate.

    ``url``: where the display listens; ``host``: ``--host``; ``addresses``: this machine's addresses (the
    certificate's), for a display open to the LAN.
    """
    from urllib.parse import quote, urlsplit

    port = urlsplit(url).port
    scheme = urlsplit(url).scheme
    query = f"?token={quote(token, safe='')}"
    if host in ("0.0.0.0", "::"):
        lan = [a for a in addresses if not a.startswith("127.") and a != "::1"]
        pages = [f"{scheme}://{a if ':' not in a else f'[{a}]'}:{port}/camera" for a in lan] or [f"{url}/camera"]
    else:
        pages = [f"{url}/camera"]
    lines = [f"Phone camera: open {pages[0]}{query}"]
    lines += [f"  or {page}{query}" for page in pages[1:]]
    if host.startswith("127.") or host in ("localhost", "::1"):
        lines.append(f"  a phone cannot reach {host}: start with --host 0.0.0.0 to open the display to the LAN")
    if fingerprint is None:
        lines.append("  served without HTTPS (--no-https): a phone's browser gives a page its camera only over HTTPS")
        return lines
    lines.append(f"HTTPS certificate: {certificate}, SHA-256 {fingerprint}")
    lines.append("  the browser warns once about it: check that it shows this fingerprint, then go on (Advanced, Proceed);")
    lines.append(f"  or install {pages[0]}/certificate.pem on the phone as a trusted certificate")
    return lines
