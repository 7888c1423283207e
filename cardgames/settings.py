"""Django settings for the card-games website.

Everything that differs between a laptop and a server comes from the environment. With no
variable set at all you get the developers' setup of ``make dev``: DEBUG on, SQLite in
``db.sqlite3`` and the in-memory channel layer. ``make run`` serves players the same single
process with DEBUG off over plain HTTP (``HTTPS=0``, any host name: friends on the same Wi-Fi
can join). Production (``DEBUG=0``) needs ``SECRET_KEY`` and ``ALLOWED_HOSTS``, and normally
``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL``.

=========================  ==========================================================
``SECRET_KEY``             required when DEBUG is off
``DEBUG``                  ``1``/``0`` (default ``1``)
``HTTPS``                  ``1``/``0``: the site is served over HTTPS (default: when DEBUG is
                           off): secure cookies, the redirect to HTTPS and HSTS
``ALLOWED_HOSTS``          comma-separated host names
``CSRF_TRUSTED_ORIGINS``   comma-separated origins, e.g. ``https://cards.example.org``
``DATABASE_URL``           e.g. ``postgres://user:password@host:5432/name``
``DATABASE_POOL``          ``1``/``0``: psycopg connection pool on PostgreSQL (default ``1``)
``DATABASE_DURABLE_COMMITS`` ``1``/``0``: on PostgreSQL, each commit waits for the disk
                           (default ``0``: the last 0.6 s of moves may be lost if the database
                           server crashes)
``TABLE_THREADS``          threads per web worker for the tables' database work and renders
                           (default ``1`` on SQLite, ``8`` on PostgreSQL)
``REDIS_URL``              e.g. ``redis://host:6379/0``: channels-redis pub/sub layer
``SECURE_SSL_REDIRECT``    ``1``/``0``, over HTTPS only (default ``1``)
``SECURE_HSTS_SECONDS``    over HTTPS only (default one year)
``LOG_LEVEL``              default ``INFO``
``BOT_DELAY``              seconds a computer player waits before the first move after a
                           person's (default ``0.6``)
``BOT_FOLLOW_DELAY``       seconds before each further computer move in a row (default
                           ``0.35``, at most ``BOT_DELAY``)
``BOT_FINISH_DELAY``       seconds before a computer move once no person at the table can act
                           any more (default ``0``, at most ``BOT_FOLLOW_DELAY``)
``BOT_TIME_LIMIT``         seconds a bot may think before a safe move is played (default ``3``)
``BOT_STALE_AFTER``        seconds after which a computer move claimed by a bot worker that
                           never finished it is run again by another (default ``15``)
``WATCH_VERSIONS``         ``1``/``0``: the web process reads the versions of the open tables
                           that have computer seats every 25 ms, to hear of the bot workers'
                           moves (default: when there is no ``REDIS_URL``)
``TABLE_RATE``             messages per second one browser's table sockets may send (default ``10``)
``TABLE_BURST``            burst of messages one browser's table sockets may send (default ``30``)
``MAX_SOCKETS_PER_BROWSER`` open table sockets per browser and web worker (default ``16``)
``MAX_SPECTATORS_PER_ROOM`` spectators' sockets per room and web worker (default ``200``)
=========================  ==========================================================
"""

import os
import tempfile
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from cardgames.routers import TASKS_DATABASE, task_queue_file

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    """Read a yes/no environment variable (``1/0``, ``true/false``, ``yes/no``, ``on/off``)."""
    value = os.environ.get(name)
    if value is None:
        return default
    value = value.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be 1 or 0, not {value!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated environment variable; blanks are dropped."""
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    """Read an integer environment variable."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {value!r}") from None


# --- Core -------------------------------------------------------------------------------------

DEBUG = env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off, e.g. "
            "SECRET_KEY=$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))')"
        )
    SECRET_KEY = "django-insecure-local-development-only-never-use-this-key-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "django_tasks",
    "django_tasks_db",
    "cardgames",
    "durak",
    "rummy",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "cardgames.security.PolicyOnEveryResponse",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "cardgames.browser.BrowserIdMiddleware",
    "django_ratelimit.middleware.RatelimitMiddleware",
]

ROOT_URLCONF = "cardgames.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "cardgames.context_processors.site",
            ],
        },
    },
    # The table and the replay's position (``cardgames.jinja``): rendered for every seat after
    # every move, they are Jinja2 templates, in the ``jinja2/`` folders.
    {
        "NAME": "jinja2",
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "jinja2"],
        "APP_DIRS": True,
        "OPTIONS": {"environment": "cardgames.jinja.environment"},
    },
]

WSGI_APPLICATION = "cardgames.wsgi.application"
ASGI_APPLICATION = "cardgames.asgi.application"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Database ---------------------------------------------------------------------------------

DATABASE_URL = os.environ.get("DATABASE_URL", "").strip()

