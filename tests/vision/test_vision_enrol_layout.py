"""`borne enrol PHOTO`: one photo of the 19 card types laid out, named, confirmed, enrolled."""

from __future__ import annotations

import os
import subprocess
import sys

import cv2
import numpy as np
import pytest

from datasets.art_test import held_out_edition
from datasets.enrol_layout import lay_out, parse_corrections
from datasets.errors import EnrolmentError
from datasets.photos import layout_photo
from scoring.cards import Card


def laid_out(faces: dict[str, np.ndarray], path, *, seed: int, leave_out: int = 0):
    """A layout photo of the faces in a shuffled order (the last ``leave_out`` left off); the order."""
    order = list(Card)
    np.random.default_rng(seed).shuffle(order)
    order = order[: len(order) - leave_out]
    image, corners = layout_photo([faces[c.value] for c in order], seed=seed)
    cv2.imwrite(str(path), image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 92])
    return order, corners


def enrol(photo, tmp_path, *extra: str, stdin: str | None = None):
    """`borne enrol` of one photo (or of several pictures, a list) as edition 'laid'."""
    env = {**os.environ, "BORNE_DATA_DIR": str(tmp_path / "data"), "TMPDIR": str(tmp_path)}
    pictures = [str(p) for p in photo] if isinstance(photo, list) else [str(photo)]
    return subprocess.run([sys.executable, "-m", "borne", "enrol", *pictures, "--edition", "laid", *extra],
                          capture_output=True, text=True, env=env, timeout=600, input=stdin)


def test_a_layout_of_the_generic_deck_is_named_and_enrolled_in_seconds(tmp_path):
    from datasets.edition import load_edition
    from tests.vision.test_vision_enrol import enrolled_recogniser, read_own_faces

    faces = {c.value: load_edition("generic").face(c) for c in Card}
    laid_out(faces, tmp_path / "table.jpg", seed=11)
    out = enrol(tmp_path / "table.jpg", tmp_path, "--yes")
    assert out.returncode == 0, out.stderr[-2000:]
    assert "found 19 cards" in out.stderr and "enrolled edition 'laid'" in out.stdout
    assert (tmp_path / "borne-enrol-laid.png").is_file()  # the numbered sheet to check the names on
    env = {"BORNE_DATA_DIR": str(tmp_path / "data")}
    assert read_own_faces(enrolled_recogniser(env, "laid"), faces, 8) == len(faces)


def test_names_proposed_wrong_are_corrected_by_number(tmp_path):
    faces = held_out_edition("midcard")  # a deck unlike the generic: its safeties are proposed wrong
    order, corners = laid_out(faces, tmp_path / "table.jpg", seed=12)
    cards = lay_out(tmp_path / "table.jpg")
    truth = {}
    for c in cards:  # which card each number is: the laid card whose centre is nearest
        truth[c.number] = order[int(np.argmin([np.linalg.norm(c.corners.mean(axis=0) - q.mean(axis=0)) for q in corners]))]
    distances = [c for c in cards if truth[c.number].is_distance]
    assert sum(c.proposed is truth[c.number] for c in distances) >= 4  # read from their numerals
    wrong = " ".join(f"{c.number}={truth[c.number].value}" for c in cards if c.proposed is not truth[c.number])
    out = enrol(tmp_path / "table.jpg", tmp_path, "--names", wrong)
    assert out.returncode == 0, out.stderr[-2000:]
    from vision.read.matcher import FaceMatcher

    matcher = FaceMatcher.from_folder(tmp_path / "data" / "editions" / "laid")
    # the corrected names stand (the distance cards told apart by their numerals; gasoline, a face like no other)
    for card in (Card.DISTANCE_25, Card.DISTANCE_75, Card.GASOLINE):
        image = np.ascontiguousarray(cv2.resize(faces[card.value], (75, 116), interpolation=cv2.INTER_AREA)[..., ::-1])
        box = np.array([[0, 0], [75, 0], [75, 116], [0, 116]], float)
        assert matcher.read(image, [box])[0].card is card


