"""Settings for prefscore, read from environment variables.

Every setting that differs between a laptop and production comes from the environment
through the small typed helpers below; the README lists the variables. The helpers and
the functions that build composite settings take the environment as an argument so that
tests can call them without reloading Django.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

Env = Mapping[str, str]

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})

# Only ever used with DEBUG on; `check --deploy` flags the "django-insecure-" prefix.
DEVELOPMENT_SECRET_KEY = "django-insecure-prefscore-development-key-never-use-in-production"


def env_str(name: str, default: str = "", env: Env = os.environ) -> str:
    """The variable's value, or `default` when it is unset or empty."""
    value = env.get(name, "").strip()
    return value or default


def env_bool(name: str, default: bool = False, env: Env = os.environ) -> bool:
    """1/0, true/false, yes/no, on/off (any case); `default` when unset or empty."""
    value = env_str(name, env=env).lower()
    if not value:
        return default
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={env[name]!r} is not a boolean: use 1 or 0 (or true/false, yes/no, on/off)."
    )


def env_int(name: str, default: int, env: Env = os.environ) -> int:
    """A whole number; `default` when unset or empty."""
    value = env_str(name, env=env)
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number.") from None


def env_list(name: str, default: list[str] | None = None, env: Env = os.environ) -> list[str]:
    """A comma-separated list, blanks dropped; `default` (or []) when unset or empty."""
    items = [item.strip() for item in env_str(name, env=env).split(",")]
    items = [item for item in items if item]
    if items:
        return items
    return list(default) if default is not None else []


def secret_key(env: Env, debug: bool) -> str:
    """SECRET_KEY from the environment, else from the file SECRET_KEY_FILE names (made
    once, readable by its owner only: ``make run``); a fixed development key only when
    DEBUG."""
    key = env_str("SECRET_KEY", env=env)
    if key:
        return key
    key_file = env_str("SECRET_KEY_FILE", env=env)
    if key_file:
        return secret_key_from_file(Path(key_file))
    if debug:
        return DEVELOPMENT_SECRET_KEY
    raise ImproperlyConfigured(
        "Set SECRET_KEY (a long random string) or, for development only, DEBUG=1."
    )


def secret_key_from_file(path: Path) -> str:
    """The key kept in ``path``, made there (mode 0600) the first time: stable across
    restarts, so nobody is signed out, and never in the repository."""
    try:
        key = path.read_text().strip()
    except FileNotFoundError:
        key = ""
    if key:
        return key
    from django.core.management.utils import get_random_secret_key

    path.parent.mkdir(parents=True, exist_ok=True)
    key = get_random_secret_key()
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: theirs counts
        return path.read_text().strip()
    with os.fdopen(descriptor, "w") as file:
        file.write(key + "\n")
    return key


def allowed_hosts(env: Env, debug: bool) -> list[str]:
    """ALLOWED_HOSTS from the environment; else the site's DOMAIN (the name the proxy of
    deploy/ gets its certificate for, set once in its environment file); else the
    loopback names when DEBUG."""
    domain = env_str("DOMAIN", env=env)
    default = [domain] if domain else ["localhost", "127.0.0.1", "[::1]"] if debug else []
    return env_list("ALLOWED_HOSTS", default, env)


