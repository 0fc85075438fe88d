"""How long the teaching outputs take, side by side with the text explanation.

    python benchmarks/bench_teaching.py

1. Whole commands (fresh processes, imports included), median of 5 runs each:
   ``explain demo2d`` (text) beside ``--html``, ``--figures`` and one ``plot`` per kind.
2. The lecture page's in-browser engine (headless Chromium, Debian's chromium): the
   time to recompute a run and every lemma at every update, beside the Python engine
   (monitored ``train``) on the same data, for growing numbers of point-updates n·(k+1);
   the page refuses runs beyond ``MAX_WORK`` point-updates.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pla_proof.data import from_arrays
from pla_proof.geometry import optimal_comparator
from pla_proof.render.page import MAX_WORK, render_page
from pla_proof.trainer import train

ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]  # fmt: skip


def wall(cmd: list[str], runs: int = 5) -> float:
    times = []
    for _ in range(runs + 1):
        t = time.perf_counter()
        subprocess.run(cmd, check=False, capture_output=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times[1:])


def commands() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        exe = [sys.executable, "-m", "pla_proof"]
        base = wall([*exe, "explain", "demo2d"])
        print(f"explain demo2d (text)                 {base:7.2f} s   1.00")
        rows = [
            ("explain demo2d --html", ["explain", "demo2d", "--html", f"{tmp}/p.html"]),
            ("explain demo2d --figures (5 PNG)", ["explain", "demo2d", "--figures", f"{tmp}/f"]),
        ]
        rows += [
            (f"plot demo2d --kind {k}", ["plot", "demo2d", "--kind", k, "-o", f"{tmp}/{k}.png"])
            for k in ("hyperplane", "sandwich", "geometry", "margin-sweep", "orders")
        ]
        for name, argv in rows:
            t = wall([*exe, *argv])
            print(f"{name:<37} {t:7.2f} s {t / base:6.2f}")
        size = Path(f"{tmp}/p.html").stat().st_size
        print(f"page size (demo2d): {size / 1024:.1f} KiB")


def in_browser() -> None:
    from playwright.sync_api import sync_playwright

    rng = random.Random(4)
    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page()
        print("\nn      updates  point-updates  page rerun s  python s  ratio")
        for n, gap in ((20, 0.3), (200, 0.05), (1000, 0.02), (2000, 0.01)):
            # 2-D points with a thin margin around the line x + 2y = 1/2, with a bias
            X: list[list[str]] = []
            y: list[int] = []
            while len(X) < n:
                a, b = rng.randint(-1000, 1000) / 100, rng.randint(-1000, 1000) / 100
                s = a + 2 * b - 0.5
                if abs(s) > gap:
                    X.append([str(a), str(b)])
                    y.append(1 if s > 0 else -1)
            data = from_arrays(X, y, name=f"random{n}", bias="augment")
            comp = optimal_comparator(data)
            t = time.perf_counter()
            run = train(data, comparator=comp)
            py = time.perf_counter() - t
            work = n * (run.updates + 1)
            if work > MAX_WORK:
                print(f"{n:<6} {run.updates:>7} {work:>14,}  (beyond MAX_WORK = {MAX_WORK:,})")
                continue
            path = Path(tmp) / f"p{n}.html"
            path.write_text(render_page(data, run), encoding="utf-8")
            page.goto(path.as_uri())
            page.wait_for_selector("#pla-app[data-status]")
            js = page.evaluate(
                """() => { const r = document.getElementById('pla-app').plaPage;
                const t0 = performance.now(); for (let i = 0; i < 3; i++) r.rerun();
                return (performance.now() - t0) / 3000; }"""
            )
            print(f"{n:<6} {run.updates:>7} {work:>14,} {js:12.3f} {py:9.3f} {js / py:6.1f}")
        browser.close()


if __name__ == "__main__":
    commands()
    in_browser()
