"""The diagnosis page (``pla-proof check ... --html FILE``), driven in headless Chromium:
no error in the console, nothing loaded from the network, the points and both
separators drawn, the stepper moving both trajectories, the divergence's words and the
broken inequality shown, readable at 1,100 pixels."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from pla_proof.cli import main
from pla_proof.render.diagnosis import render_diagnosis_page
from pla_proof.variants.catalog.bugs import BUGS
from pla_proof.variants.checking import Counterexample, run_case
from pla_proof.variants.diagnosis import diagnose
from pla_proof.variants.protocol.variant import Case, Order

FIT = Path(__file__).parent / "compat" / "fit"


def _open(browser: Browser, path: Path, width: int = 1100) -> tuple[Page, list[str], list[str]]:
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors: list[str] = []
    requests: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri())
    page.wait_for_selector("#pla-diagnosis[data-status=ready]")
    return page, errors, requests


def _stepper(page: Page, index: int = 0) -> dict[str, Any]:
    shown: dict[str, Any] = page.evaluate(
        """(i) => {
        const sec = document.querySelectorAll('section.pla-diagnosis')[i];
        const line = (n) => sec.querySelector(`line[data-line=${n}]`);
        const ends = (l) => [l.getAttribute('x1'), l.getAttribute('y1'),
                             l.getAttribute('x2'), l.getAttribute('y2'),
                             l.getAttribute('visibility')];
        const side = (n) => ends(sec.querySelector(`line[data-side=${n}]`));
        return {
          k: Number(document.getElementById('pla-diagnosis').dataset['k' + i]),
          impl: sec.querySelector('td[data-w=implementation]').textContent,
          ref: sec.querySelector('td[data-w=algorithm]').textContent,
          implLine: ends(line('implementation')), refLine: ends(line('algorithm')),
          implSide: side('implementation'), refSide: side('algorithm'),
          points: sec.querySelectorAll('circle[data-point]').length,
          status: sec.querySelector('.pla-status').textContent,
        };
    }""",
        index,
    )
    return shown


def test_the_page_of_a_failing_fit_shows_where_it_leaves_the_algorithm(
    browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "diagnosis.html"
    args = ["check", "--fit", str(FIT / "fit_broken_sign.py:ListPerceptronWrongSign")]
    args += ["--examples", "20", "--jobs", "1", "--out", str(tmp_path / "ce")]
    assert main([*args, "--html", str(target)]) == 1
    capsys.readouterr()
    page, errors, requests = _open(browser, target)
    assert errors == []
    assert all(r.startswith("file:") for r in requests)
    sec = page.locator("section.pla-diagnosis").first
    assert sec.get_attribute("data-mechanism") == "sign-reversed"
    assert "the update's sign is reversed" in sec.locator(".pla-words").inner_text()
    assert "G2 breaks at update 1" in sec.locator(".pla-lemma").inner_text()
    at_divergence = _stepper(page)
    assert at_divergence["k"] == 1 and "the divergence" in at_divergence["status"]
    assert at_divergence["points"] == 2
    assert at_divergence["impl"] != at_divergence["ref"]  # (2, 1) against (-2, -1)
    # the same threshold, x = -1/2, but opposite sides called positive
    assert at_divergence["implLine"] == at_divergence["refLine"]
    assert at_divergence["implSide"] != at_divergence["refSide"]
    # the implementation's (2, 1) calls x > -1/2 positive, the algorithm's (-2, -1) x < -1/2
    assert float(at_divergence["implSide"][2]) > float(at_divergence["implSide"][0])
    assert float(at_divergence["refSide"][2]) < float(at_divergence["refSide"][0])
    sec.locator("button[data-step=first]").click()
    start = _stepper(page)
    assert start["k"] == 0 and start["impl"] == start["ref"] == "(0, 0)"
    sec.locator("button[data-step=next]").click()
    assert _stepper(page)["k"] == 1
    sec.locator("button[data-step=end]").click()
    end = _stepper(page)
    assert end["k"] > 1
    # readable at 1,100 px: nothing wider than the window
    assert page.evaluate("document.documentElement.scrollWidth") <= 1100
    assert errors == []


def test_a_fit_seen_one_budget_at_a_time_steps_by_budget(
    browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A numba class, refitted with 0, 1, 2, ... passes: the stepper steps by budget,
    the algorithm beside it one pass at a time, and "the divergence" is the budget where
    they part (its bias frozen: both at (3, 0) after three passes, then apart)."""
    pytest.importorskip("numba")
    target = tmp_path / "budgets.html"
    args = ["check", "--fit", str(FIT / "fit_broken_unwatched.py:NumbaFrozenBias")]
    args += ["--examples", "20", "--jobs", "1", "--out", str(tmp_path / "ce")]
    assert main([*args, "--html", str(target)]) == 1
    capsys.readouterr()
    page, errors, _ = _open(browser, target)
    sec = page.locator("section.pla-diagnosis").first
    assert sec.get_attribute("data-mechanism") == "bias-frozen"
    assert "fits with n_passes = 0, 1, ..." in sec.inner_text()
    at = _stepper(page)
    assert "the divergence" in at["status"] and at["impl"] != at["ref"]
    sec.locator("button[data-step=prev]").click()
    before = _stepper(page)
    assert before["k"] == at["k"] - 1 and before["impl"] == before["ref"]
    assert errors == []


