"""The site's connections to the real PostgreSQL of this machine are set up as the settings say."""

import subprocess
import sys

from .conftest import POSTGRES, ROOT, check_services, worker_env

SHOW = """
import django
django.setup()
from django.db import connection
with connection.cursor() as cursor:
    cursor.execute("SHOW synchronous_commit")
    print(cursor.fetchone()[0])
"""


def synchronous_commit(**env: str) -> str:
    """What a worker's database session says of ``synchronous_commit``."""
    full_env = {**worker_env(f"{POSTGRES}/postgres", ""), **env}
    result = subprocess.run(
        [sys.executable, "-c", SHOW], cwd=ROOT, env=full_env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split()[-1]


def test_a_move_s_commit_does_not_wait_for_the_disk_unless_the_operator_asks() -> None:
    check_services()
    assert synchronous_commit() == "off"
    assert synchronous_commit(DATABASE_DURABLE_COMMITS="1") == "on"