def database_config(env: Env, base_dir: Path) -> dict[str, Any]:
    """The default database: DATABASE_URL, or SQLite at data/db.sqlite3 when it is unset."""
    url = env_str("DATABASE_URL", env=env)
    if not url:
        data_dir = base_dir / "data"
        data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        data_dir.chmod(0o700)  # whatever the umask, and for a folder made before
        private_sqlite_files(data_dir / "db.sqlite3")
        url = f"sqlite:///{data_dir / 'db.sqlite3'}"
    config: dict[str, Any] = dict(dj_database_url.parse(url))
    if config["ENGINE"] == "django.db.backends.postgresql":
        # Keep connections open between requests; several app servers share one PostgreSQL.
        config["CONN_MAX_AGE"] = 60
        config["CONN_HEALTH_CHECKS"] = True
    elif config["ENGINE"] == "django.db.backends.sqlite3":
        # Several app-server workers write at once when tables record together:
        # take the write lock at BEGIN and wait for it instead of failing with
        # "database is locked"; WAL lets readers go on while one writes.
        # Each request would otherwise open the file and run the PRAGMAs again.
        config["CONN_MAX_AGE"] = 600
        config["OPTIONS"] = {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
        # Tests run on a file too, not Django's shared in-memory database: its table
        # locks fail at once where a file's writers wait (the concurrent sign-in test).
        database = Path(config["NAME"])
        config["TEST"] = {"NAME": str(database.with_name(f"test-{database.name}"))}
    return config


def private_sqlite_files(database: Path) -> None:
    """The database file readable by its owner alone, from its first open on.

    Created here, empty (an empty file is an empty SQLite database), with mode 0600:
    SQLite gives its -wal, -shm and journal files the database file's mode, so they are
    private too. Files made before are made private; backups are already (``backup``).
    """
    if not database.exists():
        os.close(os.open(database, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    for path in (database, Path(f"{database}-wal"), Path(f"{database}-shm")):
        if path.exists():
            path.chmod(0o600)


def cache_config(env: Env) -> dict[str, Any]:
    """The cache of rendered regions (prefscore/games/render_cache.py): CACHE_URL.

    Unset or ``locmem://``: each worker's own memory. ``db://TABLE``: a table of the
    database (``manage.py createcachetable``), shared by every worker and app server.
    ``redis://HOST:PORT/DB``: Django's Redis backend (needs the ``redis`` package).
    Bounded either way: CACHE_MAX_ENTRIES entries, each kept at most CACHE_SECONDS; a
    worker's own memory also by CACHE_MAX_BYTES (prefscore/cache.py), since one entry may
    be a few hundred bytes or a 100-deal page of 120 KB.
    """
    url = env_str("CACHE_URL", env=env)
    options = {"MAX_ENTRIES": env_int("CACHE_MAX_ENTRIES", 20000, env)}
    config: dict[str, Any] = {"TIMEOUT": env_int("CACHE_SECONDS", 3600, env), "OPTIONS": options}
    if url.startswith("db://"):
        table = url.removeprefix("db://") or "prefscore_cache"
        return {
            **config,
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": table,
        }
    if url.startswith(("redis://", "rediss://")):
        # Redis bounds itself (its maxmemory policy); MAX_ENTRIES is not its option.
        return {
            "BACKEND": "prefscore.cache.SharedRedisCache",
            "LOCATION": url,
            "TIMEOUT": config["TIMEOUT"],
        }
    if url and not url.startswith("locmem://"):
        raise ImproperlyConfigured(f"CACHE_URL must be locmem://, db://TABLE or redis://…: {url}")
    # 64 MiB: a 200-table evening's working set (about 15 entries a table, mostly small)
    # with room for the pages of long pulkas; docs/load.md, "Sizing".
    max_bytes = env_int("CACHE_MAX_BYTES", 64 * 1024 * 1024, env)
    return {
        **config,
        "OPTIONS": {**options, "MAX_BYTES": max_bytes},
        "BACKEND": "prefscore.cache.BoundedLocMemCache",
        "LOCATION": "prefscore",
    }


def time_zone(env: Env) -> str:
    """TIME_ZONE if set, else the machine's own zone (the one its clock shows), else UTC.

    The machine's zone is read by tzlocal: ``TZ``, then the system's configuration
    (``/etc/localtime``, a link or a copy of a zone file, ``/etc/timezone`` and the other
    distributions' files; the registry on Windows), and only a name the zone database
    knows is taken. A club's laptop shows the time its owner set: the audit, the
    statistics' dates and the phones at the table agree.
    """
    name = env_str("TIME_ZONE", env=env)
    if name:
        return name
    try:
        import tzlocal

        name = tzlocal.get_localzone_name() or ""
    except Exception:  # any failure to read the machine's zone is no reason not to start
        name = ""
    return name if _known_zone(name) else "UTC"


def _known_zone(name: str) -> bool:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    if not name:
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


# What a mail settings file may set (``MAIL_SETTINGS_FILE``, ``make run``'s data/mail.env).
MAIL_VARIABLES = frozenset(
    {
        "EMAIL_HOST",
        "EMAIL_PORT",
        "EMAIL_HOST_USER",
        "EMAIL_HOST_PASSWORD",
        "EMAIL_USE_TLS",
        "DEFAULT_FROM_EMAIL",
    }
)


def mail_environment(env: Env) -> dict[str, str]:
    """The environment with the mail settings of ``MAIL_SETTINGS_FILE`` under it.

    The file holds ``NAME=value`` lines (``#`` starts a comment) naming only
    :data:`MAIL_VARIABLES`; a variable set in the environment wins over the file. A
    missing file is no mail settings: mail is then printed to the console.
    """
    found: dict[str, str] = {}
    path = env_str("MAIL_SETTINGS_FILE", env=env)
    if path and Path(path).is_file():
        for number, line in enumerate(Path(path).read_text().splitlines(), start=1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, equals, value = line.partition("=")
            name = name.strip().removeprefix("export ").strip()
            if not equals or name not in MAIL_VARIABLES:
                raise ImproperlyConfigured(
                    f"{path}, line {number}: expected NAME=value with NAME one of "
                    f"{', '.join(sorted(MAIL_VARIABLES))}."
                )
            found[name] = value.strip().strip("'\"")
    return {**found, **{k: v for k, v in env.items() if v.strip()}}


def email_backend(env: Env) -> str:
    """SMTP when EMAIL_HOST is set; otherwise mail is printed to the console."""
    if env_str("EMAIL_HOST", env=env):
        return "django.core.mail.backends.smtp.EmailBackend"
    return "django.core.mail.backends.console.EmailBackend"


DEBUG = env_bool("DEBUG")
SECRET_KEY = secret_key(os.environ, DEBUG)
ALLOWED_HOSTS = allowed_hosts(os.environ, DEBUG)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles, so that runserver leaves static files to WhiteNoise as in production.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    # Deferred work (docs/tasks.md): the task API and its queue in our own database.
    "django_tasks",
    "django_tasks_db",
    "prefscore.deferred",
    "scoring",
    "prefscore.clubs",
    "prefscore.games",
    "prefscore.tournaments",
    "prefscore.stats",
    "prefscore.seasons",
]

MIDDLEWARE = [
    # Compresses HTML and JSON answers, not the event stream (README, "Running in production").
    "prefscore.web.middleware.CompressionMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "prefscore.web.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Private, no-store on every answer but the public ones (prefscore/web/middleware.py).
    "prefscore.web.middleware.PrivateCacheMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Whose page it is, for the service worker to keep it for that account only.
    "prefscore.web.middleware.AccountMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "prefscore.urls"
WSGI_APPLICATION = "prefscore.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        # template_partials replaces this with its own loader chain (APP_DIRS included).
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": database_config(os.environ, BASE_DIR)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
CACHES = {"default": cache_config(os.environ)}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# English is the source language of every string; Russian is what club tables speak.
LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = time_zone(os.environ)
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where collectstatic writes and WhiteNoise reads (the checkout's staticfiles/ by default).
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed, compressed, cached-forever files in production (after collectstatic);
        # plain files from the app folders in development and tests.
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage",
    },
}
# WhiteNoise's defaults, fixed when the settings load: the test runner turns DEBUG off
# afterwards, and tests should find static files as in development, without collectstatic.
WHITENOISE_AUTOREFRESH = DEBUG
WHITENOISE_USE_FINDERS = DEBUG

# Mail is queued in the request and sent by the worker (prefscore/clubs/mail_queue.py)
# through MAIL_DELIVERY_BACKEND: SMTP when EMAIL_HOST is set, else the console.
EMAIL_BACKEND = "prefscore.clubs.mail_queue.QueueBackend"
MAIL_ENV = mail_environment(os.environ)
MAIL_DELIVERY_BACKEND = email_backend(MAIL_ENV)
# Whether the site can mail at all: a challenged sign-in then also offers a mailed code.
MAIL_CONFIGURED = MAIL_DELIVERY_BACKEND.endswith("smtp.EmailBackend")
MAIL_PER_RECIPIENT_PER_HOUR = env_int("MAIL_PER_RECIPIENT_PER_HOUR", 5)
# How long a worker sending a mail holds it before another may send it (mail_queue.py).
MAIL_CLAIM_SECONDS = env_int("MAIL_CLAIM_SECONDS", 120)
# Requests that mail or invite, per client address and hour (prefscore/clubs/ratelimit.py).
SIGNUPS_PER_ADDRESS_PER_HOUR = env_int("SIGNUPS_PER_ADDRESS_PER_HOUR", 30)
RESETS_PER_ADDRESS_PER_HOUR = env_int("RESETS_PER_ADDRESS_PER_HOUR", 10)
INVITATIONS_PER_ADDRESS_PER_HOUR = env_int("INVITATIONS_PER_ADDRESS_PER_HOUR", 30)
EMAIL_HOST = env_str("EMAIL_HOST", "localhost", MAIL_ENV)
EMAIL_PORT = env_int("EMAIL_PORT", 587, MAIL_ENV)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", env=MAIL_ENV)
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", env=MAIL_ENV)
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True, MAIL_ENV)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "prefscore@localhost", MAIL_ENV)
del MAIL_ENV  # holds the SMTP password: not a setting to show
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# The address the join and spectator QR codes give, e.g. http://192.168.1.20:8000 (make
# run sets it to the machine's LAN address); unset, the address the page was asked by.
PUBLIC_URL = env_str("PUBLIC_URL")
# `make run` on a club's Wi-Fi: plain http, so no HTTPS redirect, no HSTS, and cookies not
# marked secure (a browser would not send them back over http).
PLAIN_HTTP = env_bool("PLAIN_HTTP")

if not DEBUG and not PLAIN_HTTP:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    if env_bool("TRUST_X_FORWARDED_PROTO"):
        # Only behind a proxy that sets this header itself and strips it from clients.
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 31536000
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A refused request (a 403, a 400) is one line, without its traceback (prefscore/web/log.py).
    "filters": {"one_line_refusals": {"()": "prefscore.web.log.OneLineRefusals"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["one_line_refusals"]}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # Replaces Django's own handlers, which print only under DEBUG and mail ADMINS (none).
    "loggers": {"django": {"handlers": ["console"], "level": "INFO", "propagate": False}},
}

# --- Accounts and security (docs/accounts.md) ---

# Django's username and password check, refused while the sign-in limit holds.
AUTHENTICATION_BACKENDS = ["prefscore.clubs.ratelimit.RateLimitedModelBackend"]
SIGNIN_FAILURE_WINDOW_MINUTES = env_int("SIGNIN_FAILURE_WINDOW_MINUTES", 15)
SIGNIN_FAILURES_PER_USERNAME = env_int("SIGNIN_FAILURES_PER_USERNAME", 5)
SIGNIN_FAILURES_PER_ADDRESS = env_int("SIGNIN_FAILURES_PER_ADDRESS", 20)
SIGNIN_FAILURES_PER_USERNAME_ANYWHERE = env_int("SIGNIN_FAILURES_PER_USERNAME_ANYWHERE", 50)
SIGNIN_LOCK_MAX_HOURS = env_int("SIGNIN_LOCK_MAX_HOURS", 24)
# How many proxies in front of the app append to X-Forwarded-For; 0 trusts REMOTE_ADDR.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
INVITATION_DAYS = env_int("INVITATION_DAYS", 7)
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24  # a reset link works for a day
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)

