"""A third game plugs in through the registry alone.

Nim (``tests/toygame``: an engine, a ``GameKind``, a board template and a rules page) is added
to the site by one more entry of ``INSTALLED_APPS`` (``tests.toygame.settings``); its checks
(``tests/toygame/check_nim.py``) run in a pytest of their own under those settings. That Nim
is then on the home page and plays shows that nothing under ``cardgames/`` or ``templates/``
names the games.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_third_game_is_offered_and_played_with_no_edit_to_the_platform():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests/toygame/check_nim.py",
            "--ds=tests.toygame.settings",
            "-p",
            "no:cacheprovider",
            "-q",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 passed" in result.stdout
