"""A printable PDF of a whole deck: 9 cards per A4 page at true size, with cut marks.

Print at 100 % (no "fit to page"); each card is 56 × 87 mm between the marks.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from datasets.edition import Edition
from scoring.cards import DECK_COUNTS, Card

COLUMNS, ROWS = 3, 3
GAP_MM = 4.0
MARK_MM = 2.5


def deck_cards(counts: dict[Card, int] | None = None) -> list[Card]:
    """Every card of a deck in catalogue order (106 for the standard deck)."""
    counts = dict(DECK_COUNTS) if counts is None else counts
    return [card for card in Card for _ in range(counts[card])]


def write_deck_sheet(
    edition: Edition,
    out: Path,
    *,
    counts: dict[Card, int] | None = None,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Write the PDF; returns the number of pages."""
    from PIL import Image
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    cards = deck_cards(counts)
    page_w, page_h = A4
    cw, ch, gap = 56 * mm, 87 * mm, GAP_MM * mm
    grid_w, grid_h = COLUMNS * cw + (COLUMNS - 1) * gap, ROWS * ch + (ROWS - 1) * gap
    x0, y0 = (page_w - grid_w) / 2, (page_h - grid_h) / 2
    readers: dict[Card, ImageReader] = {}
    for card in set(cards):
        buf = io.BytesIO()
        Image.fromarray(edition.face(card)).save(buf, format="JPEG", quality=92)
        buf.seek(0)
        readers[card] = ImageReader(buf)
    out.parent.mkdir(parents=True, exist_ok=True)
    pdf = canvas.Canvas(str(out), pagesize=A4)
    pdf.setTitle(f"Borne — {edition.name} deck ({len(cards)} cards)")
    per_page = COLUMNS * ROWS
    pages = 0
    for start in range(0, len(cards), per_page):
        for i, card in enumerate(cards[start : start + per_page]):
            col, row = i % COLUMNS, i // COLUMNS
            x = x0 + col * (cw + gap)
            y = page_h - y0 - (row + 1) * ch - row * gap
            pdf.drawImage(readers[card], x, y, width=cw, height=ch)
            _cut_marks(pdf, x, y, cw, ch, MARK_MM * mm)
            if progress:
                progress(1)
        pdf.setFont("Helvetica", 7)
        pdf.drawString(x0, y0 / 2, f"Borne {edition.name} deck · page {pages + 1} · print at 100 %, cut on the marks (56 × 87 mm)")
        pdf.showPage()
        pages += 1
    pdf.save()
    return pages


def _cut_marks(pdf: object, x: float, y: float, w: float, h: float, length: float) -> None:
    """Short lines outside each corner, in line with the card's edges."""
    pdf.setLineWidth(0.3)  # type: ignore[attr-defined]
    off = 1.0
    for cx, cy, dx, dy in ((x, y, -1, -1), (x + w, y, 1, -1), (x, y + h, -1, 1), (x + w, y + h, 1, 1)):
        pdf.line(cx + dx * off, cy, cx + dx * (off + length), cy)  # type: ignore[attr-defined]
        pdf.line(cx, cy + dy * off, cx, cy + dy * (off + length))  # type: ignore[attr-defined]
