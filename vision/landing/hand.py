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

Each play is held to the counts a hand can hold (:func:`scoring.plays.check_play`: a safety once, the deck's
counts, two 200s a side, nothing after the trip, never past the goal): one that breaks them lies on the table but
is not counted (:attr:`LandedHand.refused`), as the score keeper would refuse it. A counted play is held to the
rules of play by its side's piles as the landings showed them (:func:`vision.track.rule_checks.check_play_on_piles`):
one that breaks them stays counted, with its breach. Either way the hand is flagged for a person. In a 700-km hand
a side that reaches 700 and anyone plays on has called the extension (RULES.md): the goal becomes 1,000.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from scoring.cards import DISTANCE_VALUES, SAFETY_AGAINST, Card
from scoring.hand import EXTENDED_GOAL, SafetyPlay
from scoring.plays import BrokenRule, check_play
from vision.geometry import iou, long_side
from vision.landing.reading import Landing
from vision.table.found_sides import PILE_CLEARANCE
from vision.table.layout import TableLayout
from vision.table.sideways import is_sideways
from vision.track.rule_checks import PileCard, PlayRules, RuleBreach, SidePiles, TablePlay, check_play_on_piles

DISCARD = "discard"
SAME_SPOT = 0.5
"""Two outlines overlapping this much (IoU) lie on one pile."""
AGAIN_WITHIN = 6
"""A change read as the card its side landed on nearly the same spot at most this many frames before (0.6 s at 10
frames a second) is that card seen again: what was left of its change, a corner the arm still hid. A player's
next card comes a turn later."""
NEAR_SPOT = 0.25
"""... nearly the same spot: the outlines overlap at least this much (IoU; a column's next card a strip lower too)."""
NUDGED_IOU = 0.6
"""A change read as the card on top where it lands, on an outline overlapping it this much (IoU) and less than
:data:`NUDGED_ALONG` further along its length, is that card nudged. A column's next card overlaps the one it
covers about 0.5 (development hand 55000: 0.52, its change's rectangle grown over the card below by the arm's
shadow), as much as 0.65 in the 2-D hands (a fifth of a card lower)."""
NUDGED_ALONG = 0.18
"""... less than this share of its length further along it (a column's step is a fifth of a card or more, a nudge of a
twelfth of a card comes out at 0.14 on the rough outlines)."""
OFF_PILE = 0.9
"""A battle or speed card whose centre lies further than this many card lengths from the last card of its side's
pile of that kind landed off the pile (a pile's cards lie on one another)."""
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


def _nudged(before: Landing, now: Landing) -> bool:
    """Whether ``now`` is the card of ``before`` nudged (a sleeve, a knock): nearly where it lay, and not a column's
    step further along its length. The next card of a column lies a strip lower, a fifth of a card or more along
    the length of the one it covers; the outlines are too rough (a tenth of a card) for their overlap alone to tell."""
    old, new = before.on_table, now.on_table
    if iou(old, new) < NUDGED_IOU:
        return False
    length_axis = old[1] - old[0] if np.linalg.norm(old[1] - old[0]) > np.linalg.norm(old[3] - old[0]) else old[3] - old[0]
    length = float(np.linalg.norm(length_axis))
    along = abs(float(np.dot(new.mean(axis=0) - old.mean(axis=0), length_axis / max(length, 1e-9))))
    return along < NUDGED_ALONG * length


def pile_of(card: Card) -> str:
    """Where a card laid on a side goes."""
    if card.is_distance:
        return "distance"
    if card.is_safety:
        return "safeties"
    return "speed" if card in (Card.SPEED_LIMIT, Card.END_OF_LIMIT) else "battle"


def side_of(landing: Landing, layout: TableLayout, middle: NDArray[np.float64] | None = None) -> str | None:
    """The side whose zone holds the landing's centre (``None``: the middle of the table). ``middle``: where the
    draw pile lies, when the zones were found from the table (guesses, widened as cards came): a card within
    :data:`~vision.table.found_sides.PILE_CLEARANCE` card lengths of it lies on the discard pile."""
    outline = landing.on_table
    centre = outline.mean(axis=0)
    if middle is not None:
        sides = np.linalg.norm(outline - np.roll(outline, -1, axis=0), axis=1)
        if float(np.linalg.norm(centre - middle)) < PILE_CLEARANCE * float(max(sides)):
            return None
    return layout.side_at(centre)


