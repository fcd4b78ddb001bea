"""Settings, read from the environment (docs/configuration.md lists every variable).

Nothing secret is committed: without SECRET_KEY a key is generated once and kept in var/.
"""

import datetime as dt
import ipaddress
import secrets
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
VAR_DIR = Path(env.str("VAR_DIR", default=str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def _stored_secret_key() -> str:
    path = VAR_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = env.str("SECRET_KEY", default="") or _stored_secret_key()
# Made on this machine: fine for one server, not for several (tournament/deploy_checks.py).
SECRET_KEY_FROM_FILE = not env.str("SECRET_KEY", default="")
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
_LAN_SUFFIXES = (".localhost", ".local", ".lan", ".home.arpa", ".internal")


def is_lan_host(host: str) -> bool:
    """A host no public certificate can be issued for: this machine, a private or
    link-local address (RFC 1918, fc00::/7, 169.254/16, fe80::/10), a .local/.lan-style
    name or a bare name without a dot. An ALLOWED_HOSTS pattern (".example.org", "*")
    may match public names, so it is not one."""
    name = host.strip().lower().removeprefix("[").removesuffix("]")
    if name == "localhost" or name.endswith(_LAN_SUFFIXES):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return bool(name) and "." not in name and "*" not in name and ":" not in name
    return address.is_private or address.is_loopback or address.is_link_local


# HTTPS-only cookies, redirects and HSTS are on for any real deployment, that is as soon as
# one allowed host is a public name or address. A server on this machine (quickstart) or on
# a venue LAN (ALLOWED_HOSTS=192.168.1.10) runs on plain HTTP: nothing could answer its
# redirect to https. HTTPS=1 or HTTPS=0 always wins (docs/deploy.md, "Running on a venue LAN").
HTTPS = env.bool("HTTPS", default=not DEBUG
                 and not all(is_lan_host(host) for host in ALLOWED_HOSTS))
if HTTPS:
    SECURE_SSL_REDIRECT = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
X_FRAME_OPTIONS = "DENY"
# Only the site's own scripts and styles run: no inline code, no other origins (django-csp).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    },
}

INSTALLED_APPS = [
    "whitenoise.runserver_nostatic",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_tables2",
    "django_htmx",
    "csp",
    "simple_history",
    "axes",
    "tournament",
]

MIDDLEWARE = [
    # First: security headers and the HTTPS redirect, then the static files, answered before
    # any middleware of the public site does any work (issue 53).
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Gzip what an anonymous reader is sent (tournament/compression.py).
    "tournament.compression.AnonymousGZipMiddleware",
    # Every answer's Cache-Control, ETag and Vary for a shared cache in front
    # (tournament/cache_headers.py): outside the public cache, so a kept page gets them
    # too; inside gzip, so an entity tag is made of the plain body.
    "tournament.cache_headers.SharedCacheHeadersMiddleware",
    # The language, from the address for public pages: before the public cache, which keeps
    # a page under its language, and before sessions (it needs none).
    "tournament.language.LanguageMiddleware",
    # A cached public page is answered before sessions and authentication run.
    "tournament.public_cache.PublicCacheMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # The database did not answer in a view: "not saved, try again" (503), not a 500.
    "tournament.db_unavailable.DatabaseUnavailableMiddleware",
    # Last, as django-axes asks: turns a locked-out login into the lock-out page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "tournament.urls"
WSGI_APPLICATION = "tournament.wsgi.application"

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
                "tournament.context_processors.site",
            ],
        },
    },
]
# Form widgets drawn by Jinja2 from Django's own widget templates, twice as fast
# (tournament/form_renderer.py).
FORM_RENDERER = "tournament.form_renderer.FormRenderer"

