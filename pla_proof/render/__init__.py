"""Rendering a run record: figures, the lecture page, hand-outs.

Commands choose what to render; the modules here draw (``figures``, matplotlib behind
the ``plot`` extra) and write pages (``page``: one self-contained HTML file).
"""
