"""The display's own HTTPS certificate for the LAN: a browser lets a page use the camera only over HTTPS.

``borne run --source browser`` serves over HTTPS with a self-signed certificate made for this machine (its host
names and IP addresses as subjectAltNames), kept in the user's data folder beside the default games file and
reused at every start: a phone that trusted it once (or whose person checked its fingerprint) keeps trusting it.
It is made again, with the same key, only when it lacks one of the machine's names or addresses (a new address
from the router) or is about to expire; the fingerprint then changes and is printed again.

Needs the ``cryptography`` package (imported only here, only when HTTPS is asked for).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import ipaddress
import os
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ec import EllipticCurvePrivateKey
    from cryptography.x509 import Certificate

CERTIFICATE_FILE = "https-certificate.pem"
KEY_FILE = "https-key.pem"

VALID_DAYS = 800
"""How long a certificate is valid: Apple's devices refuse a TLS server certificate valid for more than 825 days."""
RENEW_DAYS = 30
"""A certificate that expires within this many days is made again at start."""


class CertificateError(ValueError):
    """The certificate cannot be made or kept (the data folder is not writable, a kept file is unreadable)."""


@dataclass(frozen=True)
class LanCertificate:
    """The certificate the display serves HTTPS with, and what a person needs to trust it."""

    certificate: Path
    """The certificate (PEM); a phone may install it to trust the display."""
    key: Path
    """Its private key (PEM, readable by the user only)."""
    fingerprint: str
    """The certificate's SHA-256, as browsers show it (``AB:CD:…``)."""
    names: tuple[str, ...]
    """The host names it is valid for."""
    addresses: tuple[str, ...]
    """The IP addresses it is valid for."""
    made: bool
    """Made at this start (``False``: the kept one was reused)."""


def certificate_folder() -> Path:
    """Where the certificate is kept: the user's data folder, beside the default games file."""
    from scoring.storage import default_db_path

    return default_db_path().parent


def machine_addresses() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """This machine's host names and IP addresses, as a phone on the LAN may open the display by them.

    Names: ``localhost``, the host name, ``NAME.local`` and the FQDN; addresses: loopback and every address of
    the network interfaces (read from the system, nothing is sent).
    """
    names = {"localhost"}
    addresses = {"127.0.0.1", "::1"}
    with contextlib.suppress(OSError):
        host = socket.gethostname().lower()
        if host:
            names |= {host, f"{host.split('.')[0]}.local"}
        fqdn = socket.getfqdn().lower()
        if fqdn and "." in fqdn and fqdn != "localhost":
            names.add(fqdn)
        for info in socket.getaddrinfo(host, None):
            addresses.add(str(info[4][0]).split("%")[0])
    addresses |= _interface_addresses()
    usable = {a for a in addresses if not ipaddress.ip_address(a).is_link_local}
    return tuple(sorted(names)), tuple(sorted(usable, key=_address_order))


def _address_order(address: str) -> tuple[int, str]:
    return (ipaddress.ip_address(address).version, address)


def _interface_addresses() -> set[str]:
    """The IPv4 addresses of the network interfaces (Linux, by ``ioctl``; elsewhere none beyond DNS's)."""
    import struct

    found: set[str] = set()
    try:
        import fcntl
    except ImportError:
        return found
    siocgifaddr = 0x8915
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            with contextlib.suppress(OSError):
                packed = fcntl.ioctl(s.fileno(), siocgifaddr, struct.pack("256s", name.encode()[:15]))
                found.add(socket.inet_ntoa(packed[20:24]))
    return found


