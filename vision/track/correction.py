"""A person's record of the hand laid over the tracker's cards: the counts it says, the places it knows."""

from __future__ import annotations

from scoring.cards import DISTANCE_CARD_OF_KM, SAFETIES, Card
from scoring.hand import HandRecord, SafetyPlay
from vision.track.slots import Slot


def corrected_slots(slots: list[Slot], sides: tuple[str, ...], record: HandRecord) -> list[Slot]:
    """The tracker's cards made to say ``record`` (already validated); ``slots`` are changed in place and
    returned with the cards the person added.

    Cards the person removed stay known, uncounted (so their sightings do not count them again); a card the
    person added is one the tracker had refused, else a card without a place on the table. No card is
    doubted again: the person looked.

    :raises ValueError: the record names a side that is not at this table.
    """
    for side in record.sides:
        if side.side not in sides:
            raise ValueError(f"{side.side!r} is not a side of this table")
    out = list(slots)
    for name in sides:
        for card, n in wanted_counts(record, name).items():
            mine = [sl for sl in out if sl.side == name and sl.card is card and sl.counted]
            if len(mine) > n:
                for sl in sorted(mine, key=lambda sl: (sl.confidence, sl.arrived))[: len(mine) - n]:
                    sl.counted = False
            elif len(mine) < n:
                refused = [sl for sl in out if sl.side == name and sl.card is card and not sl.counted]
                for k in range(n - len(mine)):
                    if k < len(refused):
                        refused[k].counted = True
                    else:
                        out.append(Slot(name, card, None, False, -1, -1, True, 1.0))
        for sl in out:
            if sl.side == name and sl.card.is_safety and sl.counted:
                sl.sideways = record.side(name).safeties.get(sl.card) is SafetyPlay.COUP_FOURRE
    for sl in out:
        sl.doubted = True
    return out


def wanted_counts(record: HandRecord, side: str) -> dict[Card, int]:
    """The scoring cards ``record`` says ``side`` has, by card."""
    s = record.side(side)
    out = {DISTANCE_CARD_OF_KM[km]: n for km, n in s.distance.items()}
    for safety in SAFETIES:
        out[safety] = 1 if safety in s.safeties else 0
    return out
