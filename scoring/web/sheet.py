"""The printable score sheet (reportlab): sides as columns, each hand a block of line items, running totals.

The same grid, empty, is the blank sheet for a game played on paper.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from scoring.score import ITEM_NAMES
from scoring.web.i18n import format_number

GRID = colors.HexColor("#9aa3ad")
HAND_ROW = colors.HexColor("#e4e9ef")
TOTAL_ROW = colors.HexColor("#f3f5f7")


def km(n: int, strings: dict[str, Any]) -> str:
    """A number as a score pad in that language writes it: ``2,950``, ``2 950``, ``2.950``."""
    return format_number(n, strings, printable=True)


def _document(title: str, subtitle: str) -> tuple[SimpleDocTemplate, list[Any], io.BytesIO]:
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=A4, leftMargin=14 * mm, rightMargin=14 * mm, topMargin=14 * mm,
                            bottomMargin=14 * mm, title=title, author="Borne")
    styles = getSampleStyleSheet()
    story: list[Any] = [Paragraph(_escape(title), styles["Title"])]
    if subtitle:
        story += [Paragraph(_escape(subtitle), styles["Normal"]), Spacer(1, 4 * mm)]
    return doc, story, buffer


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _grid(rows: list[list[str]], hand_rows: Sequence[int], total_rows: Sequence[int], width: float,
          sides: int) -> Table:
    label_w = 48 * mm
    col_w = (width - label_w) / max(sides, 1)
    table = Table(rows, colWidths=[label_w] + [col_w] * sides, repeatRows=1)
    style = [
        ("FONT", (0, 0), (-1, -1), "Helvetica", 8.5),
        ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 9.5),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
        ("ALIGN", (1, 0), (-1, 0), "CENTER"),
        ("GRID", (0, 0), (-1, -1), 0.4, GRID),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 2.2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.2),
    ]
    for r in hand_rows:
        style += [("BACKGROUND", (0, r), (-1, r), HAND_ROW), ("FONT", (0, r), (-1, r), "Helvetica-Bold", 9),
                  ("SPAN", (0, r), (-1, r))]
    for r in total_rows:
        style += [("BACKGROUND", (0, r), (-1, r), TOTAL_ROW), ("FONT", (0, r), (-1, r), "Helvetica-Bold", 9)]
    table.setStyle(TableStyle(style))
    return table


def game_sheet_pdf(game: dict[str, Any], strings: dict[str, Any]) -> bytes:
    """The score sheet of a game document (``scoring.storage.game_document``)."""
    s = strings["sheet"]
    items = strings["items"]
    sides = [side["name"] for side in game["sides"]]
    title = game["name"] or s["title"]
    goal = km(game["goal"], strings) + " km" if game["goal"] else s["goal_per_hand"]
    subtitle = s["subtitle"].format(id=game["id"], rules=game["rules"], target=km(game["target"], strings), goal=goal)
    doc, story, buffer = _document(title, subtitle)
    rows: list[list[str]] = [[""] + sides]
    hand_rows, total_rows = [], []
    for hand in game["hands"]:
        hand_rows.append(len(rows))
        rows.append([s["hand"].format(n=hand["number"])] + [""] * len(sides))
        by_side = {sc["side"]: sc for sc in hand["score"]["sides"]}
        for item in ITEM_NAMES:
            rows.append([items[item]] + [_cell(by_side[n]["items"][item], strings) for n in sides])
        rows.append([s["hand_total"]] + [km(hand["points"][n], strings) for n in sides])
        total_rows.append(len(rows))
        rows.append([s["running_total"]] + [km(hand["totals"][n], strings) for n in sides])
    if not game["hands"]:
        rows.append([s["no_hands"]] + [""] * len(sides))
    story.append(_grid(rows, hand_rows, total_rows, doc.width, len(sides)))
    story.append(Spacer(1, 5 * mm))
    styles = getSampleStyleSheet()
    totals = ", ".join(f"{n}: {km(game['totals'][n], strings)}" for n in sides)
    story.append(Paragraph(_escape(s["totals"].format(totals=totals)), styles["Heading3"]))
    if game["winner"]:
        story.append(Paragraph(_escape(s["winner"].format(side=game["winner"], hand=game["finished_after_hand"])),
                               styles["Heading3"]))
    doc.build(story)
    return buffer.getvalue()


def _cell(points: int, strings: dict[str, Any]) -> str:
    return km(points, strings) if points else "–"


def blank_sheet_pdf(sides: Sequence[str], hands: int, strings: dict[str, Any], title: str = "") -> bytes:
    """An empty score pad for ``hands`` hands, with the sides' names (or blank columns) on top."""
    s = strings["sheet"]
    items = strings["items"]
    columns = list(sides) or ["", ""]
    doc, story, buffer = _document(title or s["blank_title"], s["blank_subtitle"])
    rows: list[list[str]] = [[""] + columns]
    hand_rows, total_rows = [], []
    for number in range(1, hands + 1):
        hand_rows.append(len(rows))
        rows.append([s["hand"].format(n=number)] + [""] * len(columns))
        for item in ITEM_NAMES:
            rows.append([items[item]] + [""] * len(columns))
        rows.append([s["hand_total"]] + [""] * len(columns))
        total_rows.append(len(rows))
        rows.append([s["running_total"]] + [""] * len(columns))
    table = _grid(rows, hand_rows, total_rows, doc.width, len(columns))
    table.setStyle(TableStyle([("TOPPADDING", (0, 1), (-1, -1), 3.4), ("BOTTOMPADDING", (0, 1), (-1, -1), 3.4)]))
    story.append(table)
    doc.build(story)
    return buffer.getvalue()
