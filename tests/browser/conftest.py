"""Browser tests: a real Daphne server (HTTP and websockets) and a real headless Chromium.

The server runs in a subprocess on its own SQLite file, so these tests never touch the test
process's database. Playwright's sync API leaves an asyncio loop "running" in the main thread
while it is started, which would break the Django and asyncio tests that follow: the browser is
therefore package-scoped (``tests/browser`` is a package) and closed before the rest run.
"""

import contextlib
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from tools import servers

from .pages import COUNT_MESSAGES

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

# Bots play almost at once, so that a whole game fits in a few seconds.
BOT_DELAY = "0.05"
# The page's playback of the moves between two tables, as fast as it goes (a test hook).
PLAY_AT_ONCE = "window.tablePlaybackPace = 0;"
# How long a page waits for anything (a selector, a swap) before the test fails.
TIMEOUT_MS = 15_000

# Variables that would make the server use another database or channel layer than its own.
SETTINGS_VARIABLES = ("DATABASE_URL", "REDIS_URL", "DEBUG", "BOT_DELAY", "ALLOWED_HOSTS")


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``browser`` mark (``pytest -m "not browser"`` skips these tests)."""
    config.addinivalue_line("markers", "browser: runs in a real Chromium against a real server")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test of this folder ``browser``."""
    folder = Path(__file__).parent
    for item in items:
        if folder in item.path.parents:
            item.add_marker(pytest.mark.browser)


@dataclass(frozen=True)
class Server:
    """The running test server: its base URL, its SQLite file and its log."""

    url: str
    database: Path
    log: Path


def server_env(database: Path) -> dict[str, str]:
    """The environment of the test server: its own SQLite file, fast bots, DEBUG for statics."""
    env = {key: value for key, value in os.environ.items() if key not in SETTINGS_VARIABLES}
    env.update(
        DJANGO_SETTINGS_MODULE="cardgames.settings",
        DATABASE_URL=f"sqlite:///{database}",
        BOT_DELAY=BOT_DELAY,
        DEBUG="1",
        PYTHONUNBUFFERED="1",
        CREATION_LIMITS="0",  # every test's browser comes from 127.0.0.1
    )
    return env


@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A Daphne server of the site and a bot worker on a fresh migrated SQLite database."""
    with running_server(tmp_path_factory) as running:
        yield running


@contextlib.contextmanager
def running_server(tmp_path_factory: pytest.TempPathFactory, **settings: str) -> Iterator[Server]:
    """A Daphne server of the site and a bot worker on a fresh migrated SQLite database, with
    ``settings`` in their environment besides the tests' own."""
    folder = tmp_path_factory.mktemp("browser-server")
    database = folder / "browser.sqlite3"
    env = server_env(database)
    env.update(settings)
    servers.migrate(env)
    port = servers.free_port()
    log = folder / "daphne.log"  # the bot worker's too: an error of either fails the test
    process = servers.start(env, port, log)
    bot_workers = servers.start_bots(env, log)
    try:
        yield Server(f"http://127.0.0.1:{port}", database, log)
    finally:
        for worker in [process, *bot_workers]:
            servers.stop(worker)


@pytest.fixture(autouse=True)
def server_logs_no_error(server: Server) -> Iterator[None]:
    """Fail a test during which the server logged an error, even if the page looked right: a
    failed bot move, for one, is logged and then covered by the Easy bot's move."""
    start = server.log.stat().st_size
    yield
    with server.log.open() as log:
        log.seek(start)
        logged = log.read()
    if "Traceback" in logged or " ERROR " in logged:
        pytest.fail(f"the server logged an error during the test:\n{logged}")


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """A headless Chromium (``/usr/bin/chromium``, or the path in the ``CHROMIUM`` variable)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"Chromium is not installed at {CHROMIUM}: install it "
            "(apt-get install chromium) or set CHROMIUM to its path."
        )
    with sync_playwright() as playwright:
        # Playwright's own browser download cannot be used here: always the system Chromium.
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def new_visitor(browser: Browser, server: Server) -> Iterator[Callable[..., BrowserContext]]:
    """Opens a fresh browser profile (a new visitor, no cookies) on the test server; the keyword
    arguments are Playwright's context options (``viewport`` …). All are closed after the test."""
    contexts: list[BrowserContext] = []

    def open_context(**options) -> BrowserContext:
        options.setdefault("locale", "en-US")
        context = browser.new_context(base_url=server.url, **options)
        context.set_default_timeout(TIMEOUT_MS)
        context.add_init_script(COUNT_MESSAGES)
        # The moves between two tables are played at once (static/js/playback.js): these
        # tests play whole games; tests/browser/test_playback.py plays them at a person's pace.
        context.add_init_script(PLAY_AT_ONCE)
        contexts.append(context)
        return context

    yield open_context
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_visitor: Callable[..., BrowserContext]) -> Page:
    """A tab in a new visitor's browser, desktop-sized."""
    return new_visitor().new_page()
