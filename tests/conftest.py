"""Fixtures shared by the tests: headless Chromium for the pages."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

#: Debian's chromium (``.ci/apt-packages.txt``); Playwright never downloads a browser here
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium (Playwright's sync API) for one test module (a second sync
    Playwright cannot start while one runs, so it is closed at the end of the module)."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(
            "no Chromium on this machine and none can be installed here (bash .ci/system-packages "
            "installs Debian's chromium as root; Playwright never downloads a browser)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
