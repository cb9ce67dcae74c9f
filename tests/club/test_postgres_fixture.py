"""The club's tests need a real PostgreSQL: without one they fail and say how to get it, never skip."""

from __future__ import annotations

import glob
import shutil

import pytest

from tests.club import postgres


def test_without_postgresql_the_fixture_fails_and_names_make_test(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setattr(glob, "glob", lambda pattern: [])
    with pytest.raises(postgres.ClusterError, match="run `make test`"):
        postgres.postgres_bindir()


def test_the_binaries_are_found_off_path(postgres_cluster):
    folder = postgres.postgres_bindir()
    assert (folder / "pg_ctl").exists() and (folder / "initdb").exists()


def test_each_test_gets_a_database_of_its_own(postgres_url, postgres_cluster):
    import psycopg

    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()[0] == 0
        assert conn.execute("SELECT current_database()").fetchone()[0] != "postgres"
        assert conn.info.host == "127.0.0.1" and conn.info.port == postgres_cluster.port
