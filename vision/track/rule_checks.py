"""The rules of the game as a check on what the camera saw: each play against its side's battle and speed piles.

:func:`scoring.plays.check_play` says what one more card may never be (past the goal, a third 200, more
copies than the deck has, a safety twice, a play after the trip): the tracker refuses such a card. The
checks here need the piles the camera watched — a Roll under a distance card, a Speed Limit over it, the
attack a coup fourré answers — whose reading is less sure than the scoring card's own: a play that breaks
one of them is counted *and* flagged, never counted in silence.

Each check says nothing where the camera saw nothing: a battle pile never seen is no evidence that a side
was stopped (a pile outside the zone, hidden, or not yet read must not flag every play of the hand).

>>> piles = SidePiles(battle=(PileCard(10, Card.ROLL), PileCard(40, Card.STOP)))
>>> check_play_on_piles(TablePlay("North", Card.DISTANCE_100, False, 60), piles).breach
<Breach.STOPPED: 'stopped'>
>>> check_play_on_piles(TablePlay("North", Card.DISTANCE_100, False, 30), piles) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

from scoring.cards import HAZARDS, REMEDIES, REMEDY_FOR, SAFETY_AGAINST, SAFETY_PROTECTS, Card
from scoring.rules import RULE_SETS

BATTLE_CARDS = frozenset({*(h for h in REMEDY_FOR if h is not Card.SPEED_LIMIT),
                          *(r for h, r in REMEDY_FOR.items() if h is not Card.SPEED_LIMIT)})
"""The cards laid on a side's battle pile: the hazards that stop it, their remedies and Roll."""
SPEED_CARDS = frozenset({Card.SPEED_LIMIT, Card.END_OF_LIMIT})
"""The cards of a side's speed pile."""
ATTACK_TAKEN_AWAY_FRAMES = 20
"""A coup fourré takes the attack off the pile (the card under it shows again) as the safety is laid: within
this many frames of the safety (2 s at 10 frames a second). Raising it lets a remedy laid on the attack a
turn before pass for the attack taken away; lowering it flags a coup fourré laid slowly."""

UNDER_AN_ATTACK = frozenset(REMEDIES)
"""What an attack can lie on: a Roll or another remedy on the battle pile, an End of Limit on the speed pile. An
attack the camera saw land on a pile whose top it never saw (an arm over it the while) was laid on one of
them, and a coup fourré shows it again."""


class Breach(Enum):
    """A rule of play a counted card breaks, by the piles the camera saw."""

    STOPPED = "stopped"
    """A distance card while the side's battle pile shows a hazard (or, where a Roll is needed, a remedy)."""
    SPEED_LIMIT = "speed_limit"
    """A distance card over the speed limit (only 25 and 50 under a Speed Limit)."""
    UNPROVOKED_COUP_FOURRE = "unprovoked_coup_fourre"
    """A safety laid sideways that does not answer the matching attack, laid on that side just before."""


@dataclass(frozen=True)
class PlayRules:
    """The rules of play one rule set holds the piles to (RULES.md; the seeds' rule sheets)."""

    roll_after_remedy: bool = True
    """A side needs a Roll on its battle pile to drive after a remedy (Right of Way excepted): the Parker
    Brothers rule sheet, "each one needs its remedy, then a Roll to get going again"."""
    speed_limit_km: int = 50
    """The largest distance card a side under a Speed Limit may play."""


PLAY_RULES: Mapping[str, PlayRules] = MappingProxyType({name: PlayRules() for name in RULE_SETS})
"""Each rule set's rules of play. The rule sets of RULES.md differ in how a hand is counted, not in how it is
played: every one plays by the Parker Brothers rules of play (its scoring is the difference)."""


@dataclass(frozen=True)
class PileCard:
    """A card that came on top of a pile (battle, speed or safeties) in a frame."""

    frame: int
    """The frame from which it was seen on top (when it landed)."""
    card: Card


@dataclass(frozen=True)
class SidePiles:
    """What one side's piles showed over the hand, oldest first."""

    battle: tuple[PileCard, ...] = ()
    speed: tuple[PileCard, ...] = ()
    safeties: tuple[PileCard, ...] = ()
    """The safeties counted for the side, each with the frame it landed in."""

    def top(self, pile: tuple[PileCard, ...], before: int) -> Card | None:
        """The card on top of ``pile`` just before frame ``before`` (``None``: nothing seen there yet)."""
        return next((p.card for p in reversed(pile) if p.frame < before), None)

    def has_safety(self, safety: Card, before: int) -> bool:
        return any(p.card is safety and p.frame < before for p in self.safeties)


@dataclass(frozen=True)
class TablePlay:
    """A counted card of a side: what landed, how, and in which frame."""

    side: str
    card: Card
    sideways: bool
    frame: int