def test_without_a_terminal_the_names_are_confirmed_on_the_command_line(tmp_path):
    from datasets.edition import load_edition

    faces = {c.value: load_edition("generic").face(c) for c in Card}
    laid_out(faces, tmp_path / "table.jpg", seed=13)
    out = enrol(tmp_path / "table.jpg", tmp_path)  # no terminal, no --yes: nothing is stored
    assert out.returncode == 2 and "--yes" in out.stderr
    assert not (tmp_path / "data" / "editions" / "laid").exists()


def test_a_photo_missing_a_card_or_naming_one_twice_is_refused_before_anything_is_stored(tmp_path):
    from datasets.edition import load_edition

    faces = {c.value: load_edition("generic").face(c) for c in Card}
    laid_out(faces, tmp_path / "short.jpg", seed=14, leave_out=1)
    out = enrol(tmp_path / "short.jpg", tmp_path, "--yes")
    assert out.returncode == 2 and "found 18 different cards, not 19" in out.stderr
    laid_out(faces, tmp_path / "table.jpg", seed=14)
    out = enrol(tmp_path / "table.jpg", tmp_path, "--names", "1=stop 2=stop")
    assert out.returncode == 2 and "both named stop" in out.stderr
    assert not (tmp_path / "data" / "editions" / "laid").exists()


def test_corrections_are_read_strictly():
    assert parse_corrections("") == {}
    with pytest.raises(EnrolmentError, match="NUMBER=CARD_ID"):
        parse_corrections("3=stopp")


SHEET = [*Card, Card.DISTANCE_25, Card.DISTANCE_25, Card.DISTANCE_100, Card.STOP, Card.ROLL, Card.ROLL,
         Card.DISTANCE_25, Card.RIGHT_OF_WAY]
"""A deck's print-and-play sheet cut short: every card type, some printed again, on three pages."""


def test_the_pages_of_a_print_and_play_sheet_enrol_each_card_once(tmp_path):
    from datasets.edition import load_edition
    from datasets.photos import sheet_pages
    from tests.vision.test_vision_enrol import enrolled_recogniser, read_own_faces

    faces = {c.value: load_edition("generic").face(c) for c in Card}
    pages = []
    for k, page in enumerate(sheet_pages([faces[c.value] for c in SHEET])):
        pages.append(tmp_path / f"page-{k + 1}.png")
        cv2.imwrite(str(pages[-1]), page[..., ::-1])
    cards = lay_out(pages)
    assert len(cards) == len(Card) and {c.page for c in cards} == {0, 1, 2}
    assert [c.proposed for c in cards] == list(Card)  # the sheet's order; each kept where first printed
    out = enrol(pages, tmp_path, "--yes")
    assert out.returncode == 0, out.stderr[-2000:]
    assert "found 19 cards" in out.stderr
    assert read_own_faces(enrolled_recogniser({"BORNE_DATA_DIR": str(tmp_path / "data")}, "laid"), faces, 8) == len(faces)


def test_a_sheet_missing_a_card_type_is_refused_before_anything_is_stored(tmp_path):
    from datasets.edition import load_edition
    from datasets.photos import sheet_pages

    faces = {c.value: load_edition("generic").face(c) for c in Card}
    pages = sheet_pages([faces[c.value] for c in SHEET if c is not Card.DRIVING_ACE])
    with pytest.raises(EnrolmentError, match="found 18 different cards, not 19: none reads as driving_ace"):
        lay_out(pages)


def test_look_alike_cards_are_not_taken_for_a_card_printed_again():
    from datasets.enrol_layout import distinct_faces

    faces = held_out_edition("corner")  # distance cards told apart only by a small corner numeral
    again = cv2.resize(faces["distance_25"], None, fx=0.97, fy=0.97, interpolation=cv2.INTER_AREA)
    again = np.ascontiguousarray(cv2.copyMakeBorder(again, 6, 8, 5, 4, cv2.BORDER_REPLICATE)[::-1, ::-1])
    shown = [faces["distance_25"], faces["distance_50"], faces["distance_75"], again, faces["distance_50"]]
    assert distinct_faces(shown) == [0, 1, 2]


