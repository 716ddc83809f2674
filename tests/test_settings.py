import json
import secrets
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from prefscore.settings import (
    DEVELOPMENT_SECRET_KEY,
    allowed_hosts,
    database_config,
    email_backend,
    env_bool,
    env_int,
    env_list,
    env_str,
    secret_key,
)
from tests.helpers import run_python

# --- the typed helpers ---


@pytest.mark.parametrize("value", ["1", "true", "True", "YES", "on", " 1 "])
def test_env_bool_reads_the_usual_spellings_of_true(value):
    assert env_bool("DEBUG", env={"DEBUG": value}) is True


@pytest.mark.parametrize("value", ["0", "false", "No", "off"])
def test_env_bool_reads_the_usual_spellings_of_false(value):
    assert env_bool("DEBUG", True, env={"DEBUG": value}) is False


@pytest.mark.parametrize("env", [{}, {"DEBUG": ""}])
def test_env_bool_falls_back_to_the_default_when_unset_or_empty(env):
    assert env_bool("DEBUG", env=env) is False
    assert env_bool("DEBUG", True, env=env) is True


def test_env_bool_rejects_a_value_it_cannot_read():
    with pytest.raises(ImproperlyConfigured, match="DEBUG='maybe'"):
        env_bool("DEBUG", env={"DEBUG": "maybe"})


def test_env_str_strips_and_falls_back_to_the_default():
    assert env_str("X", env={"X": "  value "}) == "value"
    assert env_str("X", "fallback", env={"X": " "}) == "fallback"
    assert env_str("X", env={}) == ""


def test_env_int_reads_a_number_and_rejects_anything_else():
    assert env_int("PORT", 587, env={"PORT": "2525"}) == 2525
    assert env_int("PORT", 587, env={}) == 587
    with pytest.raises(ImproperlyConfigured, match="PORT"):
        env_int("PORT", 587, env={"PORT": "smtp"})


def test_env_list_splits_on_commas_and_drops_blanks():
    env = {"HOSTS": " a.example , b.example,, "}
    assert env_list("HOSTS", env=env) == ["a.example", "b.example"]
    assert env_list("HOSTS", ["x"], env={}) == ["x"]
    assert env_list("HOSTS", env={}) == []


# --- the settings built from them ---


def test_the_secret_key_comes_from_the_environment():
    assert secret_key({"SECRET_KEY": "from-env"}, debug=False) == "from-env"
    assert secret_key({"SECRET_KEY": "from-env"}, debug=True) == "from-env"


def test_a_development_secret_key_is_used_only_with_debug():
    assert secret_key({}, debug=True) == DEVELOPMENT_SECRET_KEY
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        secret_key({}, debug=False)


def test_allowed_hosts_default_to_loopback_only_with_debug():
    assert "127.0.0.1" in allowed_hosts({}, debug=True)
    assert allowed_hosts({}, debug=False) == []
    assert allowed_hosts({"ALLOWED_HOSTS": "example.com"}, debug=True) == ["example.com"]


def test_the_sites_domain_is_the_allowed_host_unless_allowed_hosts_says_otherwise():
    assert allowed_hosts({"DOMAIN": "pref.example"}, debug=False) == ["pref.example"]
    assert allowed_hosts({"DOMAIN": "pref.example"}, debug=True) == ["pref.example"]
    both = {"DOMAIN": "pref.example", "ALLOWED_HOSTS": "a.example,b.example"}
    assert allowed_hosts(both, debug=False) == ["a.example", "b.example"]


def test_without_database_url_the_database_is_sqlite_in_the_data_folder(tmp_path: Path):
    config = database_config({}, tmp_path)

    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert Path(config["NAME"]) == tmp_path / "data" / "db.sqlite3"
    assert (tmp_path / "data").is_dir()


def test_sqlite_waits_for_the_write_lock_instead_of_failing(tmp_path: Path):
    config = database_config({}, tmp_path)

    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert config["OPTIONS"]["timeout"] >= 10
    assert "journal_mode=WAL" in config["OPTIONS"]["init_command"]


