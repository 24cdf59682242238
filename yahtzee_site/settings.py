"""Settings for the Yahtzee site: configuration only, read from the environment.

The embedded default needs nothing set: SQLite and a generated secret key live in the data
directory (``YAHTZEE_DATA_DIR``, default ``var/`` beside manage.py).

``YAHTZEE_ENV=production`` is for a public host (see docs/deploy.md): it refuses to start
without ``SECRET_KEY`` and ``ALLOWED_HOSTS`` and turns on HTTPS-only cookies, HSTS and the
redirect to HTTPS (``YAHTZEE_HTTPS=0`` relaxes those three for a plain-HTTP test host).
"""

from __future__ import annotations

import ipaddress
import logging
import os
import secrets
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

from yahtzee_site.errors import HostSettingError

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("YAHTZEE_DATA_DIR", BASE_DIR / "var"))
try:
    DATA_DIR.mkdir(parents=True, exist_ok=True)
except OSError as error:
    raise HostSettingError(
        f"The data directory {DATA_DIR} cannot be made ({error.strerror}): set YAHTZEE_DATA_DIR "
        "to a directory this user may write to."
    ) from None
if not os.access(DATA_DIR, os.W_OK | os.X_OK):
    raise HostSettingError(
        f"The data directory {DATA_DIR} is not writable by this user: set YAHTZEE_DATA_DIR to "
        "one that is, or give this user write access to it."
    )


def _env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _local_secret_key() -> str:
    """A secret key kept in the data directory, made on first run, for the embedded default."""
    path = DATA_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


def _env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


PRODUCTION = os.environ.get("YAHTZEE_ENV", "").strip().lower() == "production"
if PRODUCTION:
    for required in ("SECRET_KEY", "ALLOWED_HOSTS"):
        if not os.environ.get(required, "").strip():
            raise HostSettingError(
                f"YAHTZEE_ENV=production needs {required} in the environment (docs/deploy.md)."
            )
    # Sessions are the players' identity: a key anyone could guess (the example file's
    # placeholder, a short word, Django's development key) would let them sign any session.
    key = os.environ["SECRET_KEY"].strip()
    if len(key) < 32 or "replace-me" in key or key.startswith("django-insecure-"):
        raise HostSettingError(
            "SECRET_KEY must be at least 32 random characters in production: make one with "
            "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'."
        )

DEBUG = _env_flag("DEBUG")
SECRET_KEY = os.environ.get("SECRET_KEY") or _local_secret_key()
ALLOWED_HOSTS = _env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
# Origins allowed to post forms when they differ from the host (e.g. "https://yahtzee.example").
CSRF_TRUSTED_ORIGINS = _env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "core",
    "games",
    "lobby",
    "profiles",
    "history",
    "daily",
    "chat",
    "groups",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages and fragments gzipped (static files come pre-compressed from whitenoise). Django pads
    # each gzip stream with random bytes against BREACH; CSRF tokens are masked per response too.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "core.middleware.MethodNotAllowedPage",
    "profiles.middleware.LastingProfile",
]

# A move refused after a plain form post (no JavaScript) is told on the game page it redirects to
# (post/redirect/get, games.responses.refused_page). The message goes in a signed cookie, not the
# session: the session is the player's identity and is left alone.
MESSAGE_STORAGE = "django.contrib.messages.storage.cookie.CookieStorage"

ROOT_URLCONF = "yahtzee_site.urls"
CSRF_FAILURE_VIEW = "core.errors.csrf_failure"
WSGI_APPLICATION = "yahtzee_site.wsgi.application"
ASGI_APPLICATION = "yahtzee_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
            ],
        },
    },
]