# SQLite as a game server wants: writers take the lock when their transaction begins, not half-way
# through it (two tabs applying a move at once queue up instead of failing), and the write-ahead
# log without a disk flush per commit (a commit costs microseconds, not an fsync).
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}

if DATABASE_URL:
    import dj_database_url

    # CONN_MAX_AGE stays 0: persistent connections leak under ASGI. PostgreSQL gets psycopg's
    # connection pool instead (Django >= 5.1), one pool per worker process.
    _database = dj_database_url.parse(DATABASE_URL, conn_max_age=0)
else:
    _database = {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": BASE_DIR / "db.sqlite3",
        # Tests use a file too: bots play in threads, and SQLite's shared in-memory
        # database fails at once ("table is locked") where a file waits its turn.
        "TEST": {
            "NAME": str(Path(tempfile.gettempdir()) / f"cardgames-test-{os.getpid()}.sqlite3")
        },
    }
_ON_POSTGRESQL = _database["ENGINE"] == "django.db.backends.postgresql"
_ON_SQLITE = _database["ENGINE"] == "django.db.backends.sqlite3"

# The threads of a web worker that do its sockets' database work and rendering (``cardgames.live``).
# On SQLite, one: the process's writes wait for each other anyway and a read takes microseconds,
# while threads that render side by side only take turns at the GIL, and each turn a writer
# waits for stretches the transaction every other writer waits for (100 rooms and 40 games
# against the computer on one worker: one thread halved the p95 of two). A database over the
# network gets several, so that one table's round trips do not hold up the others.
TABLE_THREADS = env_int("TABLE_THREADS", 1 if _ON_SQLITE else 8)

if _ON_POSTGRESQL and env_bool("DATABASE_POOL", True):
    # A connection for every table thread and a few for the page views: psycopg's default
    # of four kept eight table threads waiting for each other's connections.
    _database.setdefault("OPTIONS", {})["pool"] = {"min_size": 2, "max_size": TABLE_THREADS + 4}
if _ON_POSTGRESQL and not env_bool("DATABASE_DURABLE_COMMITS", False):
    # A commit does not wait for its WAL record to reach the disk (PostgreSQL writes it
    # within 0.6 s): a move answers sooner, and a crash of the database server, not of a
    # web worker, may lose the last half second of moves, which the games then replay.
    _options = _database.setdefault("OPTIONS", {})
    _options["options"] = f"{_options.get('options', '')} -c synchronous_commit=off".strip()
if _ON_SQLITE:
    _database["OPTIONS"] = {**SQLITE_OPTIONS, **_database.get("OPTIONS", {})}
DATABASES = {"default": _database}


def _task_queue_database(site: dict[str, Any]) -> dict[str, Any]:
    """The task queue's own SQLite file, beside the site's (see cardgames/routers.py)."""
    queue = {**site, "NAME": str(task_queue_file(site["NAME"]))}
    if "NAME" in site.get("TEST", {}):
        queue["TEST"] = {"NAME": str(task_queue_file(site["TEST"]["NAME"]))}
    return queue


if _ON_SQLITE:
    DATABASES[TASKS_DATABASE] = _task_queue_database(DATABASES["default"])
    DATABASE_ROUTERS = ["cardgames.routers.TaskQueueRouter"]

# --- Channels ---------------------------------------------------------------------------------

REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL:
    # Redis pub/sub: a group message is one PUBLISH, which each worker's one subscription hands
    # to its sockets. The layer carries only version hints, which may be lost (a socket re-reads
    # the row), so it needs none of the queues of channels-redis's core layer, whose one
    # blocking pop per message held hints up for a sixth of a second under load (160 rooms on
    # one worker: the other seat's table p50 179 ms there, 26 ms here).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            # No socket timeout: an idle consumer must not be cut off (redis-py 8 sets 5 s).
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": None}]},
        }
    }
else:
    # Single process only: the in-memory layer does not cross processes.
    CHANNEL_LAYERS = {"default": {"BACKEND": "cardgames.layers.ThriftyInMemoryChannelLayer"}}

# The cache holds the counts of cardgames.limits: Redis, shared by the web workers (Django's
# own Redis cache: its increments are atomic), or the memory of make run's one web process.
# (django_ratelimit is not an installed app: its system checks know neither as shared.)
if REDIS_URL:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Play -------------------------------------------------------------------------------------

# Seconds a computer player waits before its move, so that people can follow the game
# (counted from the change that woke it; it thinks meanwhile): before the first computer move
# after a person's, long enough to see that move land and look up (a card moves in ~0.35 s);
# before each further one in a row, about one card's flight (at most BOT_DELAY); once no
# person at the table can act any more (in Durak: every person is out), nothing, so that the
# result shows at once (at most BOT_FOLLOW_DELAY). See cardgames/bots.py.
BOT_DELAY = float(os.environ.get("BOT_DELAY", "0.6"))
BOT_FOLLOW_DELAY = float(os.environ.get("BOT_FOLLOW_DELAY", "0.35"))
BOT_FINISH_DELAY = float(os.environ.get("BOT_FINISH_DELAY", "0"))
# Seconds a bot may think before the Easy bot's move is played instead (Hard's own budget:
# 0.15 s in Durak, 0.35 s in Rummy).
BOT_TIME_LIMIT = float(os.environ.get("BOT_TIME_LIMIT", "3"))
BOT_STALE_AFTER = float(os.environ.get("BOT_STALE_AFTER", "15"))

