"""The pages a visitor sees, and the settings an operator relies on."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

import cardgames

ROOT = Path(__file__).resolve().parents[2]

# Variables that would change what the settings module chooses: removed before each subprocess.
SETTINGS_VARIABLES = (
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "DATABASE_POOL",
    "DATABASE_DURABLE_COMMITS",
    "TABLE_THREADS",
    "REDIS_URL",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
)

PRODUCTION_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "k3Jx9-production-test-key-with-plenty-of-entropy-QwErTy-12345-zXcVbN",
    "ALLOWED_HOSTS": "cards.example.org",
}

PRINT_SETTINGS = """
import json
import django
from django.conf import settings
django.setup()
db = settings.DATABASES["default"]
print(json.dumps({
    "debug": settings.DEBUG,
    "db_engine": db["ENGINE"],
    "db_name": str(db["NAME"]),
    "db_host": db.get("HOST", ""),
    "db_pool": db.get("OPTIONS", {}).get("pool", False),
    "db_options": db.get("OPTIONS", {}).get("options", ""),
    "db_conn_max_age": db.get("CONN_MAX_AGE", 0),
    "layer": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "layer_config": settings.CHANNEL_LAYERS["default"].get("CONFIG", {}),
    "asgi": settings.ASGI_APPLICATION,
    "table_threads": settings.TABLE_THREADS,
}))
"""


def run_python(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """Run the venv's Python at the project root with only ``env`` as the settings variables."""
    full_env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    full_env["DJANGO_SETTINGS_MODULE"] = "cardgames.settings"
    full_env.update(env)
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def settings_under(env: dict[str, str]) -> dict:
    result = run_python(env, "-c", PRINT_SETTINGS)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


# --- Pages ------------------------------------------------------------------------------------


