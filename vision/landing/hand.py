"""The hand as its list of landings: each card read is placed (which side, which pile, crosswise or not) and
the piles are followed as stacks, so that a card going (the attack a coup fourré sends to the discard) is told
from a card coming.

Everything is placed in the first view's pixels (:attr:`~vision.landing.reading.Landing.on_table`), where the
zones were drawn, however the camera was nudged since. A card's side is the zone it lies in
(:meth:`~vision.table.layout.TableLayout.side_at`); a card in no side's zone lies in the middle, on the discard pile. Its pile follows from the card: distance cards make the columns,
Speed Limit and End of Limit the speed pile, the other hazards and remedies the battle pile, safeties the safety
row. A safety laid across its side's "up" is a coup fourré (:func:`~vision.table.sideways.is_sideways`).

A coup fourré sends the attack it answers from the battle (or speed) pile to the discard: where, right after a
safety laid crosswise, a change on that side's pile reads as the card that lay under the attack, the attack
went — no play. Where a change reads as the top card itself, on nearly its outline, that card was seen again:
no play either. The changes of one clear view are taken safeties first (:meth:`LandedHand.land_all`), since the
safety and the attack's going come in the same view, in either order.

Each play is held to the rules of play by its side's piles as the landings showed them
(:func:`vision.track.rule_checks.check_play_on_piles`) and to the counts a hand can hold (two 200s a side, never
past the goal, the deck's counts): one that breaks either stays counted, with its breach.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.cards import MAX_200S_PER_HAND, SAFETY_AGAINST, Card, deck
from scoring.hand import SafetyPlay
from vision.geometry import iou
from vision.landing.reading import Landing
from vision.table.layout import TableLayout
from vision.table.sideways import is_sideways
from vision.track.rule_checks import PileCard, PlayRules, RuleBreach, SidePiles, TablePlay, check_play_on_piles
from vision.track.state import FlagReason

DISCARD = "discard"
SAME_SPOT = 0.5
"""Two outlines overlapping this much (IoU) lie on one pile."""
SAME_CARD = 0.7
"""A change read as the card on top of its spot, on an outline overlapping it this much, is that card seen
again (what was left of its change, a shadow that went), not a second one: a column's next card lies a strip
lower, and the game never lays a card on its twin on a side's pile."""


@dataclass(frozen=True)
class Play:
    """A landing placed on the table."""

    landing: Landing
    side: str | None
    """``None``: the middle of the table (the discard pile)."""
    pile: str
    """``distance``, ``battle``, ``speed``, ``safeties`` or ``discard``."""
    crosswise: bool

    @property
    def card(self) -> Card:
        card = self.landing.reading.card
        assert card is not None  # only read landings are placed
        return card


def pile_of(card: Card) -> str:
    """Where a card laid on a side goes."""
    if card.is_distance:
        return "distance"
    if card.is_safety:
        return "safeties"
    return "speed" if card in (Card.SPEED_LIMIT, Card.END_OF_LIMIT) else "battle"


def place(landing: Landing, layout: TableLayout) -> Play | None:
    """The play a landing is (``None`` for one that names no card: a back, an unread change)."""
    card = landing.reading.card
    if card is None:
        return None
    outline = landing.on_table
    side = layout.side_at(outline.mean(axis=0))
    if side is None:
        return Play(landing, None, DISCARD, False)
    up = layout.zone_of(side).up
    crosswise = up is not None and is_sideways(outline, up)
    return Play(landing, side, pile_of(card), crosswise)