# PostgreSQL (through psycopg 3) when DATABASE_URL is set, e.g.
# postgres://yahtzee:secret@127.0.0.1:5432/yahtzee. Otherwise SQLite, tuned for several players
# at once: WAL lets readers run beside the writer, IMMEDIATE takes the write lock when a
# transaction starts (no upgrade deadlocks), and a busy timeout makes a second writer wait
# instead of failing with "database is locked".
# Each process keeps a small pool of PostgreSQL connections shared by its threads (an ASGI
# process runs sync code in several threads; persistent per-thread connections would pile up
# until PostgreSQL refuses more clients). DATABASE_POOL_SIZE caps the pool of one process.
if os.environ.get("DATABASE_URL"):
    try:
        DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"])}
    except dj_database_url.UnknownSchemeError:  # no scheme, or one nobody knows
        DATABASES = {"default": {}}
    except ValueError:  # a PostgreSQL URL, most likely, with a character that must be escaped
        raise HostSettingError(
            "DATABASE_URL is not a valid URL: percent-encode the characters / # ? @ : in the "
            'password (python3 -c \'import urllib.parse; print(urllib.parse.quote("PASSWORD", '
            'safe=""))\').'
        ) from None
    if DATABASES["default"].get("ENGINE") != "django.db.backends.postgresql":
        raise HostSettingError(
            "DATABASE_URL is for PostgreSQL (postgres://USER:PASSWORD@HOST:5432/NAME). For "
            "SQLite leave it unset; SQLITE_PATH names the file (default: in YAHTZEE_DATA_DIR)."
        )
    # A move waits for its game's row lock on a mover thread (or on the socket process's one
    # database thread with MOVE_THREADS=0): a lock held for long (a psql session, a migration)
    # fails the move after 2 s (the page reconnects and shows the game) rather than stalling it.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("options", "-c lock_timeout=2s")
    # A PostgreSQL that is down or unreachable fails a page or a command within about 3 s, with
    # the pool's "error connecting ... Is the server running" line, not after 20 s: no connection
    # attempt waits more than 3 s (a host that drops packets), and neither does a request for a
    # connection from the pool (the pool retries in the background meanwhile).
    DATABASES["default"]["OPTIONS"].setdefault("connect_timeout", 3)
    DATABASES["default"]["OPTIONS"]["pool"] = {
        "min_size": 1,
        "max_size": int(os.environ.get("DATABASE_POOL_SIZE", "8")),
        "timeout": 3,
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "backends.sqlite",
            "NAME": os.environ.get("SQLITE_PATH", DATA_DIR / "db.sqlite3"),
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # Django's default for SQLite, said outright: pytest-django gives each xdist worker
            # its own database, and would otherwise name a file after NAME for an engine that is
            # not Django's own.
            "TEST": {"NAME": ":memory:"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The browser session is the player's identity: keep it for a year so a game is there to resume.
# Read through the cache (per process, or Redis when REDIS_URL is set), written to the database.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
SESSION_COOKIE_AGE = 365 * 24 * 3600
SESSION_SAVE_EVERY_REQUEST = False

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("es", _("Spanish"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = DATA_DIR / "staticfiles"
STATIC_ROOT.mkdir(exist_ok=True)
# Hashed, compressed files need a collectstatic run first (the serve command does it and sets
# STATIC_MANIFEST=1); without one (tests, development) whitenoise serves from the finders.
STATIC_MANIFEST = _env_flag("STATIC_MANIFEST", default=PRODUCTION)
WHITENOISE_USE_FINDERS = not STATIC_MANIFEST
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # whitenoise's, the site's own stylesheets and scripts minified (backends/staticfiles.py).
        "BACKEND": "backends.staticfiles.SiteStaticFilesStorage"
        if STATIC_MANIFEST
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Content Security Policy: scripts only from this site (and only tags that carry this
# response's nonce), no inline code or eval anywhere; sockets back to this site only.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
X_FRAME_OPTIONS = "DENY"

# A public host behind HTTPS: secure cookies, HSTS and the redirect to HTTPS. The reverse proxy
# terminates TLS and says so in X-Forwarded-Proto (docs/deploy.md); YAHTZEE_HTTPS=0 turns the
# three off for a plain-HTTP test host.
HTTPS = PRODUCTION and _env_flag("YAHTZEE_HTTPS", default=True)
if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = SECURE_SSL_REDIRECT = HTTPS
# The health check answers plain HTTP too: a service manager asks it on loopback, behind nginx.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = 365 * 24 * 3600 if HTTPS else 0
# HSTS covers subdomains and asks for preloading unless the host says its parent domain has
# plain-HTTP sites (YAHTZEE_HSTS_SUBDOMAINS=0): once preloaded, browsers refuse HTTP for a year.
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_PRELOAD = HTTPS and _env_flag(
    "YAHTZEE_HSTS_SUBDOMAINS", default=True
)

# Reverse proxies in front of the site, as addresses or networks ("127.0.0.1,::1" for nginx on
# this machine): a request that comes from one of them is from the client its X-Forwarded-For
# names, for the rate limits by address (core.addresses.client_address). None by default: the
# address is the connection's, and an X-Forwarded-For a client sent itself is ignored.
TRUSTED_PROXIES = _env_list("TRUSTED_PROXIES")
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError:
        raise HostSettingError(
            f"TRUSTED_PROXIES lists addresses or networks, comma-separated (127.0.0.1,::1 or "
            f"10.0.0.0/8): {_proxy!r} is neither."
        ) from None

# uvicorn logs each WebSocket's start at INFO ('"WebSocket /ws/lobby/" [accepted]', then
# "connection open"; "connection closed" too, by the websockets version): lines on every page
# view that bury what a host reads. Dropped; its start-up lines, refusals (403) and errors stay.
# uvicorn configures its loggers as it starts, and Django this LOGGING when uvicorn loads the
# application, after: the filter is added to uvicorn's own set-up (tests/live/test_hosting.py).
_PER_SOCKET_LINES = frozenset(
    {'%s - "WebSocket %s" [accepted]', "connection open", "connection closed"}
)


def _not_per_socket(record: logging.LogRecord) -> bool:
    return not (isinstance(record.msg, str) and record.msg in _PER_SOCKET_LINES)


def _without_traceback(record: logging.LogRecord) -> bool:
    record.exc_info = record.exc_text = None
    return True


# Errors and warnings go to the console (the server's log) whatever DEBUG says. A request with a
# Host header the site does not answer to (any scanner sends them) is answered 400 by Django and
# logged by it on django.security.DisallowedHost, with the traceback of where the host was read:
# one line says all of it.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "not_per_socket": {"()": "django.utils.log.CallbackFilter", "callback": _not_per_socket},
        "without_traceback": {
            "()": "django.utils.log.CallbackFilter",
            "callback": _without_traceback,
        },
    },
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {
        "uvicorn.error": {"filters": ["not_per_socket"]},
        "django.security.DisallowedHost": {"filters": ["without_traceback"]},
    },
    "root": {"handlers": ["console"], "level": "WARNING"},
}

# Live updates: one process shares them in memory; several processes need Redis between them,
# and then the cache (rate limits) lives there too, so that every process counts the same.
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL and not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
    raise HostSettingError(  # not the URL itself: it may hold a password
        "REDIS_URL must start with redis://, rediss:// or unix:// (e.g. redis://127.0.0.1:6379/0)."
    )
CHANNEL_LAYERS = {
    "default": {
        # Pub/sub: one PUBLISH per group message (the list-based layer makes several round
        # trips and stores a copy per socket); a page that is not connected misses nothing it
        # needs, since it catches up when its socket connects.
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [REDIS_URL]},
    }
    if REDIS_URL
    else {"BACKEND": "backends.channel_layers.QuickInMemoryChannelLayer"}
}
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "yahtzee",
        }
    }