# An empty DATABASE_URL (``DATABASE_URL= manage.py …``) means the default, as unset does.
DATABASES = {
    "default": env.db_url_config(env.str("DATABASE_URL", default="").strip()
                                 or f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
}
if DATABASES["default"].get("ENGINE") not in ("django.db.backends.sqlite3",
                                              "django.db.backends.postgresql"):
    raise ImproperlyConfigured(
        "DATABASE_URL names SQLite (sqlite:///path) or PostgreSQL "
        "(postgres://user@host:port/name), not "
        f"{env.str('DATABASE_URL', default='').split('://')[0]!r}")
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several scorers save at once: take the write lock at BEGIN instead of failing an
    # upgrade from a read lock, wait for it, and let readers go on during writes (WAL).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
else:
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # PostgreSQL's planner assumes a spinning disk (random_page_cost 4) and reads a whole
    # table of hands rather than one round's through its index: 18 ms instead of 2 for a
    # round of a 512-team event after 15 rounds, growing with every round. On the SSDs of
    # any current server the usual value is 1.1 (docs/deploy.md, "PostgreSQL").
    if env.str("PG_RANDOM_PAGE_COST", default="1.1"):
        options = DATABASES["default"].setdefault("OPTIONS", {})
        options["options"] = (options.get("options", "") + " -c random_page_cost="
                              + str(env.float("PG_RANDOM_PAGE_COST", default=1.1))).strip()
    # The scorers' statements (tournament.prepared) are prepared by the server after
    # their second run on a connection: a hand's save runs the same dozen shapes again
    # and again, and planning them cost PostgreSQL more than running them (6.7 → 2.5 ms
    # of the server's time a save, docs/benchmarks.md). Django's other queries go as
    # text, as Django sends them by default. A pooler in front (PgBouncer in transaction
    # mode) must keep prepared statements (its max_prepared_statements), or set
    # PG_PREPARE_THRESHOLD empty: nothing prepared.
    if env.str("PG_PREPARE_THRESHOLD", default="2"):
        options = DATABASES["default"].setdefault("OPTIONS", {})
        options["prepare_threshold"] = env.int("PG_PREPARE_THRESHOLD", default=2)

CACHES = {"default": env.cache("CACHE_URL", default="locmemcache://duplicate-gin")}
# Public pages are cached until the services announce a change (tournament/public_cache.py);
# this is only the safety net, in seconds (0: no public cache).
PUBLIC_CACHE_SECONDS = env.int("PUBLIC_CACHE_SECONDS", default=300)
# The tournament file an import reads (tournament/exchange/read.py): at most this many
# bytes, nested at most this deep.
IMPORT_MAX_BYTES = env.int("IMPORT_MAX_BYTES", default=100 * 1024 * 1024)
IMPORT_MAX_DEPTH = env.int("IMPORT_MAX_DEPTH", default=64)
# Where ``manage.py backup`` writes the tournament files and the backups page finds them
# (docs/deploy.md, "Backups").
BACKUP_DIR = Path(env.str("BACKUP_DIR", default=str(VAR_DIR / "backups")))
# The backups that happen by themselves (issue 50; docs/deploy.md, "Backups"): the server
# that quickstart and serve start takes one every BACKUP_INTERVAL seconds while a round is
# in play, and at once after a round is closed, a knockout match signed off or a tournament
# imported (BACKUPS_AUTOMATIC=0: only manage.py backup and the backups page's button).
BACKUPS_AUTOMATIC = env.bool("BACKUPS_AUTOMATIC", default=True)
BACKUP_INTERVAL = env.int("BACKUP_INTERVAL", default=600)
# A second folder that receives a verified copy of every backup (a USB stick, a network
# share); empty: none. Its parent must exist (a stick plugged in): if not, a warning.
BACKUP_MIRROR_DIR = env.str("BACKUP_MIRROR_DIR", default="").strip()
# Kept: the last BACKUP_KEEP files of each tournament and BACKUP_SNAPSHOTS_KEPT snapshots of
# the database, and none older than BACKUP_KEEP_DAYS days but the newest.
BACKUP_KEEP = env.int("BACKUP_KEEP", default=48)
BACKUP_SNAPSHOTS_KEPT = env.int("BACKUP_SNAPSHOTS_KEPT", default=12)
BACKUP_KEEP_DAYS = env.int("BACKUP_KEEP_DAYS", default=30)
# While results come in, a public page is built again at most this often (seconds).
PUBLIC_CACHE_GRACE_SECONDS = env.float("PUBLIC_CACHE_GRACE_SECONDS", default=1.0)
# A shared cache in front (nginx, Varnish, a CDN; docs/deploy.md) keeps a public answer this
# many seconds (s-maxage), and may hand out its old copy for the grace while it fetches a new
# one: a change reaches readers behind it within the two together (tournament/cache_headers.py).
PUBLIC_SHARED_CACHE_SECONDS = env.int("PUBLIC_SHARED_CACHE_SECONDS", default=1)
# Where the shared cache takes purges (empty: none; docs/deploy.md, "Purging"): after every
# change, PUBLIC_CACHE_PURGE_METHOD requests for the changed tournament's addresses.
PUBLIC_CACHE_PURGE_URL = env.str("PUBLIC_CACHE_PURGE_URL", default="").strip()
PUBLIC_CACHE_PURGE_METHOD = env.str("PUBLIC_CACHE_PURGE_METHOD", default="PURGE")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Django's own hashers (the first hashes account passwords), then the cheap one for players'
# PINs, which a lock protects rather than a work factor (tournament/hashers.py).
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.BCryptSHA256PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
    "tournament.hashers.PinHasher",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "director:home"
LOGOUT_REDIRECT_URL = "public:home"

# Login throttling (django-axes; tournament/login_throttle.py). Its backend comes first and
# refuses a locked-out login before any password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Failures count per account and, separately, per client address, and either locks: a
# guesser on one account is stopped from however many addresses, and one address trying
# many accounts (one password on every account) is stopped too. Counting the pair
# (account, address) instead would stop neither. An address shared by a venue's stations
# gets a larger allowance than an account. Failures are forgotten after the cool-off, not
# on a successful login, so a guesser cannot clear them by logging in to an account of
# their own; a director unlocks an account on the tournament's staff page.
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
LOGIN_ADDRESS_FAILURE_LIMIT = env.int("LOGIN_ADDRESS_FAILURE_LIMIT", default=20)
AXES_COOLOFF_MINUTES = env.int("AXES_COOLOFF_MINUTES", default=15)
if min(AXES_FAILURE_LIMIT, LOGIN_ADDRESS_FAILURE_LIMIT, AXES_COOLOFF_MINUTES) < 1:
    raise ImproperlyConfigured(
        "AXES_FAILURE_LIMIT, LOGIN_ADDRESS_FAILURE_LIMIT and AXES_COOLOFF_MINUTES must be "
        "at least 1")
AXES_COOLOFF_TIME = dt.timedelta(minutes=AXES_COOLOFF_MINUTES)
AXES_RESET_ON_SUCCESS = False
AXES_HANDLER = "tournament.login_throttle.AccountAndAddressHandler"
AXES_LOCKOUT_CALLABLE = "tournament.login_throttle.lockout_response"
AXES_CLIENT_IP_CALLABLE = "tournament.client_ip.client_ip"
# The client's address (tournament/client_ip.py), for the throttle and the audit log: the
# connection's, unless proxies in front set a header with it. Name the header only when a
# proxy overwrites it, or any client can claim any address. Either the request.META key
# (HTTP_X_FORWARDED_FOR) or the header's name (X-Forwarded-For).
TRUSTED_PROXY_HEADER = env.str("TRUSTED_PROXY_HEADER", default="").strip()
if TRUSTED_PROXY_HEADER and not TRUSTED_PROXY_HEADER.upper().startswith("HTTP_"):
    TRUSTED_PROXY_HEADER = "HTTP_" + TRUSTED_PROXY_HEADER.replace("-", "_")
TRUSTED_PROXY_HEADER = TRUSTED_PROXY_HEADER.upper()
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=1)
if TRUSTED_PROXY_COUNT < 1:
    raise ImproperlyConfigured("TRUSTED_PROXY_COUNT must be at least 1")

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "tournament" / "locale"]
# One date format per language (tournament/formats/<language>/formats.py).
FORMAT_MODULE_PATH = ["tournament.formats"]
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

# A TrueType font with Chinese characters, embedded in the PDFs (tournament/pdf/fonts.py);
# empty: Debian's fonts-wqy-zenhei when installed, else reportlab's CID font (not embedded).
PDF_CJK_FONT = env.str("PDF_CJK_FONT", default="")

STATIC_URL = "static/"
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(VAR_DIR / "static")))
# Hashed, compressed static files (collectstatic runs in quickstart and on deployment).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
MEDIA_ROOT = VAR_DIR / "media"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
DJANGO_TABLES2_TEMPLATE = "includes/table.html"  # a caption, header cells with scope
MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
}
