"""The fuzz tests run against the service tests' PostgreSQL and Redis, with their fixtures."""

from tests.service.conftest import client, make_user, pg_url, service_env  # noqa: F401
