"""One self-contained HTML page: inline CSS, JavaScript and data, nothing loaded from the
network (a Content-Security-Policy forbids it).  The lecture page and the diagnosis page
are both made here.

>>> page = document("A & B", "body {}", "1;", "<div id='x'></div>", "<noscript>-</noscript>",
...                 '<script type="application/json">{}</script>')
>>> page.count("<script"), "A &amp; B" in page, "default-src 'none'" in page
(2, True, True)
"""

from __future__ import annotations

import html
import json
from importlib import resources
from typing import Any

__all__ = ["CSP", "asset", "document", "json_script_text"]

CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; form-action 'none'"
)


def asset(name: str) -> str:
    """A file of ``pla_proof/render/assets`` (CSS or JavaScript), as text."""
    return resources.files("pla_proof.render").joinpath("assets", name).read_text(encoding="utf-8")


def json_script_text(obj: Any) -> str:
    """``obj`` as JSON safe inside a ``<script>`` element (no "</script>" or "<!--")."""
    return json.dumps(obj, separators=(",", ":")).replace("<", "\\u003c")


def document(title: str, css: str, js: str, body: str, noscript: str, data: str) -> str:
    """The page: ``title`` (escaped here), the stylesheet ``css``, the ``body`` markup,
    the ``noscript`` line, the ``data`` script element and the script ``js``."""
    return (
        "<!DOCTYPE html>\n<html lang='en'>\n<head>\n<meta charset='utf-8'>\n"
        f"<meta http-equiv='Content-Security-Policy' content=\"{CSP}\">\n"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>\n"
        f"<title>{html.escape(title)}</title>\n<style>\n{css}</style>\n</head>\n<body>\n"
        f"{body}\n{noscript}\n{data}\n<script>\n{js}</script>\n</body>\n</html>\n"
    )