def _page_of(bug: str, X: Any, y: Any, u: Any, gamma: Any, tmp_path: Path) -> Path:
    v = BUGS[bug].variant()
    case = Case(
        tuple(tuple(F(a) for a in x) for x in X), tuple(y), tuple(F(a) for a in u), F(gamma)
    )
    rec, res = run_case(v, case, Order("cyclic"))
    failure = next(f for f in res.values() if f is not None)
    d = diagnose(v, Counterexample(case, Order("cyclic"), rec, failure))
    path = tmp_path / f"{bug}.html"
    path.write_text(render_diagnosis_page(f"bug:{bug}", [d.to_json()]), encoding="utf-8")
    return path


def test_two_and_three_dimensional_points_are_drawn_with_both_separators(
    browser: Browser, tmp_path: Path
) -> None:
    # 2-D: an update on a point classified correctly (the margin threshold)
    two = _page_of(
        "margin-threshold", [(1, 0), (0, 1), (10**6, 0)], [1, -1, 1], (1, -1), 1, tmp_path
    )
    page, errors, _ = _open(browser, two)
    shown = _stepper(page)
    assert shown["points"] == 3 and shown["implLine"][4] == "visible"
    assert page.locator("section.pla-diagnosis").first.get_attribute("data-mechanism") == (
        "update-on-correct"
    )
    # 5-D: projected on its first two coordinates, and said so
    five = _page_of(
        "epochs-as-visits",
        [(56, 0, 133, -81, 31), (31, 0, 74, -45, 17), (62, 0, 148, -90, 34), (2, 0, 5, -3, 1)],
        [-1, -1, -1, 1],
        (-643, 0, 573, 30, -1256),
        233,
        tmp_path,
    )
    page5, errors5, _ = _open(browser, five)
    assert "the first two of 5 coordinates" in page5.locator("svg").first.inner_html()
    assert errors == errors5 == []


def test_a_page_with_nothing_to_diagnose_says_so(browser: Browser, tmp_path: Path) -> None:
    path = tmp_path / "empty.html"
    path.write_text(render_diagnosis_page("classic", []), encoding="utf-8")
    page, errors, _ = _open(browser, path)
    assert "nothing to diagnose" in page.inner_text("#pla-diagnosis")
    assert errors == []


def test_html_is_refused_where_it_cannot_apply(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "classic", "--replay", "x.json", "--html", "p.html"]) == 2
    assert "--html" in capsys.readouterr().err
    assert main(["check", "classic", "--html", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err