def place(landing: Landing, layout: TableLayout, middle: NDArray[np.float64] | None = None) -> Play | None:
    """The play a landing is (``None`` for one that names no card: a back, an unread change)."""
    card = landing.reading.card
    if card is None:
        return None
    outline = landing.on_table
    side = side_of(landing, layout, middle)
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
    taken: list[Play] = field(default_factory=list)
    """Plays picked up again (a card moved lands again elsewhere): no longer counted."""
    middle: NDArray[np.float64] | None = None
    """Where the draw pile lies when the zones were found from the table (:func:`side_of`)."""
    again_within: int = AGAIN_WITHIN
    """:data:`AGAIN_WITHIN` at the camera's rate."""
    goal: int = 700
    """The hand's goal (km) as it began: no side may pass it (1,000 once the extension is called)."""
    rules: PlayRules = field(default_factory=PlayRules)
    breaches: list[RuleBreach] = field(default_factory=list)
    """The plays that break a rule of play by their side's piles, as they came (each kept, and flagged)."""
    unread: list[Landing] = field(default_factory=list)
    """Changes on a side's part of the table that named no card: a card Borne could not read (its count may
    lack it), or something that is no card — flagged either way."""
    refused: list[tuple[Play, BrokenRule]] = field(default_factory=list)
    """The plays a hand cannot hold (a third 200, a side past the goal, more of a card than the deck has), each
    with the rule it breaks: on the table, not counted, flagged — one of the hand's cards was misread or seen
    twice, or a player erred."""
    off_pile: list[Play] = field(default_factory=list)
    """Battle or speed cards that landed away from their side's pile of that kind (counted, flagged): a player
    starting a second pile, or, far likelier, a card misread (held-out 2-D hand 0: an Extra Tank in the safety row
    read as a Roll)."""
    extension_called_by: str | None = None
    reached_700_at: tuple[str, int] | None = None
    """The side that first reached exactly 700 in a 700-km hand, and the frame its card landed."""
    _stacks: list[list[Play]] = field(default_factory=list)
    _piles: list[tuple[str, str, PileCard]] = field(default_factory=list)
    """(side, pile, card) for each card that came on top of a side's battle, speed or safety pile, a card shown
    again as the attack over it went included."""

    def land(self, landing: Landing, *, checked: bool = True) -> Play | None:
        """Take in a landing: the play it is, or ``None`` (no card read, or a card went). ``checked``: held to the
        rules of play by its side's piles (not the cards found on a table already in play: their order is unknown)."""
        if landing.change.bare or self._gone(landing):  # picked up (a card moved, taken back)
            self.departures.append(landing)
            self._take_back(landing)
            return None
        play = place(landing, self.layout, self.middle)
        if play is None:
            if not landing.reading.back and side_of(landing, self.layout, self.middle) is not None:
                self.unread.append(landing)
            return None
        here = landing.on_table
        stack = next((s for s in self._stacks if iou(s[-1].landing.on_table, here) >= SAME_SPOT), None)
        if stack is not None and len(stack) >= 2 and stack[-2].card is play.card and self._answered(stack[-1]):
            gone = stack.pop()
            assert gone.side is not None
            self._piles.append((gone.side, gone.pile, PileCard(landing.frame, play.card)))
            self.departures.append(landing)
            return None
        seen = stack is not None and stack[-1].card is play.card and iou(stack[-1].landing.on_table, here) >= SAME_CARD
        seen = seen or any(p.card is play.card and p.side == play.side and 0 < landing.frame - p.landing.frame <= self.again_within
                           and iou(p.landing.on_table, here) >= NEAR_SPOT for p in self.plays[-4:])
        seen = seen or (stack is not None and stack[-1].card is play.card and _nudged(stack[-1].landing, landing))
        if seen or (play.card.is_safety and any(p.card is play.card for p in self.plays)):  # one of each safety
            self.again.append(landing)
            return None
        if stack is None:
            self._stacks.append([play])
        else:
            stack.append(play)
        refusal = self._refusal(play) if play.side is not None else None
        if self._off_pile(play):
            self.off_pile.append(play)
        self.plays.append(play)
        if refusal is not None:
            self.refused.append((play, refusal))
            return play
        if play.side is not None:
            self._extend(play)
            breach = self._breach(play) if checked else None
            if breach is not None:
                self.breaches.append(breach)
            if play.pile != "distance" and checked:  # the piles' order is known only as cards come
                self._piles.append((play.side, play.pile, PileCard(landing.frame, play.card)))
        return play

    def _off_pile(self, play: Play) -> bool:
        """Whether a battle or speed card lands more than :data:`OFF_PILE` card lengths from the last card of its
        side's pile of that kind (none yet: it starts the pile; a card itself off the pile is not the pile)."""
        if play.side is None or play.pile not in ("battle", "speed"):
            return False
        away = {id(p) for p in self.off_pile}
        last = next((p for p in reversed(self.plays) if (p.side, p.pile) == (play.side, play.pile) and id(p) not in away), None)
        if last is None:
            return False
        there, here = last.landing.on_table, play.landing.on_table
        return float(np.linalg.norm(here.mean(axis=0) - there.mean(axis=0))) > OFF_PILE * long_side(there)

    def _take_back(self, landing: Landing) -> None:
        """The card on top where a card went is no longer on the table: a card moved lands again elsewhere (one
        play), one taken back is no play."""
        here = landing.on_table
        stack = max(self._stacks, key=lambda s: iou(s[-1].landing.on_table, here), default=None)
        if stack is not None and iou(stack[-1].landing.on_table, here) >= SAME_SPOT:
            self.taken.append(stack.pop())
            if not stack:
                self._stacks.remove(stack)

    def _gone(self, landing: Landing) -> bool:
        """A change that names no card where a card lay, on nearly its outline: that card went (a card laid
        unread on a column's foot lies a strip lower)."""
        if landing.reading.card is not None or landing.reading.back:
            return False
        here = landing.on_table
        return any(iou(p.landing.on_table, here) >= SAME_CARD for p in self.plays)

    @property
    def counted(self) -> list[Play]:
        """The plays on the sides that count (the refused ones left out), in the order they landed."""
        left_out = {id(p) for p, _ in self.refused} | {id(p) for p in self.taken}
        return [p for p in self.plays if p.side is not None and id(p) not in left_out]

    @property
    def effective_goal(self) -> int:
        return EXTENDED_GOAL if self.extension_called_by is not None else self.goal

    def km(self, side: str) -> int:
        return sum(p.card.km for p in self.counted if p.side == side and p.card.is_distance)

    @property
    def completer(self) -> str | None:
        """The side at the goal now in force, if any."""
        return next((s.side for s in self.layout.sides if self.km(s.side) == self.effective_goal), None)

    def _refusal(self, play: Play) -> BrokenRule | None:
        """The count ``play`` takes past what a hand can hold, where it does (:func:`scoring.plays.check_play`)."""
        assert play.side is not None
        frame = play.landing.frame
        going_on = (self.reached_700_at is not None and self.extension_called_by is None
                    and frame > self.reached_700_at[1])  # anyone playing on after 700 calls the extension
        goal = EXTENDED_GOAL if going_on else self.effective_goal
        done = self.completer
        return check_play(((p.side, p.card) for p in self.counted if p.side is not None), play.side, play.card,
                          goal=goal, trip_completed_by=done if done is not None and not going_on else None)

    def _extend(self, play: Play) -> None:
        """A 700-km hand: the side that reached exactly 700 called the extension once anyone played on."""
        if self.goal == EXTENDED_GOAL or self.extension_called_by is not None:
            return
        if self.reached_700_at is not None and play.landing.frame > self.reached_700_at[1]:
            self.extension_called_by = self.reached_700_at[0]
        elif play.card.is_distance and self.reached_700_at is None and self.km(play.side or "") == self.goal:
            self.reached_700_at = (play.side or "", play.landing.frame)

    @property
    def flagged(self) -> bool:
        """Whether a play breaks a rule of play or a count the hand can hold, or a change on a side went unread."""
        return bool(self.breaches or self.refused or self.unread or self.off_pile)

    def _breach(self, play: Play) -> RuleBreach | None:
        """The rule of play ``play`` breaks by its side's piles as the landings showed them (vision/track/rule_checks)."""
        assert play.side is not None

        def pile(name: str) -> tuple[PileCard, ...]:
            return tuple(card for side, kind, card in self._piles if side == play.side and kind == name)

        piles = SidePiles(pile("battle"), pile("speed"), pile("safeties"))
        counted = [TablePlay(p.side, p.card, p.crosswise, p.landing.frame) for p in self.counted
                   if p.side is not None and (p.card.is_distance or p.card.is_safety)]
        return check_play_on_piles(TablePlay(play.side, play.card, play.crosswise, play.landing.frame), piles,
                                   self.rules, counted)

    def land_all(self, landings: list[Landing], *, checked: bool = True) -> list[Play | None]:
        """Take in the landings of one clear view, safeties first; what each one is, in the order given."""
        def safety_first(k: int) -> bool:
            card = landings[k].reading.card
            return not (card is not None and card.is_safety)

        order = sorted(range(len(landings)), key=safety_first)
        out: list[Play | None] = [None] * len(landings)
        for k in order:
            out[k] = self.land(landings[k], checked=checked)
        return out

    def _answered(self, top: Play) -> bool:
        """Whether the attack on top of a pile was just answered by a coup fourré of its side (the last play)."""
        last = self.plays[-1] if self.plays else None
        return (top.side is not None and top.pile in ("battle", "speed") and last is not None and last.side == top.side
                and last.crosswise and last.card is SAFETY_AGAINST.get(top.card))

    def census(self) -> Census:
        """Each side's distance (cards per value) and safeties (how each was played), from its plays."""
        out: Census = {s.side: ({km: 0 for km in DISTANCE_VALUES}, {}) for s in self.layout.sides}
        return add_plays(out, self.counted)


Census = dict[str, tuple[dict[int, int], dict[Card, SafetyPlay]]]
"""Each side's distance cards per value and safeties (how each was played)."""


def add_plays(census: Census, plays: list[Play]) -> Census:
    """``census`` with each side's ``plays`` counted in (in place; returned)."""
    for play in plays:
        assert play.side is not None
        distance, safeties = census[play.side]
        if play.card.is_distance:
            distance[play.card.km] += 1
        elif play.card.is_safety:
            safeties[play.card] = SafetyPlay.COUP_FOURRE if play.crosswise else SafetyPlay.PLAYED
    return census
