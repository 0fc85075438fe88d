"""The lecture page, driven in headless Chromium as a student would use it.

Every number the page shows is compared with ``pla-proof trace --json``: w_{k+1} and
each lemma's two sides and slack at every update, stepping with the buttons, the
slider and Play; a point added by clicking (or typing) reruns the algorithm and the
checks, and the rerun is compared with the Python engine on the same data.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from playwright.sync_api import Browser, Page

from pla_proof.cli import main
from pla_proof.data import Dataset, load
from pla_proof.proof.statements import RUNTIME_LEMMAS
from pla_proof.render.page import render_page
from pla_proof.tracing import instantiate
from pla_proof.trainer import train


def _open(browser: Browser, path: Path) -> tuple[Page, list[str]]:
    page = browser.new_page(viewport={"width": 1300, "height": 1200})
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    page.wait_for_selector("#pla-app[data-status]")
    assert errors == []
    return page, requests


def _write_page(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> Path:
    target = tmp_path / "page.html"
    assert main(["explain", *argv, "--html", str(target)]) == 0
    capsys.readouterr()
    return target


def _trace(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    code = main(["trace", *argv, "--json"])
    out = capsys.readouterr().out
    assert code == 0
    obj: dict[str, Any] = _exact_strings(json.loads(out))
    return obj


def _exact_strings(v: Any) -> Any:
    """The JSON with every number ``{"exact": "p/q", "float": x}`` as its exact string."""
    if isinstance(v, dict):
        return (
            v["exact"]
            if set(v) == {"exact", "float"}
            else {k: _exact_strings(x) for k, x in v.items()}
        )
    if isinstance(v, list):
        return [_exact_strings(x) for x in v]
    return v


def _shown(page: Page) -> dict[str, Any]:
    """What the page shows now: k, w_{k+1} and every lemma row (exact values and text)."""
    shown: dict[str, Any] = page.evaluate(
        """() => {
        const root = document.getElementById('pla-app');
        const rows = [...root.querySelectorAll('tr[data-lemma]')].map((tr) => ({
            lemma: tr.dataset.lemma, lhs: tr.dataset.lhs, rhs: tr.dataset.rhs,
            slack: tr.dataset.slack, op: tr.dataset.op, holds: tr.dataset.holds === 'yes',
            cells: [...tr.querySelectorAll('td.pla-num')].map((td) => td.textContent),
            statement: tr.querySelector('td.pla-stmt math') !== null,
        }));
        return {k: Number(root.dataset.k), w: root.querySelector('[data-w]').dataset.w.split(','),
                rows, status: root.dataset.status, updates: Number(root.dataset.updates),
                allHold: root.dataset.allHold, choices: root.dataset.choices,
                agrees: root.querySelector('.pla-agree').dataset.agrees};
    }"""
    )
    return shown


def _same_as(shown: dict[str, Any], step: dict[str, Any]) -> None:
    assert shown["w"] == step["w"]
    assert [r["lemma"] for r in shown["rows"]] == [c["lemma"] for c in step["checks"]]
    for row, check in zip(shown["rows"], step["checks"], strict=True):
        assert (row["lhs"], row["op"], row["rhs"]) == (check["lhs"], check["op"], check["rhs"])
        assert row["slack"] == check["slack"] and row["holds"] == check["holds"]
        assert row["statement"]  # the statement is shown as MathML
        for cell, value in zip(row["cells"], (row["lhs"], row["rhs"], row["slack"]), strict=True):
            assert cell.split(" (≈")[0].lstrip("≈ ") == value or cell.startswith("≈")


CASES = [
    ["demo2d"],
    ["students"],
    ["orthonormal:3"],
    ["demo2d", "--rule", "random", "--seed", "7"],
    ["maxviol:1/5", "--rule", "maxviol"],
    ["demo2d", "--strict"],
    ["xor-x1x2", "--rule", "first"],
]


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(c) for c in CASES])
def test_stepping_through_agrees_with_trace_json(
    browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    page, _ = _open(browser, _write_page(tmp_path, capsys, argv))
    trace = _trace(capsys, argv)
    shown = _shown(page)
    assert shown["agrees"] == "yes" and shown["status"] == "converged"
    assert shown["updates"] == trace["updates"] == len(trace["steps"])
    assert shown["choices"] == ",".join(str(j) for j in trace["choices"])
    page.click("button[data-action=first]")
    shown = _shown(page)
    assert shown["k"] == 0 and all(Fraction(v) == 0 for v in shown["w"]) and shown["rows"] == []
    for step in trace["steps"]:
        page.click("button[data-action=next]")
        shown = _shown(page)
        assert shown["k"] == step["k"]
        _same_as(shown, step)
    assert page.is_disabled("button[data-action=next]")
    assert shown["allHold"] == "yes"


def test_a_non_separable_run_cycles_with_its_certificate(
    browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "xor.html"
    assert main(["explain", "xor", "--html", str(target)]) == 3
    capsys.readouterr()
    page, _ = _open(browser, target)
    run = train(load("xor"))
    shown = _shown(page)
    assert shown["status"] == run.status == "not_separable" and shown["agrees"] == "yes"
    assert shown["updates"] == run.updates and shown["rows"] == []
    assert run.certificate is not None
    cert = page.get_attribute("#pla-app", "data-certificate")
    assert cert == ",".join(str(a) for a in run.certificate.alpha)
    assert "Σ_i α_i y_i x_i = 0" in page.inner_text(".pla-status")


def test_slider_prev_and_play(
    browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page, _ = _open(browser, _write_page(tmp_path, capsys, ["demo2d"]))
    trace = _trace(capsys, ["demo2d"])
    page.locator(".pla-slider").fill("3")
    _same_as(_shown(page), trace["steps"][2])
    assert page.get_attribute("svg[data-kind=sandwich] .pla-marker", "data-k") == "3"
    page.click("button[data-action=prev]")
    assert _shown(page)["k"] == 2
    page.click("button[data-action=first]")
    page.select_option(".pla-speed", label="fast")
    page.click("button[data-action=play]")
    assert page.inner_text("button[data-action=play]").endswith("Pause")
    # (the page's Content-Security-Policy forbids eval: wait on selectors, not functions)
    page.wait_for_selector(f"#pla-app[data-k='{trace['updates']}']", timeout=30_000)
    page.wait_for_selector("button[data-action=play]:has-text('Play')")
    _same_as(_shown(page), trace["steps"][-1])


def _data_point(page: Page, x: float, y: float) -> tuple[float, float]:
    """The page pixel where the plane plot draws the data point (x, y), from two drawn points."""
    marks = page.evaluate(
        """() => [...document.querySelectorAll('svg[data-kind=plane] [data-i]')].map((e) => {
            const b = e.getBoundingClientRect();
            return [Number(e.dataset.i), b.x + b.width / 2, b.y + b.height / 2];
        })"""
    )
    data = load("demo2d").without_bias()
    (i1, px1, py1), (i2, px2, py2) = marks[0], marks[1]
    (x1, y1), (x2, y2) = (tuple(float(v) for v in data.X[i - 1]) for i in (i1, i2))
    sx, sy = (px2 - px1) / (x2 - x1), (py2 - py1) / (y2 - y1)
    return px1 + (x - x1) * sx, py1 + (y - y1) * sy


def _page_data(page: Page, bias: str | None) -> Dataset:
    """The data the page now holds, read from its CSV download link."""
    href = page.get_attribute(".pla-csv", "href") or ""
    text = unquote(href.split(",", 1)[1])
    rows = [line.split(",") for line in text.strip().splitlines()[1:]]
    from pla_proof.data import from_arrays

    return from_arrays([r[:-1] for r in rows], [int(r[-1]) for r in rows], bias=bias)


def _rerun_matches(page: Page, data: Dataset, rule: str = "cyclic") -> None:
    run = train(data, rule=rule, comparator="final")
    shown = _shown(page)
    assert shown["status"] == run.status and shown["updates"] == run.updates
    assert shown["choices"] == ",".join(str(j + 1) for j in run.choices)
    if run.status != "converged":
        return
    assert page.get_attribute(".pla-constants", "data-bound") == str(run.comparator.bound)  # type: ignore[union-attr]
    page.click("button[data-action=first]")
    for i, s in enumerate(run.steps):
        page.click("button[data-action=next]")
        checks = [
            {key: str(v) if isinstance(v, Fraction) else v for key, v in c.items()}
            for c in (instantiate(lem, s.values, False).to_json() for lem in RUNTIME_LEMMAS)
        ]
        _same_as(_shown(page), {"w": [str(v) for v in run.w_after(i + 1)], "checks": checks})


def test_clicking_adds_a_point_and_reruns(
    browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page, _ = _open(browser, _write_page(tmp_path, capsys, ["demo2d"]))
    before = _shown(page)["updates"]
    # a -1 point inside the margin band: the label button switches to -1
    page.click("button[data-action=label]")
    assert page.get_attribute("button[data-action=label]", "data-label") == "-1"
    page.mouse.click(*_data_point(page, 2.0, 1.8))
    page.wait_for_selector("#pla-app[data-points='12']")
    data = _page_data(page, "minus-one")
    assert data.n == 12 and data.y[-1] == -1
    assert [float(v) for v in data.without_bias().X[-1]] == pytest.approx([2.0, 1.8], abs=0.051)
    shown = _shown(page)
    assert shown["agrees"] == "" and shown["updates"] != before
    _rerun_matches(page, data)
    # shift-click puts the other label (+1) on top of an existing -1 point: not separable
    page.keyboard.down("Shift")
    page.mouse.click(*_data_point(page, 1.0, 0.0))
    page.keyboard.up("Shift")
    page.wait_for_selector("#pla-app[data-points='13']")
    data = _page_data(page, "minus-one")
    assert data.y[-1] == 1 and [float(v) for v in data.without_bias().X[-1]] == [1.0, 0.0]
    assert _shown(page)["status"] == "not_separable"
    assert "NOT separable" in page.inner_text(".pla-status")
    _rerun_matches(page, data)
    page.click("button[data-action=reset]")
    assert _shown(page)["agrees"] == "yes"


def test_typing_a_point_in_five_coordinates(
    browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page, _ = _open(browser, _write_page(tmp_path, capsys, ["students"]))
    assert page.locator("svg[data-kind=margins] rect[data-margin]").count() == 3
    page.fill(".pla-coords", "1, 2")
    page.click("button[data-action=add]")
    assert "need 5 coordinates, got 2" in page.inner_text(".pla-note")
    assert _shown(page)["agrees"] == "yes"
    page.click("button[data-action=label]")
    page.fill(".pla-coords", "10, 9.5, 12, 1/2, 0")
    page.click("button[data-action=add]")
    page.wait_for_selector("#pla-app[data-points='4']")
    data = _page_data(page, "augment")
    assert data.without_bias().X[-1] == tuple(Fraction(v) for v in ("10", "19/2", "12", "1/2", "0"))
    _rerun_matches(page, data)


def test_the_page_loads_nothing_from_outside(
    browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write_page(tmp_path, capsys, ["demo2d"])
    html = path.read_text(encoding="utf-8")
    assert "default-src 'none'" in html
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    page, requests = _open(browser, path)
    page.route(re.compile(r"^(?!file:).*"), lambda route: route.abort())
    page.click("button[data-action=play]")
    page.mouse.click(*_data_point(page, 3.0, 1.0))
    page.wait_for_selector("#pla-app[data-points='12']")
    page.hover("svg[data-kind=plane] [data-i='1']")
    assert requests == [path.as_uri()]
    fonts = page.evaluate("document.fonts.size")
    assert fonts == 0  # no web font either


def test_the_notebook_shows_the_same_stepper(browser: Browser) -> None:
    data = load("orthonormal:3")
    run = train(data, comparator=[1, -1, 1])
    page = browser.new_page()
    page.set_content(run._repr_html_())
    frame = page.frame_locator("iframe")
    frame.locator("#pla-app[data-status=converged]").wait_for()
    assert frame.locator(".pla-agree").get_attribute("data-agrees") == "yes"
    frame.locator("button[data-action=first]").click()
    frame.locator("button[data-action=next]").click()
    row = frame.locator("tr[data-lemma=L3]")
    assert (row.get_attribute("data-lhs"), row.get_attribute("data-rhs")) == ("1", "1")


def test_in_page_permutations_are_the_engines(
    browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pla_proof.engine.orders import permutation

    page, _ = _open(browser, _write_page(tmp_path, capsys, ["orthonormal:2"]))
    for n, seed, epoch in [
        (1, 0, 0),
        (5, 1, 0),
        (5, 1, 1),
        (11, 7, 3),
        (40, 2**40 + 3, 2),
        (9, -5, 0),
    ]:
        js = page.evaluate("([n, s, e]) => PlaProof.permutation(n, s, e)", [n, str(seed), epoch])
        assert js == permutation(n, seed=seed, epoch=epoch), (n, seed, epoch)


def test_in_page_engine_matches_python_on_random_orders(
    browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page, _ = _open(browser, _write_page(tmp_path, capsys, ["orthonormal:2"]))
    for name in ("demo2d", "orthonormal:7", "maxviol:1/4", "xor"):
        data = load(name)
        X = [[str(v) for v in x] for x in data.X]
        for rule, seeds in (
            ("random", [0, 1, 5, 123, 2**40 + 3]),
            ("maxviol", [0]),
            ("first", [0]),
        ):
            for seed in seeds:
                js = page.evaluate(
                    "([X, y, rule, seed]) => { const Q = PlaProof.Q;"
                    " const r = PlaProof.train(X.map((x) => x.map(Q.of)), y, {rule, seed});"
                    " return [r.status, r.choices]; }",
                    [X, list(data.y), rule, seed],
                )
                run = train(data, rule=rule, seed=seed, comparator=None)
                assert js == [run.status, run.choices], (name, rule, seed)


def test_the_page_rejects_what_is_wrong(browser: Browser, tmp_path: Path) -> None:
    data = load("demo2d")
    run = train(data, comparator=load_optimal(data))
    html = render_page(data, run)
    # (a) a recorded run that is not this one: the page says so
    wrong = html.replace('"choices":[0,1,3,', '"choices":[1,0,3,', 1)
    assert wrong != html
    path = tmp_path / "wrong-run.html"
    path.write_text(wrong, encoding="utf-8")
    page, _ = _open(browser, path)
    assert _shown(page)["agrees"] == "no"
    assert "differs" in page.inner_text(".pla-agree")
    # (b) a false statement (L7 with right side 0): its row and the status say FAILS
    payload = json.loads(html.split("data-pla-payload='pla-app'>", 1)[1].split("</script>")[0])
    for lem in payload["lemmas"]:
        if lem["id"] == "L7":
            lem["rhs"] = {"q": "0"}
    body = json.dumps(payload).replace("<", "\\u003c")
    start, end = html.index("data-pla-payload='pla-app'>"), html.index("</script>")
    bad = html[: start + len("data-pla-payload='pla-app'>")] + body + html[end:]
    path = tmp_path / "false-lemma.html"
    path.write_text(bad, encoding="utf-8")
    page, _ = _open(browser, path)
    shown = _shown(page)
    assert shown["allHold"] == "no" and "a lemma FAILED" in page.inner_text(".pla-status")
    assert [r["holds"] for r in shown["rows"] if r["lemma"] == "L7"] == [False]
    assert "FAILS" in page.inner_text("tr[data-lemma=L7]")


def load_optimal(data: Dataset) -> Any:
    from pla_proof.geometry import optimal_comparator

    return optimal_comparator(data)


# --- the page's content, without a browser ------------------------------------------------


def _evaluate(tree: dict[str, Any], values: dict[str, Any]) -> Fraction:
    if "s" in tree:
        return Fraction(values[tree["s"]])
    if "q" in tree:
        return Fraction(tree["q"])
    if "+" in tree:
        return sum((_evaluate(t, values) for t in tree["+"]), Fraction(0))
    if "*" in tree:
        out = Fraction(1)
        for t in tree["*"]:
            out *= _evaluate(t, values)
        return out
    base, exp = tree["^"]
    power: Fraction = _evaluate(base, values) ** int(exp)
    return power


@pytest.mark.parametrize("strict", [False, True])
def test_the_statement_trees_are_the_lemmas_own(strict: bool) -> None:
    from pla_proof.render.page import payload

    data = load("demo2d")
    run = train(data, comparator=load_optimal(data) if not strict else None, strict=strict)
    if strict:
        run = train(data, comparator="final", strict=True)
    p = payload(data, run)
    assert run.comparator is not None and p["run"]["strict"] is strict
    for step in run.steps:
        for lem, tree in zip(RUNTIME_LEMMAS, p["lemmas"], strict=True):
            lhs_fn, op, rhs_fn = lem.evaluator(strict=strict)
            lhs = lhs_fn(**{n: step.values[n] for n in lhs_fn.__pla_args__})  # type: ignore[attr-defined]
            rhs = rhs_fn(**{n: step.values[n] for n in rhs_fn.__pla_args__})  # type: ignore[attr-defined]
            assert tree["op"] == op
            assert _evaluate(tree["lhs"], step.values) == lhs
            assert _evaluate(tree["rhs"], step.values) == rhs


def test_the_page_refuses_what_it_cannot_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    from pla_proof.errors import InputError
    from pla_proof.render import page as page_module

    data = load("demo2d")
    run = train(data, comparator=None)
    work = data.n * (run.updates + 1)
    monkeypatch.setattr(page_module, "MAX_WORK", work)
    page_module.payload(data, run)  # at the limit: accepted
    monkeypatch.setattr(page_module, "MAX_WORK", work - 1)
    with pytest.raises(InputError, match="lecture-sized runs: 11 points x 20 updates"):
        page_module.payload(data, run)
    with pytest.raises(InputError, match="exact runs only"):
        page_module.payload(data, train(data, mode="float"))


def test_a_hostile_name_stays_text() -> None:
    from pla_proof.data import from_arrays

    data = from_arrays([[1, 2], [-1, 1]], [1, -1], name="</script><script>alert(1)</script>")
    html = render_page(data, train(data))
    assert html.count("</script>") == 2 and "<script>alert" not in html
