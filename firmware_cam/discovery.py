"""Finding cameras without typing an address: mDNS/DNS-SD (``_borne-cam._tcp``) with the ``zeroconf`` package.

The agent announces its name, port and paths (never its token); ``borne run`` and the display list the
cameras found and open one by name. On a LAN this is multicast DNS, as printers and speakers use.
"""

from __future__ import annotations

import logging
import socket
import threading
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("borne-cam")

SERVICE_TYPE = "_borne-cam._tcp.local."
STREAM_PATH = "/stream.mjpg"


class DiscoveryError(RuntimeError):
    """Discovery is not possible here (``zeroconf`` missing) or a name was not found."""


@dataclass(frozen=True)
class FoundCamera:
    """A camera that answered on the network."""

    name: str
    """The name it announces (``borne-cam-kitchen``)."""
    host: str
    """An address to reach it (IPv4)."""
    port: int
    path: str = STREAM_PATH

    @property
    def url(self) -> str:
        """Its stream's URL, without the token."""
        return f"http://{self.host}:{self.port}{self.path}"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "host": self.host, "port": self.port, "url": self.url}


def default_name() -> str:
    return f"borne-cam-{socket.gethostname().split('.')[0]}"[:60]


def _zeroconf() -> Any:
    try:
        import zeroconf
    except ImportError:
        raise DiscoveryError("camera discovery needs the zeroconf package (pip install zeroconf)") from None
    return zeroconf


def _addresses(host: str) -> list[str]:
    """The IPv4 addresses to announce for a server listening on ``host``."""
    if host not in ("0.0.0.0", "", "::"):
        return [host]
    import ifaddr  # zeroconf's own dependency

    found = [ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips
             if isinstance(ip.ip, str) and not ip.ip.startswith("169.254.")]
    lan = [a for a in found if not a.startswith("127.")]
    return lan or found or ["127.0.0.1"]


class Announcement:
    """The agent's mDNS announcement; :meth:`close` withdraws it."""

    def __init__(self, name: str, port: int, *, host: str = "0.0.0.0", interfaces: list[str] | None = None) -> None:
        zc = _zeroconf()
        self.name = name
        addresses = _addresses(host)
        if interfaces is None and host not in ("0.0.0.0", "", "::"):
            interfaces = [host]
        self._zc = zc.Zeroconf(interfaces=interfaces or zc.InterfaceChoice.All, ip_version=zc.IPVersion.V4Only)
        label = name.replace(" ", "-")
        self.info = zc.ServiceInfo(
            SERVICE_TYPE, f"{name}.{SERVICE_TYPE}", port=port,
            addresses=[socket.inet_aton(a) for a in addresses],
            properties={"path": STREAM_PATH, "snapshot": "/snapshot.jpg", "status": "/status", "version": "1"},
            server=f"{label}.local.")
        self._zc.register_service(self.info, allow_name_change=True)
        log.info("announced over mDNS as %r on %s port %d", name, ", ".join(addresses), port)

    def close(self) -> None:
        try:
            self._zc.unregister_service(self.info)
        finally:
            self._zc.close()


def find_cameras(timeout: float = 3.0, *, interfaces: list[str] | None = None, wanted: str | None = None) -> list[FoundCamera]:
    """The cameras that answer within ``timeout`` seconds; with ``wanted``, as soon as that one answers (only
    it is returned then), or, when it never does, every camera that did answer in the time.

    :raises DiscoveryError: zeroconf is not installed.
    """
    from concurrent.futures import ThreadPoolExecutor

    _zeroconf()
    # in a thread of its own: zeroconf's synchronous API would attach to an event loop the caller's thread
    # holds without running it (a test driving Playwright, say), and then hear nothing
    with ThreadPoolExecutor(1, thread_name_prefix="mdns-browse") as pool:
        return pool.submit(_find, timeout, interfaces, wanted).result()


def _find(timeout: float, interfaces: list[str] | None, wanted: str | None) -> list[FoundCamera]:
    zc = _zeroconf()
    conf = zc.Zeroconf(interfaces=interfaces or zc.InterfaceChoice.All, ip_version=zc.IPVersion.V4Only)
    names: list[str] = []
    seen = threading.Event()

    class Listener:
        def add_service(self, _zc: Any, _type: str, name: str) -> None:
            names.append(name)
            if wanted is not None and _short(name) == wanted:
                seen.set()

        def update_service(self, _zc: Any, _type: str, name: str) -> None:
            pass

        def remove_service(self, _zc: Any, _type: str, name: str) -> None:
            pass

    found: list[FoundCamera] = []
    try:
        browser = zc.ServiceBrowser(conf, SERVICE_TYPE, Listener())
        seen.wait(timeout)
        browser.cancel()
        for full in dict.fromkeys(names):
            if seen.is_set() and _short(full) != wanted:
                continue
            info = conf.get_service_info(SERVICE_TYPE, full, timeout=1500)
            if info is None or not info.parsed_addresses():
                continue
            props = {k.decode(): (v.decode() if v else "") for k, v in (info.properties or {}).items()}
            found.append(FoundCamera(_short(full), info.parsed_addresses()[0], int(info.port or 0),
                                     props.get("path") or STREAM_PATH))
    finally:
        conf.close()
    return sorted(found, key=lambda c: c.name)


def resolve(name: str, timeout: float = 5.0, *, interfaces: list[str] | None = None) -> FoundCamera:
    """The camera announcing ``name``.

    :raises DiscoveryError: naming the cameras that did answer.
    """
    found = find_cameras(timeout, interfaces=interfaces, wanted=name)
    for camera in found:
        if camera.name == name:
            return camera
    listed = ", ".join(c.name for c in found) or "none"
    raise DiscoveryError(f"no camera named {name!r} answered on the network within {timeout:g} s "
                         f"(cameras found: {listed})")


def _short(full: str) -> str:
    return full[: -len(SERVICE_TYPE) - 1] if full.endswith("." + SERVICE_TYPE) else full
