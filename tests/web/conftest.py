from tests.service.conftest import make_user, pg_url, service_env  # noqa: F401  (shared fixtures)
