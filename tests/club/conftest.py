"""A throwaway PostgreSQL server for the club's tests: one cluster per session, a fresh database per test.

The cluster lives in a temporary folder, listens on 127.0.0.1 on a free port (and a socket in that folder),
trusts only loopback connections, and is stopped at the end. PostgreSQL refuses to run as root, so when the
tests run as root the server runs as Debian's ``postgres`` system user. Without PostgreSQL the club's tests
fail, never skip: ``make test`` installs it (Debian's ``postgresql``).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator

import pytest

from tests.club.postgres import ClusterError, PostgresCluster, running_cluster

_counter = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    try:
        with running_cluster() as cluster:
            yield cluster
    except ClusterError as e:
        pytest.fail(str(e), pytrace=False)


@pytest.fixture
def postgres_url(postgres_cluster: PostgresCluster) -> str:
    """The URL of a new, empty database on the session's cluster, for this test alone."""
    import psycopg

    name = f"borne_test_{os.getpid()}_{next(_counter)}"
    with psycopg.connect(postgres_cluster.url(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}".encode())
    return postgres_cluster.url(name)


from tests.club.broker import broker  # noqa: E402, F401  (a real Mosquitto for the tests that talk MQTT)
