"""Trumpfbuch settings: one module, every value from the environment.

Each value that differs between a laptop, CI and a production host is read from an
environment variable through the small helpers below. They fail loudly on a value they
cannot read, so a typo in a deployment stops the start instead of running half-configured.
Without any environment the checkout runs at once: DEBUG on, SQLite beside manage.py.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.caches import cache_from_url, code_version

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name, default=None):
    """The variable as text; `default` when unset. Unset without default is an error."""
    value = os.environ.get(name)
    if value is None:
        if default is None:
            raise ImproperlyConfigured(f"Environment variable {name} is required.")
        return default
    return value


def env_bool(name, default):
    """True for 1/true/yes/on, False for 0/false/no/off/empty (any case); else an error."""
    value = os.environ.get(name)
    if value is None:
        return default
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean (use true or false).")


def env_int(name, default):
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number.") from None


def env_list(name, default):
    """A comma-separated list; blanks around items and empty items are dropped."""
    value = os.environ.get(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

if DEBUG:
    SECRET_KEY = env_str("SECRET_KEY", "dev-only-insecure-key-never-use-in-production")
else:
    # No default outside DEBUG: a public site with a known key would be forgeable.
    SECRET_KEY = env_str("SECRET_KEY")
# The keys used before a new SECRET_KEY (comma-separated): what they signed stays valid, the
# printed sheets' check codes in the clubs' folders among it (protocol/sheet/check.py).
SECRET_KEY_FALLBACKS = env_list("SECRET_KEY_FALLBACKS", [])

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_tables2",
    "django_filters",
    "django_htmx",
    "axes",
    "csp",
    "django_tasks",
    "django_tasks_db",
    "league",
    "protocol",
    "jobs",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # HTML and JSON go out compressed (a match page 82 kB -> 11 kB on a phone's link); Django
    # pads compressed responses against BREACH. Static files never reach it: WhiteNoise
    # serves its own precompressed copies above.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The user's roles in a club, asked of the database once per request (access.py).
    "league.registry.middleware.RolesPerRequest",
    "django.contrib.messages.middleware.MessageMiddleware",
    # access.LoginRequired (an anonymous visitor refused): the login, not 403.
    "league.registry.middleware.LoginRequiredMiddleware",
    # A tournament table's card held in the session: asked again on every request; its holder
    # refused elsewhere gets a German 403 page (league.tournaments.card_access).
    "league.tournaments.card_access.TableCardMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # templates/, the apps', then each game's own (<its folder>/templates/<game>/..., found
        # through the game registry, so that a game added there needs no line here)
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            "loaders": [("django.template.loaders.cached.Loader", [
                "django.template.loaders.filesystem.Loader",
                "django.template.loaders.app_directories.Loader",
                "protocol.game_templates.Loader",
            ])],
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
    {   # the match page's parts, written at every save (<app>/jinja2/, config/jinja.py)
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "jinja2",
        "APP_DIRS": True,
        "OPTIONS": {"environment": "config.jinja.environment"},
    },
]

WSGI_APPLICATION = "config.wsgi.application"

# Database: SQLite beside manage.py unless DATABASE_URL says otherwise, e.g.
# DATABASE_URL=postgres://postgres@127.0.0.1:5432/trumpfbuch
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("CONN_MAX_AGE", 0),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers go on while the Protokollant writes; IMMEDIATE takes the write
    # lock at BEGIN, so two writers wait (busy timeout) instead of failing mid-transaction.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # The planner's cost of reading a page out of order, for the SSD every host has now
    # (PostgreSQL's default 4 is for spinning disks): a club's pages then reach its rows
    # through the indexes instead of scanning every club's seats beside a federation
    # (the all-time table's seats 4.1 -> 2.1 ms). PG_RANDOM_PAGE_COST="" leaves
    # the server's own setting.
    _page_cost = env_str("PG_RANDOM_PAGE_COST", "1.1")
    if _page_cost:
        try:
            _page_cost = float(_page_cost)
        except ValueError:
            raise ImproperlyConfigured(f"PG_RANDOM_PAGE_COST={_page_cost!r} is not a number.") from None
        DATABASES["default"].setdefault("OPTIONS", {})["options"] = f"-c random_page_cost={_page_cost}"
    # The values are sent apart from the SQL, so psycopg prepares a statement a connection has run
    # five times: the server plans the reads every page repeats (the session, the user, a
    # Partie with the viewer's roles, the state poll's one statement) once per connection, not
    # at every request (an unchanged poll 1.5x -> 1.3x its cached floor).
    # PG_PREPARE=false for a pooler that hands each transaction another server connection.
    if env_bool("PG_PREPARE", True):
        DATABASES["default"].setdefault("OPTIONS", {}).update(server_side_binding=True, prepare_threshold=5)

# The cache every worker shares (config/caches.py): by default files under private/cache
# (one host, no server); CACHE_URL=db:// for the database's, redis://127.0.0.1:6379/0 for Redis.
# Keys carry the code's fingerprint: a new release never reads a table its predecessor kept.
CACHES = {"default": cache_from_url(env_str("CACHE_URL", "file://"), default_dir=BASE_DIR / "private" / "cache",
                                    database=DATABASES["default"], code=code_version(BASE_DIR))}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Background work (django-tasks): exports, season imports. TASKS_BACKEND=database keeps the
# queue in the database above and `manage.py db_worker` runs it (`make run`/`make serve` start
# one beside the web process; a federation starts more against the same database).
# TASKS_BACKEND=immediate runs each task inside the request that starts it (development only).
# TASKS_BACKEND=rq keeps the queue in Redis (REDIS_URL; django-tasks-rq) and `manage.py rqworker
# --job-class django_tasks_rq.Job default` runs it: for a federation that has Redis anyway.
_TASK_BACKENDS = {"database": "django_tasks_db.DatabaseBackend",
                  "immediate": "django_tasks.backends.immediate.ImmediateBackend",
                  "rq": "django_tasks_rq.RQBackend"}
TASKS_BACKEND = env_str("TASKS_BACKEND", "database")
if TASKS_BACKEND not in _TASK_BACKENDS:
    raise ImproperlyConfigured(f"TASKS_BACKEND={TASKS_BACKEND!r} is not one of {', '.join(_TASK_BACKENDS)}.")
TASKS = {"default": {"BACKEND": _TASK_BACKENDS[TASKS_BACKEND], "QUEUES": ["default"]}}
if TASKS_BACKEND == "rq":
    INSTALLED_APPS.append("django_rq")
    # A job may run long (a federation's season): RQ's default timeout of 180 s would kill it.
    RQ_QUEUES = {"default": {"URL": env_str("REDIS_URL", "redis://127.0.0.1:6379/0"),
                             "DEFAULT_TIMEOUT": env_int("RQ_JOB_TIMEOUT", 3600)}}
# Where background jobs keep uploads, progress and finished files: never served directly
# (a view checks who may download). Web processes and workers must share this directory.
JOBS_DIR = Path(env_str("JOBS_DIR", str(BASE_DIR / "private" / "jobs")))
# A running job whose worker gave no sign of life (every 2 s) for this many seconds counts as
# stalled (its worker died); its page then offers to start it again.
JOBS_STALLED_AFTER = env_int("JOBS_STALLED_AFTER", 30)
# Finished jobs (their files, uploads and rows) are removed this many days after they ended.
JOBS_KEEP_DAYS = env_int("JOBS_KEEP_DAYS", 30)
# The daily backup (protocol/documents/backup_files.py, run by jobs.housekeeping): `manage.py
# backup` files in BACKUP_DIR, the last BACKUP_KEEP of them kept. Never served; as safe as the database (it holds password hashes).
BACKUP_DIR = Path(env_str("BACKUP_DIR", str(BASE_DIR / "private" / "backups")))
BACKUP_KEEP = env_int("BACKUP_KEEP", 14)
if BACKUP_KEEP < 1:
    raise ImproperlyConfigured(f"BACKUP_KEEP={BACKUP_KEEP} must be 1 or more.")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Mail ("Passwort vergessen?"): through EMAIL_HOST when it is set; printed to the console in
# development; otherwise none at all (a production site without a mail server would fail at
# the first reset mail, and a console would write reset links into the logs). Without mail
# the secretary hands out a fresh link instead (league/accounts/invitations.py).
EMAIL_HOST = env_str("EMAIL_HOST", "")
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", EMAIL_PORT == 587)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", EMAIL_PORT == 465)
NO_MAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend" if DEBUG
    else NO_MAIL_BACKEND,
)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "trumpfbuch@localhost")

# The site's own address (https://trumpfbuch.example), for links made outside a request:
# `manage.py create_club` prints one (or takes --base-url).
SITE_URL = env_str("SITE_URL", "").rstrip("/")
# How long an invitation link (and a fresh one for a forgotten password) stays valid.
INVITATION_TIMEOUT = env_int("INVITATION_DAYS", 14) * 24 * 60 * 60

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Internationalisation: source strings are English, the people who use the site read
# German, which comes from locale/de.
LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("German")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "Europe/Berlin"
USE_TZ = True

STATIC_URL = "static/"
# Where collectstatic writes and WhiteNoise serves from outside DEBUG.
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "config.storage.StaticStorage"  # WhiteNoise's manifest storage; vendor/ as is
        )
    },
}

# Plain django-tables2 markup inside a horizontally scrolling wrapper; styled by site.css.
DJANGO_TABLES2_TEMPLATE = "includes/table.html"
DJANGO_TABLES2_TABLE_ATTRS = {"class": "data-table"}

# Login throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one
# username from one address, that pair waits AXES_COOLOFF_HOURS.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_ENABLED = env_bool("AXES_ENABLED", True)
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = env_int("AXES_COOLOFF_HOURS", 1)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# The client address (django-ipware, as axes asks). Directly on the net it is the socket's
# REMOTE_ADDR and nothing else: every header can be forged. Behind TRUSTED_PROXY_COUNT
# reverse proxies REMOTE_ADDR is the nearest proxy; each proxy appends the address it saw
# to X-Forwarded-For, so the client is the entry TRUSTED_PROXY_COUNT-th from the right
# (ipware counts the proxies listed in the header: one fewer). Entries further left come
# from the client and are ignored; non-strict, so they do not switch the rule off.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 1)
if TRUSTED_PROXY_COUNT < 1:
    raise ImproperlyConfigured(f"TRUSTED_PROXY_COUNT={TRUSTED_PROXY_COUNT} must be 1 or more.")
if env_bool("BEHIND_HTTPS_PROXY", False):
    AXES_IPWARE_META_PRECEDENCE_ORDER = ["HTTP_X_FORWARDED_FOR"]
    AXES_IPWARE_PROXY_COUNT = TRUSTED_PROXY_COUNT - 1
else:
    AXES_IPWARE_META_PRECEDENCE_ORDER = ["REMOTE_ADDR"]
    AXES_IPWARE_PROXY_COUNT = None
AXES_IPWARE_PROXY_ORDER = "left-most"
IPWARE_STRICT = False
AXES_VERBOSE = False

# Sessions end after two weeks (a season's club evenings stay logged in on the phone).
SESSION_COOKIE_AGE = env_int("SESSION_COOKIE_AGE", 14 * 24 * 60 * 60)

# The service worker (the offline pack) shows a kept match page when the network has not answered
# within this many seconds (offline it shows it at once); the network's answer still
# refreshes the kept copy.
OFFLINE_NETWORK_TIMEOUT = env_int("OFFLINE_NETWORK_TIMEOUT", 3)

# Content-Security-Policy (django-csp): only the site's own files; no inline script.
from csp.constants import NONE, SELF  # noqa: E402

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        # Pyodide compiles WebAssembly (the rules engine offline): 'wasm-unsafe-eval'
        # allows that and nothing else; never 'unsafe-eval', never inline script.
        "script-src": [SELF, "'wasm-unsafe-eval'"],
        "worker-src": [SELF],  # the service worker (/sw.js)
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "object-src": [NONE],
    },
}
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# HTTPS: cookies are HTTPS-only outside DEBUG; redirect and HSTS are for the operator
# to switch on once the host serves HTTPS (HSTS cannot be taken back quickly).
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", SECURE_HSTS_SECONDS > 0)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
if env_bool("BEHIND_HTTPS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"refusal_without_traceback": {"()": "config.log_filters.RefusalWithoutTraceback"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django.request": {"filters": ["refusal_without_traceback"]}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}