@dataclass
class LandedHand:
    """The plays of one hand, in the order they landed, and what lies on top of each spot."""

    layout: TableLayout
    plays: list[Play] = field(default_factory=list)
    departures: list[Landing] = field(default_factory=list)
    """Changes that were a card going (the card under it read again)."""
    again: list[Landing] = field(default_factory=list)
    """Changes that were a card already counted, seen again."""
    goal: int = 700
    """The hand's goal (km): no side may pass it."""
    rules: PlayRules = field(default_factory=PlayRules)
    breaches: list[RuleBreach] = field(default_factory=list)
    """The plays that break a rule of play by their side's piles, as they came (each kept, and flagged)."""
    unread: list[Landing] = field(default_factory=list)
    """Changes on a side's part of the table that named no card: a card Borne could not read (its count may
    lack it), or something that is no card — flagged either way."""
    miscounts: list[tuple[FlagReason, Play]] = field(default_factory=list)
    """The plays a hand cannot hold (a third 200, a side past the goal, more of a card than the deck has): each
    kept, and flagged — one of the hand's cards was misread or counted twice."""
    _stacks: list[list[Play]] = field(default_factory=list)
    _piles: list[tuple[str, str, PileCard]] = field(default_factory=list)
    """(side, pile, card) for each card that came on top of a side's battle, speed or safety pile, a card shown
    again as the attack over it went included."""

    def land(self, landing: Landing) -> Play | None:
        """Take in a landing: the play it is, or ``None`` (no card read, or the card on top of a pile went)."""
        play = place(landing, self.layout)
        if play is None:
            if not landing.reading.back and self.layout.side_at(landing.on_table.mean(axis=0)) is not None:
                self.unread.append(landing)
            return None
        here = landing.on_table
        stack = next((s for s in self._stacks if iou(s[-1].landing.on_table, here) >= SAME_SPOT), None)
        seen = stack is not None and stack[-1].card is play.card and iou(stack[-1].landing.on_table, here) >= SAME_CARD
        if seen or (play.card.is_safety and any(p.card is play.card for p in self.plays)):  # one of each safety
            self.again.append(landing)
            return None
        if stack is not None and len(stack) >= 2 and stack[-2].card is play.card and self._answered(stack[-1]):
            gone = stack.pop()
            assert gone.side is not None
            self._piles.append((gone.side, gone.pile, PileCard(landing.frame, play.card)))
            self.departures.append(landing)
            return None
        if stack is None:
            self._stacks.append([play])
        else:
            stack.append(play)
        self.plays.append(play)
        miscount = self._miscount(play)
        if miscount is not None:
            self.miscounts.append((miscount, play))
        if play.side is not None:
            breach = self._breach(play)
            if breach is not None:
                self.breaches.append(breach)
            if play.pile != "distance":
                self._piles.append((play.side, play.pile, PileCard(landing.frame, play.card)))
        return play

    def _miscount(self, play: Play) -> FlagReason | None:
        """The count a play takes past what a hand can hold, where it does (RULES.md: two 200s a side, never past
        the goal; the deck's counts for the number of sides)."""
        same = sum(p.card is play.card for p in self.plays)
        if same > deck(len(self.layout.sides)).get(play.card, 0):
            return FlagReason.DECK_COUNT
        if play.side is None or not play.card.is_distance:
            return None
        mine = [p.card for p in self.plays if p.side == play.side and p.card.is_distance]
        if play.card is Card.DISTANCE_200 and mine.count(Card.DISTANCE_200) > MAX_200S_PER_HAND:
            return FlagReason.THIRD_200
        if sum(c.km for c in mine) > self.goal:
            return FlagReason.PAST_GOAL
        return None

    @property
    def flagged(self) -> bool:
        """Whether a play breaks a rule of play or a count the hand can hold, or a change on a side went unread."""
        return bool(self.breaches or self.miscounts or self.unread)

    def _breach(self, play: Play) -> RuleBreach | None:
        """The rule of play ``play`` breaks by its side's piles as the landings showed them (vision/track/rule_checks)."""
        assert play.side is not None

        def pile(name: str) -> tuple[PileCard, ...]:
            return tuple(card for side, kind, card in self._piles if side == play.side and kind == name)

        piles = SidePiles(pile("battle"), pile("speed"), pile("safeties"))
        counted = [TablePlay(p.side, p.card, p.crosswise, p.landing.frame) for p in self.plays
                   if p.side is not None and (p.card.is_distance or p.card.is_safety)]
        return check_play_on_piles(TablePlay(play.side, play.card, play.crosswise, play.landing.frame), piles,
                                   self.rules, counted)

    def land_all(self, landings: list[Landing]) -> list[Play | None]:
        """Take in the landings of one clear view, safeties first; what each one is, in the order given."""
        def safety_first(k: int) -> bool:
            card = landings[k].reading.card
            return not (card is not None and card.is_safety)

        order = sorted(range(len(landings)), key=safety_first)
        out: list[Play | None] = [None] * len(landings)
        for k in order:
            out[k] = self.land(landings[k])
        return out

    def _answered(self, top: Play) -> bool:
        """Whether the attack on top of a pile was just answered by a coup fourré of its side (the last play)."""
        last = self.plays[-1] if self.plays else None
        return (top.side is not None and top.pile in ("battle", "speed") and last is not None and last.side == top.side
                and last.crosswise and last.card is SAFETY_AGAINST.get(top.card))

    def census(self) -> dict[str, tuple[dict[int, int], dict[Card, SafetyPlay]]]:
        """Each side's distance (cards per value) and safeties (how each was played), from its plays."""
        out: dict[str, tuple[dict[int, int], dict[Card, SafetyPlay]]] = {
            s.side: ({km: 0 for km in (25, 50, 75, 100, 200)}, {}) for s in self.layout.sides}
        for play in self.plays:
            if play.side is None:
                continue
            distance, safeties = out[play.side]
            if play.card.is_distance:
                distance[play.card.km] += 1
            elif play.card.is_safety:
                safeties[play.card] = SafetyPlay.COUP_FOURRE if play.crosswise else SafetyPlay.PLAYED
        return out
