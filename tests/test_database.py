import os

import pytest
from django.db import connection


@pytest.mark.django_db
def test_the_tests_run_on_the_database_that_database_url_names():
    url = os.environ.get("DATABASE_URL", "")
    expected = "postgresql" if url.startswith(("postgres://", "postgresql://")) else "sqlite"

    assert connection.vendor == expected
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