def test_home_page_names_both_games_and_links_the_durak_rules(client):
    response = client.get("/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Durak" in page
    assert "Rummy" in page
    assert f'href="{reverse("durak:rules")}"' in page
    assert reverse("durak:rules") == "/durak/rules/"


def test_home_page_tells_the_three_ways_to_play(client):
    page = client.get("/").content.decode()
    for words in ("Vs computer", "Easy", "Medium", "Hard", "Pass and play", "invite link"):
        assert words in page


def test_every_page_loads_htmx_and_the_stylesheet_without_inline_scripts(client):
    for url in ("/", "/durak/rules/"):
        page = client.get(url).content.decode()
        assert "/static/vendor/htmx.min.js" in page
        assert "/static/vendor/ws.js" in page
        assert "/static/css/site.css" in page
        # Every <script> has a src: no inline JavaScript.
        assert page.count("<script") == page.count("<script src=")


@pytest.mark.parametrize(
    "url",
    [
        "/",
        "/durak/rules/",
        "/rummy/rules/",
        "/play/durak/hotseat/",
        "/play/durak/online/",
        "/clear/",
    ],
)
def test_no_template_syntax_shows_on_a_page(client, url):
    """A template comment over two lines ({# … #} is one line only) showed on the home page."""
    page = client.get(url).content.decode()
    assert "{#" not in page and "#}" not in page and "{%" not in page and "{{" not in page


def test_rules_page_has_the_four_sections_and_the_version(client):
    response = client.get("/durak/rules/")
    assert response.status_code == 200
    page = response.content.decode()
    for heading in ("Getting started", "Rules", "Tips", "Saving and new game"):
        assert f">{heading}</h2>" in page
    assert cardgames.__version__ in page
    assert f"Rules version {cardgames.__version__}" in page


def test_rules_page_explains_trump_transfer_and_the_limit_of_six(client):
    page = client.get("/durak/rules/").content.decode()
    assert "trump" in page
    assert "transfer" in page.lower()
    assert "more than <strong>six</strong> attack cards" in page
    # The variant options.
    for words in ("24 cards", "36 cards", "52 cards", "at most 4 with the 24-card deck"):
        assert words in page


def test_version_matches_pyproject():
    import tomllib

    with open(ROOT / "pyproject.toml", "rb") as file:
        assert tomllib.load(file)["project"]["version"] == cardgames.__version__


def test_unknown_address_gets_a_friendly_404(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()


def test_static_files_are_found():
    from django.contrib.staticfiles import finders

    for name in ("css/site.css", "vendor/htmx.min.js", "vendor/ws.js", "favicon.svg"):
        assert finders.find(name), name


def test_the_asgi_application_serves_the_home_page():
    from asgiref.sync import async_to_sync
    from channels.testing import HttpCommunicator

    from cardgames.asgi import application

    communicator = HttpCommunicator(application, "GET", "/", headers=[(b"host", b"localhost")])
    response = async_to_sync(communicator.get_response)()
    assert response["status"] == 200
    assert b"Durak" in response["body"]


def test_a_websocket_from_a_foreign_site_is_refused():
    from asgiref.sync import async_to_sync
    from channels.testing import WebsocketCommunicator

    from cardgames.asgi import application

    async def connect() -> bool:
        communicator = WebsocketCommunicator(
            application, "/ws/anything/", headers=[(b"origin", b"https://evil.example")]
        )
        connected, _ = await communicator.connect()
        await communicator.disconnect()
        return connected

    assert async_to_sync(connect)() is False


# --- Settings ---------------------------------------------------------------------------------


def test_default_settings_are_single_process_sqlite_and_in_memory_layer():
    values = settings_under({})
    assert values["debug"] is True
    assert values["db_engine"] == "django.db.backends.sqlite3"
    assert values["db_name"] == str(ROOT / "db.sqlite3")
    assert values["layer"] == "cardgames.layers.ThriftyInMemoryChannelLayer"
    assert values["asgi"] == "cardgames.asgi.application"


def test_redis_url_selects_channels_redis_pub_sub():
    values = settings_under({"REDIS_URL": "redis://redis.internal:6379/2"})
    assert values["layer"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert values["layer_config"]["hosts"][0]["address"] == "redis://redis.internal:6379/2"


def test_database_url_selects_postgresql_with_a_pool():
    values = settings_under({"DATABASE_URL": "postgres://cards:secret@db.internal:5432/cards"})
    assert values["db_engine"] == "django.db.backends.postgresql"
    assert values["db_name"] == "cards"
    assert values["db_host"] == "db.internal"
    # A connection for each table thread and some for the page views, so that no table waits
    # for another's connection.
    assert values["db_pool"]["max_size"] >= values["table_threads"] + 2 >= 4
    assert values["db_conn_max_age"] == 0


def test_postgresql_commits_do_not_wait_for_the_disk_unless_asked():
    url = "postgres://cards:secret@db.internal:5432/cards?options=-c%20work_mem%3D8MB"
    values = settings_under({"DATABASE_URL": url})
    assert values["db_options"] == "-c work_mem=8MB -c synchronous_commit=off"
    values = settings_under({"DATABASE_URL": url, "DATABASE_DURABLE_COMMITS": "1"})
    assert values["db_options"] == "-c work_mem=8MB"


def test_table_threads_are_one_on_sqlite_and_can_be_set():
    assert settings_under({})["table_threads"] == 1
    assert settings_under({"DATABASE_URL": "sqlite:////srv/cards.sqlite3"})["table_threads"] == 1
    server = {"DATABASE_URL": "postgres://cards:secret@db.internal:5432/cards"}
    values = settings_under({**server, "TABLE_THREADS": "3"})
    assert values["table_threads"] == 3 and values["db_pool"]["max_size"] >= 5


def test_production_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "SECRET_KEY"}
    result = run_python(env, "-c", PRINT_SETTINGS)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


@pytest.mark.parametrize(
    "extra",
    [
        {},
        {
            "DATABASE_URL": "postgres://cards:secret@db:5432/cards",
            "REDIS_URL": "redis://redis:6379/0",
        },
    ],
    ids=["defaults", "postgres-and-redis"],
)
def test_check_deploy_is_clean_in_production(extra):
    result = run_python(
        {**PRODUCTION_ENV, **extra}, "manage.py", "check", "--deploy", "--fail-level", "WARNING"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_pages_forbid_inline_and_foreign_scripts(client):
    policy = client.get("/").headers["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert "unsafe" not in directives["script-src"] and "unsafe" not in directives["style-src"]
    assert directives["connect-src"] == "'self'"  # the websocket is same-origin
    assert directives["frame-ancestors"] == "'none'"
