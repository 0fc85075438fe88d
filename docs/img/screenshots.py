"""Remake the pictures of docs/teaching.md: the figures by `pla-proof plot`, the lecture
page by headless Chromium (Debian's chromium; run from the repository root):

    python docs/img/screenshots.py
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).parent
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]  # fmt: skip


def plot(data: str, kind: str, name: str, *extra: str) -> None:
    subprocess.run(
        ["pla-proof", "plot", data, "--kind", kind, "-o", str(HERE / name), *extra], check=True
    )


def page(data: str, name: str, k: int, *, add: tuple[float, float] | None = None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        html = Path(tmp) / "page.html"
        subprocess.run(["pla-proof", "explain", data, "--html", str(html)], check=True)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            tab = browser.new_page(viewport={"width": 1300, "height": 900})
            tab.goto(html.as_uri())
            tab.wait_for_selector("#pla-app[data-status]")
            tab.locator(".pla-slider").fill(str(k))
            tab.screenshot(path=str(HERE / name), full_page=True)
            browser.close()


if __name__ == "__main__":
    plot("demo2d", "hyperplane", "hyperplane-demo2d.png")
    plot("demo2d", "sandwich", "sandwich-demo2d.png")
    plot("orthonormal:3", "sandwich", "sandwich-orthonormal3.png")
    plot("demo2d", "geometry", "geometry-demo2d.png")
    plot("demo2d", "margin-sweep", "margin-sweep-demo2d.png")
    plot("demo2d", "orders", "orders-demo2d.png")
    page("demo2d", "page-demo2d.png", 5)
    page("students", "page-students.png", 2)