def rendered_layout(*, guide: bool, faces: dict[str, np.ndarray]):
    """A 1920 x 1080 phone photo of the 19 cards on a wooden table, its edge and the floor in view, a cup by them."""
    from datasets.layout_photos import LayoutSpec, render_layout

    spec = LayoutSpec(seed=3, split="dev", guide=guide, surface="wood", patterned=False, edge=True, width=1920,
                      height=1080, things=("cup",))
    return render_layout(faces, spec)


def truly(laid, corners: np.ndarray) -> Card:
    """The card laid nearest ``corners``."""
    return min(laid.cards, key=lambda c: float(np.linalg.norm(c[1].mean(axis=0) - corners.mean(axis=0))))[0]


def test_with_the_tables_edge_and_a_cup_in_view_every_card_is_found_and_named_by_its_print():
    from datasets.edition import load_edition

    laid = rendered_layout(guide=False, faces={c.value: np.asarray(load_edition("generic").face(c)) for c in Card})
    cards = lay_out(laid.image)
    assert len(cards) == len(Card)  # the table's top is no card, nor the cup
    assert [c.proposed for c in cards] == [truly(laid, c.corners) for c in cards]
    assert sum(c.reason.startswith("printed") for c in cards) >= 10  # read from the names printed on them


def test_a_deck_that_prints_no_names_laid_as_the_guide_shows_is_named_by_the_places():
    from datasets.art_random import random_edition

    laid = rendered_layout(guide=True, faces=random_edition(11))  # only its distance cards print anything
    cards = lay_out(laid.image)
    assert [c.proposed for c in cards] == [truly(laid, c.corners) for c in cards]
    assert all(c.reason.startswith("its place in the guide") for c in cards)


def test_a_layout_photo_missing_a_card_is_refused_naming_the_card_missing(tmp_path):
    from datasets.edition import load_edition

    laid = rendered_layout(guide=False, faces={c.value: np.asarray(load_edition("generic").face(c)) for c in Card})
    image = laid.image.copy()
    gone, corners = next((c, q) for c, q in laid.cards if c is Card.EXTRA_TANK)
    centre = corners.mean(axis=0)
    cv2.fillConvexPoly(image, np.rint(centre + (corners - centre) * 1.15).astype(np.int32),
                       tuple(float(v) for v in np.median(image[int(centre[1]) - 80: int(centre[1]) - 60, :], axis=(0, 1))))
    cv2.imwrite(str(tmp_path / "table.jpg"), image[..., ::-1])
    out = enrol(tmp_path / "table.jpg", tmp_path, "--yes")
    assert out.returncode == 2 and "found 18 different cards, not 19: none reads as extra_tank" in out.stderr
    assert not (tmp_path / "data" / "editions" / "laid").exists()


def test_json_gives_each_card_its_number_id_and_corners_in_reading_order(tmp_path):
    import json

    from datasets.edition import load_edition

    laid = rendered_layout(guide=False, faces={c.value: np.asarray(load_edition("generic").face(c)) for c in Card})
    cv2.imwrite(str(tmp_path / "table.jpg"), laid.image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 92])
    out = enrol(tmp_path / "table.jpg", tmp_path, "--yes", "--json")
    assert out.returncode == 0, out.stderr[-2000:]
    document = json.loads(out.stdout.strip().splitlines()[-1])
    assert set(document) == {"cards", "seconds"} and document["seconds"] > 0
    cards = document["cards"]
    assert [c["number"] for c in cards] == list(range(1, 20)) and {c["card"] for c in cards} == {c.value for c in Card}
    middles = [np.mean(c["corners"], axis=0) for c in cards]
    assert all(len(c["corners"]) == 4 for c in cards) and middles[0][1] <= min(m[1] for m in middles) + 60
    assert all(truly(laid, np.asarray(c["corners"])).value == c["card"] for c in cards)
