"""The display's HTTPS certificate: made once per machine in the user's data folder, reused, valid for the
machine's names and addresses, made again (same key) only when it lacks one or is about to expire."""

from __future__ import annotations

import datetime as dt
import ipaddress
import stat
from pathlib import Path

import pytest
from cryptography import x509

from scoring.web.certificate import (
    CERTIFICATE_FILE,
    KEY_FILE,
    RENEW_DAYS,
    VALID_DAYS,
    CertificateError,
    certificate_folder,
    keep_certificate,
)

NAMES = ("localhost", "tablepc", "tablepc.local")
ADDRESSES = ("127.0.0.1", "192.168.1.20", "::1")


def alt_names(path: Path) -> tuple[set[str], set[str]]:
    cert = x509.load_pem_x509_certificate(path.read_bytes())
    san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return set(san.get_values_for_type(x509.DNSName)), {str(a) for a in san.get_values_for_type(x509.IPAddress)}


def test_made_once_with_the_machines_names_and_addresses_then_reused(tmp_path: Path) -> None:
    first = keep_certificate(tmp_path, names=NAMES, addresses=ADDRESSES)
    assert first.made and first.certificate == tmp_path / CERTIFICATE_FILE and first.key == tmp_path / KEY_FILE
    assert alt_names(first.certificate) == (set(NAMES), set(ADDRESSES))
    assert stat.S_IMODE(first.key.stat().st_mode) == 0o600  # the key is the user's only
    kept = first.certificate.read_bytes(), first.key.read_bytes()
    again = keep_certificate(tmp_path, names=NAMES, addresses=ADDRESSES)
    assert not again.made and again.fingerprint == first.fingerprint
    assert (again.certificate.read_bytes(), again.key.read_bytes()) == kept
    assert len(first.fingerprint.split(":")) == 32  # SHA-256, as a browser shows it


def test_a_new_address_makes_it_again_with_the_same_key_and_the_old_names(tmp_path: Path) -> None:
    first = keep_certificate(tmp_path, names=NAMES, addresses=ADDRESSES)
    key = first.key.read_bytes()
    moved = keep_certificate(tmp_path, names=NAMES, addresses=("127.0.0.1", "10.0.0.5"))
    assert moved.made and moved.fingerprint != first.fingerprint and moved.key.read_bytes() == key
    assert {"10.0.0.5", "192.168.1.20"} <= set(moved.addresses)  # both networks the laptop joins
    assert not keep_certificate(tmp_path, names=NAMES, addresses=ADDRESSES).made


def test_valid_long_enough_for_a_phone_and_renewed_before_it_expires(tmp_path: Path) -> None:
    now = dt.datetime(2030, 1, 1, tzinfo=dt.UTC)
    first = keep_certificate(tmp_path, names=NAMES, addresses=ADDRESSES, now=now)
    cert = x509.load_pem_x509_certificate(first.certificate.read_bytes())
    assert (cert.not_valid_after_utc - now).days == VALID_DAYS <= 825  # Apple's limit
    assert cert.extensions.get_extension_for_class(x509.BasicConstraints).value.ca is False
    later = now + dt.timedelta(days=VALID_DAYS - RENEW_DAYS - 1)
    assert not keep_certificate(tmp_path, names=NAMES, addresses=ADDRESSES, now=later).made
    assert keep_certificate(tmp_path, names=NAMES, addresses=ADDRESSES, now=later + dt.timedelta(days=2)).made


def test_kept_in_the_users_data_folder_beside_the_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scoring.storage import default_db_path

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert certificate_folder() == default_db_path().parent == tmp_path / "borne"
    made = keep_certificate()
    assert made.certificate.parent == tmp_path / "borne"
    names, addresses = alt_names(made.certificate)
    assert "localhost" in names and {"127.0.0.1", "::1"} <= addresses
    assert all(not ipaddress.ip_address(a).is_link_local for a in addresses)


def test_a_damaged_key_is_refused_with_what_to_do(tmp_path: Path) -> None:
    (tmp_path / KEY_FILE).write_text("not a key")
    with pytest.raises(CertificateError, match="delete it"):
        keep_certificate(tmp_path, names=NAMES, addresses=ADDRESSES)


def test_a_folder_that_cannot_be_written_is_a_certificate_error(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("")
    with pytest.raises(CertificateError, match="cannot keep the HTTPS certificate"):
        keep_certificate(blocked / "borne", names=NAMES, addresses=ADDRESSES)
