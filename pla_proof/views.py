"""How a run shows itself in a notebook: the view the package sets.

A :class:`~pla_proof.trainer.Run` in a notebook shows the lecture page's stepper.  The
page belongs to the rendering layer, above the trainer, so the trainer asks this
module for the view instead of importing it; the package (``pla_proof/__init__.py``)
sets it when it is imported -- before any run exists -- to
:func:`pla_proof.render.page.notebook_html`, imported when a run is first shown.

>>> set_notebook_view(lambda run: f"<p>{run}</p>")
>>> notebook_html("a run")
'<p>a run</p>'
>>> import pla_proof  # sets the package's view again
>>> set_notebook_view(pla_proof._run_page)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["notebook_html", "set_notebook_view"]

_VIEW: list[Callable[[Any], str]] = []


def set_notebook_view(view: Callable[[Any], str]) -> None:
    """Show runs in notebooks with ``view`` (a run -> its HTML)."""
    _VIEW[:] = [view]


def notebook_html(run: Any) -> str:
    """The run's HTML for a notebook, by the view set."""
    if not _VIEW:
        raise LookupError("no notebook view is set (pla_proof sets one when imported)")
    return _VIEW[0](run)
