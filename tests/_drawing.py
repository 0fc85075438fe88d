"""Reading a drawn figure back: the SVG elements by id, and a PNG's pixels.

The figures give each drawn element an id (matplotlib's ``gid``); an SVG file keeps
them, so a test can read what was actually drawn -- in the page's own coordinates
(y grows downwards) -- and check a property of the drawing.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"

Point = tuple[float, float]


def groups(path: Path) -> dict[str, ET.Element]:
    """Every ``<g id=...>`` of an SVG file."""
    root = ET.parse(path).getroot()
    return {g.attrib["id"]: g for g in root.iter(f"{SVG}g") if "id" in g.attrib}


def path_points(group: ET.Element) -> list[Point]:
    """The vertices of the first path drawn in a group (not a marker definition)."""
    for child in group:
        if child.tag == f"{SVG}path" and "d" in child.attrib:
            nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", child.attrib["d"])]
            return list(zip(nums[0::2], nums[1::2], strict=True))
    raise AssertionError(f"group {group.attrib.get('id')} draws no path")


def markers(group: ET.Element) -> list[Point]:
    """The positions of the markers in a group: ``<use x= y=>`` references, or the
    centre of the one shape drawn in place (matplotlib inlines a lone marker)."""
    found = [
        (float(u.attrib["x"]), float(u.attrib["y"]))
        for u in group.iter(f"{SVG}use")
        if "x" in u.attrib
    ]
    if found:
        return found
    pts = path_points(group)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return [((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)]


def side(p: Point, q: Point, x: Point) -> float:
    """Which side of the line through p and q the point x lies on (signed area)."""
    return (q[0] - p[0]) * (x[1] - p[1]) - (q[1] - p[1]) * (x[0] - p[0])


def distance(p: Point, q: Point, x: Point) -> float:
    """Distance from x to the line through p and q."""
    length = ((q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2) ** 0.5
    return float(abs(side(p, q, x)) / length)


def separates(
    boundary: list[Point], normal: list[Point], pos: list[Point], neg: list[Point]
) -> bool:
    """Whether the drawn boundary has every positive point strictly on the side its drawn
    normal points to, and every negative point strictly on the other side."""
    p, q = boundary[0], boundary[-1]
    tip = side(p, q, normal[-1])
    return all(side(p, q, x) * tip > 0 for x in pos) and all(side(p, q, x) * tip < 0 for x in neg)


def png_pixels(path: Path) -> tuple[tuple[int, int], np.ndarray]:
    """A PNG's size and its RGB pixels (an array of shape (pixels, 3))."""
    from PIL import Image

    with Image.open(path) as img:
        rgb = img.convert("RGB")
        return rgb.size, np.asarray(rgb, dtype=np.int16).reshape(-1, 3)


def has_colour(pixels: np.ndarray, hex_colour: str, tolerance: int = 24) -> int:
    """How many pixels are within ``tolerance`` of a colour (per channel)."""
    target = np.array([int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)], dtype=np.int16)
    return int(np.all(np.abs(pixels - target) <= tolerance, axis=1).sum())


def distinct_colours(pixels: np.ndarray) -> int:
    """How many different colours a picture uses."""
    packed = (pixels[:, 0].astype(np.int32) << 16) | (pixels[:, 1] << 8) | pixels[:, 2]
    return len(np.unique(packed))