def test_database_url_selects_postgresql_with_persistent_connections(tmp_path: Path):
    url = "postgres://pref:s3cret@db.example:6543/prefscore"

    config = database_config({"DATABASE_URL": url}, tmp_path)

    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["HOST"], config["PORT"], config["NAME"]) == ("db.example", 6543, "prefscore")
    assert (config["USER"], config["PASSWORD"]) == ("pref", "s3cret")
    assert config["CONN_MAX_AGE"] == 60
    assert not (tmp_path / "data").exists()


def test_mail_goes_to_the_console_unless_an_smtp_host_is_set():
    assert email_backend({}).endswith("console.EmailBackend")
    assert email_backend({"EMAIL_HOST": "smtp.example"}).endswith("smtp.EmailBackend")


# --- the settings module as a fresh process sees them ---

PRINT_SETTINGS = """
import json
from django.conf import settings
print(json.dumps({
    "DEBUG": settings.DEBUG,
    "ENGINE": settings.DATABASES["default"]["ENGINE"],
    "DB_NAME": settings.DATABASES["default"]["NAME"],
    "SECRET_KEY": settings.SECRET_KEY,
    "ALLOWED_HOSTS": settings.ALLOWED_HOSTS,
    "CSRF_TRUSTED_ORIGINS": settings.CSRF_TRUSTED_ORIGINS,
    "SECURE_SSL_REDIRECT": settings.SECURE_SSL_REDIRECT,
    "STORAGE": settings.STORAGES["staticfiles"]["BACKEND"],
}))
"""


def settings_seen_with(env: dict[str, str]) -> dict[str, object]:
    result = run_python("-c", PRINT_SETTINGS, env=env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_debug_alone_gives_the_development_defaults():
    seen = settings_seen_with({"DEBUG": "1"})

    assert seen["DEBUG"] is True
    assert seen["ENGINE"] == "django.db.backends.sqlite3"
    assert str(seen["DB_NAME"]).endswith("data/db.sqlite3")
    assert seen["SECRET_KEY"] == DEVELOPMENT_SECRET_KEY
    assert seen["SECURE_SSL_REDIRECT"] is False


def test_production_settings_come_from_the_environment():
    key = secrets.token_urlsafe(50)
    seen = settings_seen_with(
        {
            "DEBUG": "0",
            "SECRET_KEY": key,
            "ALLOWED_HOSTS": "pref.example",
            "CSRF_TRUSTED_ORIGINS": "https://pref.example",
            "DATABASE_URL": "postgres://u:p@127.0.0.1:5432/prefscore",
        }
    )

    assert seen["DEBUG"] is False
    assert seen["SECRET_KEY"] == key
    assert seen["ENGINE"] == "django.db.backends.postgresql"
    assert seen["ALLOWED_HOSTS"] == ["pref.example"]
    assert seen["CSRF_TRUSTED_ORIGINS"] == ["https://pref.example"]
    assert seen["SECURE_SSL_REDIRECT"] is True
    assert seen["STORAGE"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"


def test_without_debug_a_missing_secret_key_stops_the_start():
    result = run_python("-c", PRINT_SETTINGS, env={"DEBUG": "0"})

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY" in result.stderr


def test_the_cache_is_each_workers_memory_by_default_and_bounded() -> None:
    from prefscore.settings import cache_config

    config = cache_config({})
    assert config["BACKEND"] == "prefscore.cache.BoundedLocMemCache"
    assert config["OPTIONS"]["MAX_ENTRIES"] == 20000 and config["TIMEOUT"] == 3600
    assert config["OPTIONS"]["MAX_BYTES"] == 64 * 1024 * 1024
    assert cache_config({"CACHE_MAX_BYTES": "1000"})["OPTIONS"]["MAX_BYTES"] == 1000


def test_the_cache_url_picks_the_database_or_redis_and_refuses_the_unknown() -> None:
    from prefscore.settings import cache_config

    db = cache_config({"CACHE_URL": "db://regions", "CACHE_MAX_ENTRIES": "50"})
    assert db["BACKEND"].endswith("DatabaseCache") and db["LOCATION"] == "regions"
    assert db["OPTIONS"]["MAX_ENTRIES"] == 50
    redis = cache_config({"CACHE_URL": "redis://cache.internal:6379/0"})
    assert redis["BACKEND"] == "prefscore.cache.SharedRedisCache"
    assert redis["LOCATION"] == "redis://cache.internal:6379/0"
    with pytest.raises(ImproperlyConfigured):
        cache_config({"CACHE_URL": "memcached://x"})