# Computer moves are tasks in the database, run by the bot workers (`manage.py bots`) on
# SQLite and PostgreSQL alike; see cardgames/bots.py and cardgames/tasks_backend.py.
TASKS = {
    "default": {
        "BACKEND": "cardgames.tasks_backend.DueTimeBackend",
        "QUEUES": ["bots"],
    }
}
# Without a shared channel layer (no Redis: `make run`), the bot workers' moves cannot reach
# the web process's sockets as hints; the web process then reads the versions of its open
# tables that have computer seats, every 25 ms, in one query.
WATCH_VERSIONS = env_bool("WATCH_VERSIONS", not REDIS_URL)
# Messages per second one browser's table sockets may send together, and their burst; past
# that they are refused, and a socket that keeps flooding is closed. Benchmarks raise them for
# their machine players.
TABLE_RATE = float(os.environ.get("TABLE_RATE", "10"))
TABLE_BURST = env_int("TABLE_BURST", 30)
# Open table sockets one web worker admits per browser (tabs, reconnects) and spectators per
# room; past them a socket is told why and closed.
MAX_SOCKETS_PER_BROWSER = env_int("MAX_SOCKETS_PER_BROWSER", 16)
MAX_SPECTATORS_PER_ROOM = env_int("MAX_SPECTATORS_PER_ROOM", 200)

# --- What one visitor may create (cardgames.limits) --------------------------------------------

# Games and rooms started ("Vs computer", "Pass and play", a new room), per client address and
# per browser, and browsers made (first visits that start something), per client address;
# each a list of django-ratelimit rates. An address may be a whole school behind one router,
# so its limits are the wider ones. Benchmarks and tests of other things turn them off.
RATELIMIT_ENABLE = env_bool("CREATION_LIMITS", True)
STARTS_PER_ADDRESS = env_list("STARTS_PER_ADDRESS", ["60/m", "2000/d"])
STARTS_PER_BROWSER = env_list("STARTS_PER_BROWSER", ["20/m", "300/d"])
BROWSERS_PER_ADDRESS = env_list("BROWSERS_PER_ADDRESS", ["20/m", "500/d"])
# Quick phrases one seat of a room may say, whatever its sockets and workers (a few at once,
# then about one every three seconds: cardgames.phrases), and hints one browser may ask for
# (each a search of the Hard bot, at most one per position: cardgames.bots.request_hint).
# Counted the same way, and turned off with the creation limits.
PHRASES_PER_SEAT = env_list("PHRASES_PER_SEAT", ["3/5s", "20/m"])
HINTS_PER_BROWSER = env_list("HINTS_PER_BROWSER", ["20/m"])
# Rooms one browser may hold a seat in at once (each lives until a week after its last move).
MAX_ROOMS_PER_BROWSER = env_int("MAX_ROOMS_PER_BROWSER", 20)
# Saves (vs computer, pass and play) and browsers untouched this long are deleted by
# `manage.py purge`, as rooms are after a week (cardgames.retention).
SAVE_DAYS = env_int("SAVE_DAYS", 180)
RATELIMIT_VIEW = "cardgames.views.too_many"

# --- Authentication ---------------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Languages --------------------------------------------------------------------------------

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("fr", _("French")),
    ("it", _("Italian")),
    ("ro", _("Romanian")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# --- Static files -----------------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# WhiteNoise serves the static files from where they are (``static/`` and the apps'), so that
# ``make run`` needs no ``collectstatic``; behind nginx, nginx serves the collected copy.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG
WHITENOISE_MIMETYPES = {".webmanifest": "application/manifest+json"}

# --- Security ---------------------------------------------------------------------------------

X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): scripts only from our own static files, never inline;
# the tables' websocket is same-origin. Inline style *attributes* stay allowed (a few cards
# carry their sort order in one), inline <style> elements do not.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# Whether players reach the site over HTTPS: a deployment does (behind a proxy that terminates
# TLS), ``make run`` on a home network does not, and its cookies must then not be Secure, or
# the browsers would drop them.
HTTPS = env_bool("HTTPS", not DEBUG)

if HTTPS:
    # Behind a proxy (nginx, a cloud load balancer) that terminates TLS and sets this header.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)

# --- Logging ----------------------------------------------------------------------------------

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO").upper()},
    # The task framework logs every task's start and end: one computer move, two lines.
    "loggers": {
        "django_tasks": {"level": "WARNING"},
        "django.tasks": {"level": "WARNING"},
        "django_tasks_db": {"level": "WARNING"},
    },
}