def keep_certificate(folder: Path | None = None, *, names: tuple[str, ...] | None = None,
                     addresses: tuple[str, ...] | None = None,
                     now: dt.datetime | None = None) -> LanCertificate:
    """The certificate kept in ``folder`` (default :func:`certificate_folder`), made when there is none, or
    made again (same key) when it lacks one of ``names``/``addresses`` (default: :func:`machine_addresses`)
    or expires within :data:`RENEW_DAYS`.

    :raises CertificateError: the folder is not writable or a kept file cannot be read.
    """
    folder = folder if folder is not None else certificate_folder()
    if names is None or addresses is None:
        found_names, found_addresses = machine_addresses()
        names = names if names is not None else found_names
        addresses = addresses if addresses is not None else found_addresses
    now = now or dt.datetime.now(dt.UTC)
    cert_path, key_path = folder / CERTIFICATE_FILE, folder / KEY_FILE
    try:
        folder.mkdir(parents=True, exist_ok=True)
        key = _load_or_make_key(key_path)
        kept = _load_certificate(cert_path) if cert_path.exists() else None
        if kept is not None and _covers(kept, names, addresses, now):
            return _describe(kept, cert_path, key_path, made=False)
        # a new certificate names the kept one's addresses too: a laptop that moves between two networks
        # keeps one certificate for both
        if kept is not None:
            old_names, old_addresses = _alt_names(kept)
            names, addresses = tuple(sorted({*names, *old_names})), tuple(sorted({*addresses, *old_addresses}))
        made = _make_certificate(key, names, addresses, now)
        _write_atomically(cert_path, _pem(made), private=False)
    except OSError as e:
        raise CertificateError(f"cannot keep the HTTPS certificate in {folder}: {e.strerror or e}") from None
    return _describe(made, cert_path, key_path, made=True)


def _load_or_make_key(path: Path) -> EllipticCurvePrivateKey:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    if path.exists():
        try:
            kept = serialization.load_pem_private_key(path.read_bytes(), password=None)
        except ValueError as e:
            raise CertificateError(f"the HTTPS key {path} cannot be read ({e}); delete it to make a new one") from None
        if not isinstance(kept, ec.EllipticCurvePrivateKey):
            raise CertificateError(f"the HTTPS key {path} is not Borne's; delete it to make a new one")
        return kept
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    _write_atomically(path, pem, private=True)
    return key


def _load_certificate(path: Path) -> Certificate | None:
    from cryptography import x509

    try:
        return x509.load_pem_x509_certificate(path.read_bytes())
    except ValueError:
        return None  # a damaged certificate is made again (the key stays)


def _alt_names(cert: Certificate) -> tuple[set[str], set[str]]:
    from cryptography import x509

    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return set(), set()
    return set(san.get_values_for_type(x509.DNSName)), {str(a) for a in san.get_values_for_type(x509.IPAddress)}


def _covers(cert: Certificate, names: tuple[str, ...], addresses: tuple[str, ...], now: dt.datetime) -> bool:
    have_names, have_addresses = _alt_names(cert)
    fresh = cert.not_valid_after_utc - now > dt.timedelta(days=RENEW_DAYS)
    return fresh and set(names) <= have_names and {str(ipaddress.ip_address(a)) for a in addresses} <= have_addresses


def _make_certificate(key: EllipticCurvePrivateKey, names: tuple[str, ...], addresses: tuple[str, ...],
                      now: dt.datetime) -> Certificate:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    host = next((n for n in names if n != "localhost"), "localhost")
    subject = x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Borne"),
                         x509.NameAttribute(NameOID.COMMON_NAME, f"Borne on {host}"[:64])])
    alt = [x509.DNSName(n) for n in names] + [x509.IPAddress(ipaddress.ip_address(a)) for a in addresses]
    return (x509.CertificateBuilder()
            .subject_name(subject).issuer_name(subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(days=1))
            .not_valid_after(now + dt.timedelta(days=VALID_DAYS))
            .add_extension(x509.SubjectAlternativeName(alt), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .sign(key, hashes.SHA256()))


def _pem(cert: Certificate) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return cert.public_bytes(serialization.Encoding.PEM)


def _describe(cert: Certificate, cert_path: Path, key_path: Path, *, made: bool) -> LanCertificate:
    from cryptography.hazmat.primitives import hashes

    digest = cert.fingerprint(hashes.SHA256()).hex().upper()
    names, addresses = _alt_names(cert)
    return LanCertificate(certificate=cert_path, key=key_path,
                          fingerprint=":".join(digest[i:i + 2] for i in range(0, len(digest), 2)),
                          names=tuple(sorted(names)), addresses=tuple(sorted(addresses, key=_address_order)),
                          made=made)


def _write_atomically(path: Path, data: bytes, *, private: bool) -> None:
    """Write ``path`` whole or not at all (two starts at once never read half a key); a key is the user's only."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if private else 0o644)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