# Everything from the site itself, nothing inline (prefscore/web/middleware.py).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'"
)
# Pages that show nobody's data, which browsers may cache when no one is signed in;
# every other answer is "Cache-Control: private, no-store" (prefscore/web/middleware.py).
PUBLIC_VIEW_NAMES = frozenset(
    {"clubs:home", "conventions:list", "conventions:compare", "conventions:detail"}
)
# htmx sends the token from base.html's hx-headers, so no script needs the cookie.
CSRF_COOKIE_HTTPONLY = True
# A styled, translated page instead of Django's English one (prefscore/errors.py).
CSRF_FAILURE_VIEW = "prefscore.errors.csrf_failure"
SESSION_COOKIE_HTTPONLY = True
# Database sessions, read in one plain statement (why not cached: prefscore/web/sessions.py).
SESSION_ENGINE = "prefscore.web.sessions"

# While the database does not answer, pages are a 503 asking to retry after this long.
DATABASE_RETRY_AFTER_SECONDS = env_int("DATABASE_RETRY_AFTER_SECONDS", 30)

# The result cards drawn, each kept once under a hash of what it shows (prefscore/cards/).
CARD_DIR = Path(env_str("CARD_DIR", str(BASE_DIR / "data" / "cards")))
# Deferred work (docs/tasks.md): every task is a row of our own database, run by the
# worker (`manage.py run_worker`; `make run` starts one beside the server). Tests run
# them the same way (prefscore.deferred.worker.run_due), never inside the request.
TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend",
        "QUEUES": ["default"],
    }
}
# A task that raises runs again after TASK_RETRY_SECONDS, doubled at each try, up to
# TASK_ATTEMPTS tries; then it is FAILED, with its error, in the admin.
TASK_ATTEMPTS = env_int("TASK_ATTEMPTS", 5)
TASK_RETRY_SECONDS = env_int("TASK_RETRY_SECONDS", 30)
# A worker beats every quarter of this; one silent this long is dead, and the task it was
# running runs again on another worker (prefscore/deferred/worker.py).
TASK_WORKER_LEASE_SECONDS = env_int("TASK_WORKER_LEASE_SECONDS", 60)
# Successful tasks' rows are kept this many days; failed ones until the owner deletes them.
TASK_RESULTS_KEPT_DAYS = env_int("TASK_RESULTS_KEPT_DAYS", 7)