@dataclass(frozen=True)
class RuleBreach:
    """A counted card that breaks a rule of play, and a sentence a player understands."""

    breach: Breach
    play: TablePlay
    message: str


def check_distance(play: TablePlay, piles: SidePiles, rules: PlayRules = PlayRules()) -> RuleBreach | None:
    """Whether the side could drive ``play``'s distance card by its battle and speed piles.

    Stopped: a hazard on top of the battle pile that no safety of the side protects against, or (where
    ``rules`` say so) a remedy other than Roll without Right of Way. Speed limit: a Speed Limit on top of
    the speed pile, no Right of Way, and a card over ``rules.speed_limit_km``.
    """
    card, at = play.card, play.frame
    if not card.is_distance:
        return None
    right_of_way = piles.has_safety(Card.RIGHT_OF_WAY, at + 1)
    top = piles.top(piles.battle, at)
    if top is not None and top in HAZARDS and not piles.has_safety(SAFETY_AGAINST[top], at + 1):
        return RuleBreach(Breach.STOPPED, play, f"{play.side} played a {card.km} at frame {at} "
                                                 f"with a {top.title} on its battle pile")
    if (top is not None and top is not Card.ROLL and top not in HAZARDS and rules.roll_after_remedy
            and not right_of_way):
        return RuleBreach(Breach.STOPPED, play, f"{play.side} played a {card.km} at frame {at} "
                                                 f"with no Roll on its {top.title}")
    limit = piles.top(piles.speed, at)
    if limit is Card.SPEED_LIMIT and not right_of_way and card.km > rules.speed_limit_km:
        return RuleBreach(Breach.SPEED_LIMIT, play, f"{play.side} played a {card.km} at frame {at} "
                                                     f"under a Speed Limit (only 25 and 50)")
    return None


def check_coup_fourre(play: TablePlay, piles: SidePiles, table: Sequence[TablePlay] = (),
                      taken_away_frames: int = ATTACK_TAKEN_AWAY_FRAMES) -> RuleBreach | None:
    """Whether a safety laid sideways answers the matching attack laid on its side right before.

    The attack is the last hazard that came on top of the side's battle or speed pile before the safety, one
    the safety protects against. Between the two, no other counted card (``table``: every side's) landed and
    nothing came on the side's piles but a card under an attack the safety cancels showing again as that attack
    was taken away, within ``taken_away_frames`` (:data:`ATTACK_TAKEN_AWAY_FRAMES` at 10 frames a second) of the safety.
    """
    if not (play.card.is_safety and play.sideways):
        return None
    laid = sorted(((p, pile[k - 1].card if k else None) for pile in (piles.battle, piles.speed)
                   for k, p in enumerate(pile) if p.frame <= play.frame), key=lambda t: t[0].frame)
    attacks = [(p, under) for p, under in laid if p.card in HAZARDS]
    attack, under = attacks[-1] if attacks else (None, None)
    if attack is None or attack.card not in SAFETY_PROTECTS[play.card]:
        seen = "no attack" if attack is None else f"a {attack.card.title}"
        return RuleBreach(Breach.UNPROVOKED_COUP_FOURRE, play,
                          f"{play.side} laid {play.card.title} sideways at frame {play.frame} after {seen}: "
                          "is it a coup fourré?")
    # the safety takes away every attack it protects against (Right of Way: a Stop and a Speed Limit alike)
    shown_again = {u for p, u in attacks if p.card in SAFETY_PROTECTS[play.card]} | {under}
    if None in shown_again:
        shown_again |= UNDER_AN_ATTACK  # what lay under an attack was never seen on top: any card it can be
    since = [p for p, _ in laid if p.frame > attack.frame
             and (p.card not in shown_again or play.frame - p.frame > taken_away_frames)]
    between = [p for p in table if attack.frame < p.frame < play.frame and p != play]
    if since or between:
        other = (f"a {since[0].card.title} came on its pile at frame {since[0].frame}" if since
                 else f"{between[0].side} played a {between[0].card.title} at frame {between[0].frame}")
        return RuleBreach(Breach.UNPROVOKED_COUP_FOURRE, play,
                          f"{play.side} laid {play.card.title} sideways at frame {play.frame}, not right after "
                          f"the {attack.card.title} of frame {attack.frame} ({other}): is it a coup fourré?")
    return None


def check_play_on_piles(play: TablePlay, piles: SidePiles, rules: PlayRules = PlayRules(),
                        table: Sequence[TablePlay] = (), taken_away_frames: int = ATTACK_TAKEN_AWAY_FRAMES) -> RuleBreach | None:
    """The first rule of play ``play`` breaks by its side's piles (:func:`check_distance`,
    :func:`check_coup_fourre`); ``None`` when it breaks none."""
    return check_distance(play, piles, rules) or check_coup_fourre(play, piles, table, taken_away_frames)