# On how many threads a WebSocket process does the database work of the moves pages send over
# their sockets, so that one game's wait for the database does not hold up the process's other
# sockets; 0: all of a move on the event loop's own thread. By default 4 on PostgreSQL, 1 on
# SQLite, which takes one writer at a time: more threads only wait in its busy handler's sleeps
# (at 128 players the p95 doubled). See games.live.threads.
DEFAULT_MOVE_THREADS = "4" if os.environ.get("DATABASE_URL") else "1"
MOVE_THREADS = int(os.environ.get("MOVE_THREADS", DEFAULT_MOVE_THREADS))
if MOVE_THREADS < 0:
    raise HostSettingError("MOVE_THREADS is a number of threads: 0 or more")

# The name of this WebSocket server, the same across its restarts, so that a restarted one forgets
# the pages its killed run left counted (games.presence): by default the host name and the address
# it listens on. Set it where the host name changes on every start (containers).
SOCKET_SERVER_ID = os.environ.get("SOCKET_SERVER_ID", "")

# Online games: how long a player whose page closed may stay away before the others may go on
# without them (or end the game).
AWAY_GRACE_SECONDS = int(os.environ.get("AWAY_GRACE_SECONDS", "120"))

# Play now (lobby.playnow): how long a player waits for someone before the computer is offered.
PLAY_NOW_WAIT_SECONDS = float(os.environ.get("PLAY_NOW_WAIT_SECONDS", "20"))

# The turn timer (games.clock): how often a socket server plays the turns that ran out (seconds).
TURN_SWEEP_SECONDS = float(os.environ.get("TURN_SWEEP_SECONDS", "2"))
# How fast turn timers run (2 = a 30 s timer runs out in 15 s): for the browser tests, as
# PLAYBACK_SPEED is; the page counts down from the deadline this gives, so it shows what is so.
TURN_TIMER_SPEED = float(os.environ.get("TURN_TIMER_SPEED", "1"))

# How many frames a page's socket may send: a burst, then a steady rate (games.live.moves). A
# person taps a few times a second at most. The frame test's server sets a slow rate, so that a
# burst is refused however long each move takes on a loaded machine.
SOCKET_FRAME_BURST = 20
SOCKET_FRAMES_PER_SECOND = float(os.environ.get("SOCKET_FRAMES_PER_SECOND", "10"))

# How fast another player's moves are played back on screen (2 = twice as fast).
PLAYBACK_SPEED = float(os.environ.get("PLAYBACK_SPEED", "1"))

# Where the optimal-strategy table is kept (outside the source tree; built by `manage.py solve`).
os.environ.setdefault("YAHTZEE_STRATEGY_DIR", str(DATA_DIR / "strategy"))
