"""``verify --dot`` and ``verify --html``: the blueprint graph, driven in real Chromium."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pla_proof.cli import main

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def test_dot_on_stdout_names_every_node_and_edge(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--dot"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("digraph blueprint {") and out.rstrip().endswith("}")
    assert '"L2" -> "L3";' in out and '"L3" -> "T";' in out
    assert '"T" [label="T\\nconvergence bound"' in out
    assert "peripheries=2" in out  # run-time checks have a double border


def test_dot_to_a_file_and_a_bad_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "b.dot"
    assert main(["verify", "--brief", "--dot", str(path)]) == 0
    assert path.read_text().startswith("digraph")
    assert main(["verify", "--dot", str(tmp_path / "no" / "b.dot")]) == 2
    assert "cannot write" in capsys.readouterr().err


@pytest.fixture(scope="module")
def page_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("html") / "blueprint.html"
    assert main(["verify", "--brief", "--html", str(path)]) == 0
    return path


def test_page_is_self_contained(page_file: Path) -> None:
    text = page_file.read_text()
    for needle in ("http://", "https://", "<link", "src="):
        assert needle not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_page_in_chromium(page_file: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="the [html] extra (playwright)")
    if not Path(CHROMIUM).exists():
        pytest.skip("chromium is not installed (Debian package 'chromium'; .ci/system-packages)")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        page.goto(page_file.as_uri())
        assert page.locator(".node").count() >= 20
        assert page.locator('.node[data-id="L4"]').get_attribute("data-status") in ("z3", "sympy")
        page.click('.node[data-id="T"]')
        assert page.inner_text("#p-id").startswith("T: convergence bound")
        assert "k·g² ≤ R²·‖u‖²" in page.inner_text("#p-statement")
        assert "T.seed" in page.inner_text("#p-obligations")
        page.click("#focus")
        dim = set(page.eval_on_selector_all(".node.dim", "es => es.map(e => e.dataset.id)"))
        kept = set(page.eval_on_selector_all(".node:not(.dim)", "es => es.map(e => e.dataset.id)"))
        assert {"T", "L3", "L2", "L1", "L4", "L7", "A1"} <= kept
        assert {"DUAL", "RATE", "BIAS3", "SEP"} <= dim
        page.click("#all")
        assert page.locator(".node.dim").count() == 0
        browser.close()
    assert requests == [page_file.as_uri()], requests
