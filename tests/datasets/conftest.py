import pytest


@pytest.fixture(autouse=True, scope="session")
def _cache(tmp_path_factory):
    """Render the generic edition once per test session into a private cache."""
    import os

    os.environ["BORNE_CACHE_DIR"] = str(tmp_path_factory.mktemp("borne-cache"))
    os.environ["BORNE_DATA_DIR"] = str(tmp_path_factory.mktemp("borne-data"))
    yield