# Where `manage.py backup` writes when no --output is given.
BACKUP_DIR = Path(env_str("BACKUP_DIR", str(BASE_DIR / "data" / "backups")))
# The task worker (make run's) takes one every BACKUP_EVERY_HOURS (0: never) and keeps the
# newest BACKUP_KEEP (prefscore/clubs/backups.py); `manage.py backup --keep N` is the same
# for a timer (deploy/'s, which sets BACKUP_EVERY_HOURS=0).
BACKUP_EVERY_HOURS = env_int("BACKUP_EVERY_HOURS", 24)
BACKUP_KEEP = env_int("BACKUP_KEEP", 14)

# A challenged sign-in's mailed code (prefscore/clubs/signin_codes.py).
SIGNIN_CODE_MINUTES = env_int("SIGNIN_CODE_MINUTES", 15)
SIGNIN_CODE_TRIES = env_int("SIGNIN_CODE_TRIES", 5)
# How long a challenged sign-in waits for a person to approve it (prefscore/clubs/approvals.py).
SIGNIN_APPROVAL_MINUTES = env_int("SIGNIN_APPROVAL_MINUTES", 30)

# Open event streams a process holds (prefscore/games/stream_limits.py): per account and
# per address (429 beyond), and in all (503 beyond; 0: what the open files allow); the
# threads, each with its database connection, that every stream's checks share.
STREAMS_PER_ACCOUNT = env_int("STREAMS_PER_ACCOUNT", 8)
STREAMS_PER_ADDRESS = env_int("STREAMS_PER_ADDRESS", 200)
STREAMS_MAX = env_int("STREAMS_MAX", 0)
STREAM_CHECK_THREADS = env_int("STREAM_CHECK_THREADS", 4)
