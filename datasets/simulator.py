"""A rules-aware hand simulator: plays legal Mille Bornes hands for 2–4 sides from a seed.

Players are rule-of-thumb bots (finish the trip, mend hazards, roll, drive with the largest
card, attack the leader, keep safeties for coups fourrés, discard what is least useful), with a
little randomness. Every play is legal, so the sequence of plays and the hand record after each
play are truths a camera must recover.

>>> hand = simulate_hand(seed=3, sides=2)
>>> hand.plays[0].side in ("South", "North"), hand.records[-1] == hand.final_record
(True, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum

from datasets.errors import SceneSpecError
from datasets.table import SIDE_NAMES, SideTable, TableState
from scoring.cards import (
    HAZARDS,
    MAX_200S_PER_HAND,
    REMEDY_FOR,
    SAFETY_AGAINST,
    SAFETY_PROTECTS,
    Card,
    deck,
)
from scoring.hand import EXTENDED_GOAL, HandRecord


class Pile(Enum):
    """Where a card goes when played."""

    DISTANCE = "distance"
    BATTLE = "battle"
    SPEED = "speed"
    SAFETIES = "safeties"
    DISCARD = "discard"


@dataclass(frozen=True)
class Play:
    """One card laid on the table."""

    player: str
    """The side whose player laid the card."""
    card: Card
    pile: Pile
    onto: str | None
    """The side whose pile received it (a hazard goes onto an opponent); ``None`` for the discard pile."""
    sideways: bool = False
    """A safety laid crosswise as a coup fourré."""
    extension_called: bool = False
    """This play reached 700 and the player called the extension."""

    @property
    def side(self) -> str:
        """The side the card lies in front of (the player for a discard)."""
        return self.onto if self.onto is not None else self.player

    def to_json(self) -> dict[str, object]:
        return {"player": self.player, "card": self.card.value, "pile": self.pile.value, "onto": self.onto,
                "sideways": self.sideways, "extension_called": self.extension_called}


@dataclass(frozen=True)
class SimulatedHand:
    """A whole hand: the plays and, after each play, the table and the hand record."""

    seed: int
    plays: tuple[Play, ...]
    tables: tuple[TableState, ...]
    """``tables[i]`` is the table after ``plays[i]``; ``initial`` is before the first play."""
    initial: TableState

    @property
    def records(self) -> tuple[HandRecord, ...]:
        return tuple(t.record() for t in self.tables)

    @property
    def final_record(self) -> HandRecord:
        return self.tables[-1].record() if self.tables else self.initial.record()


def default_goal(sides: int) -> int:
    """700 km for the classic 2- and 3-player games, 1,000 otherwise."""
    return 700 if sides in (2, 3) else 1000


def simulate_hand(
    seed: int, sides: int = 2, *, goal: int | None = None, hand_size: int = 6, max_plays: int = 400
) -> SimulatedHand:
    """Play one hand with ``sides`` players (2–4) from a seed; deterministic.

    :raises SceneSpecError: for a number of sides other than 2–4 or a goal other than 700/1000.
    """
    if not 2 <= sides <= 4:
        raise SceneSpecError(f"the simulator plays 2 to 4 sides, not {sides}")
    goal = default_goal(sides) if goal is None else goal
    if goal not in (700, 1000):
        raise SceneSpecError(f"a goal is 700 or 1000, not {goal}")
    return _Hand(random.Random(seed), sides, goal, hand_size).play(seed, max_plays)


class _Hand:
    def __init__(self, rng: random.Random, n: int, goal: int, hand_size: int) -> None:
        self.rng = rng
        pile = [c for c, k in deck(n).items() for _ in range(k)]
        rng.shuffle(pile)
        self.pile = pile
        self.names = list(SIDE_NAMES[:n])
        self.hands: dict[str, list[Card]] = {s: [] for s in self.names}
        for _ in range(hand_size):
            for s in self.names:
                self.hands[s].append(self.pile.pop())
        self.table = TableState(goal=goal, sides=[SideTable(s) for s in self.names], draw_pile=len(self.pile))
        self.plays: list[Play] = []
        self.tables: list[TableState] = []
        self.extension_decided = goal == EXTENDED_GOAL

    # -- state queries --------------------------------------------------------------

    def side(self, name: str) -> SideTable:
        return self.table.sides[self.names.index(name)]

    def has(self, name: str, safety: Card) -> bool:
        return any(c is safety for c, _ in self.side(name).safeties)

    def goal(self) -> int:
        return EXTENDED_GOAL if self.table.extension_called_by else self.table.goal

    def moving(self, name: str) -> bool:
        top = self.side(name).battle[-1] if self.side(name).battle else None
        if top is Card.ROLL:
            return True
        row = self.has(name, Card.RIGHT_OF_WAY)
        return row and (top is None or top not in HAZARDS)

    def limited(self, name: str) -> bool:
        sp = self.side(name).speed
        return bool(sp) and sp[-1] is Card.SPEED_LIMIT and not self.has(name, Card.RIGHT_OF_WAY)

    def legal(self, name: str, card: Card) -> list[Play]:
        """Every legal way for ``name`` to play ``card`` (discarding is always legal too)."""
        me = self.side(name)
        top = me.battle[-1] if me.battle else None
        out: list[Play] = []
        if card.is_distance:
            twos = sum(1 for c in me.distance if c is Card.DISTANCE_200)
            if (
                self.moving(name)
                and me.km + card.km <= self.goal()
                and not (card is Card.DISTANCE_200 and twos >= MAX_200S_PER_HAND)
                and not (self.limited(name) and card.km > 50)
            ):
                out.append(Play(name, card, Pile.DISTANCE, name))
        elif card.is_safety:
            out.append(Play(name, card, Pile.SAFETIES, name))
        elif card is Card.SPEED_LIMIT:
            for other in self.names:
                if other != name and not self.has(other, Card.RIGHT_OF_WAY) and not self.limited(other):
                    out.append(Play(name, card, Pile.SPEED, other))
        elif card in HAZARDS:
            for other in self.names:
                if other != name and self.moving(other) and not self.has(other, SAFETY_AGAINST[card]):
                    out.append(Play(name, card, Pile.BATTLE, other))
        elif card is Card.END_OF_LIMIT:
            if me.speed and me.speed[-1] is Card.SPEED_LIMIT:
                out.append(Play(name, card, Pile.SPEED, name))
        elif card is Card.ROLL:
            if not self.has(name, Card.RIGHT_OF_WAY) and (top is None or top is Card.STOP or (top not in HAZARDS and top is not Card.ROLL)):
                out.append(Play(name, card, Pile.BATTLE, name))
        else:  # the other remedies
            if top is not None and top in HAZARDS and REMEDY_FOR[top] is card:
                out.append(Play(name, card, Pile.BATTLE, name))
        return out

    # -- applying plays -------------------------------------------------------------

    def apply(self, play: Play) -> None:
        self.hands[play.player].remove(play.card)
        t = self.side(play.onto) if play.onto else None
        if play.pile is Pile.DISTANCE and t:
            t.distance.append(play.card)
        elif play.pile is Pile.BATTLE and t:
            t.battle.append(play.card)
        elif play.pile is Pile.SPEED and t:
            t.speed.append(play.card)
        elif play.pile is Pile.SAFETIES and t:
            t.safeties.append((play.card, play.sideways))
        else:
            self.table.discard.append(play.card)
        if play.extension_called:
            self.table.extension_called_by = play.player
        self.plays.append(play)
        self.tables.append(self.table.copy())

    def draw(self, name: str) -> None:
        if self.pile:
            self.hands[name].append(self.pile.pop())
            self.table.draw_pile = len(self.pile)

    # -- a turn ---------------------------------------------------------------------

    def choose(self, name: str) -> Play:
        """A sensible player's turn, in order: finish the trip, mend a hazard, get rolling, lift a
        limit, drive (the largest card that fits), attack the leader, lay a safety, discard.

        A little randomness keeps hands varied; safeties are mostly kept back for coups fourrés.
        """
        options = [p for c in set(self.hands[name]) for p in self.legal(name, c)]
        options.sort(key=lambda p: (p.card.value, p.onto or ""))  # set order is not deterministic
        rng = self.rng
        me = self.side(name)
        top = me.battle[-1] if me.battle else None
        distance = sorted((p for p in options if p.pile is Pile.DISTANCE), key=lambda p: -p.card.km)
        fixes = [p for p in options if p.pile in (Pile.BATTLE, Pile.SPEED) and p.onto == name]
        attacks = [p for p in options if p.card in HAZARDS and p.onto != name]
        safeties = [p for p in options if p.pile is Pile.SAFETIES]
        if distance and me.km + distance[0].card.km == self.goal():
            return distance[0]
        exact = [p for p in distance if me.km + p.card.km == self.goal()]
        if exact:
            return exact[0]
        # a hazard on my battle pile: its remedy, else the safety that cancels it
        if top is not None and top in HAZARDS:
            cure = [p for p in fixes if p.pile is Pile.BATTLE and p.card is REMEDY_FOR[top]]
            if cure:
                return cure[0]
            guard = [p for p in safeties if p.card is SAFETY_AGAINST[top]]
            if guard:
                return guard[0]
        roll = [p for p in fixes if p.card is Card.ROLL]
        if roll and not self.moving(name):
            return roll[0]
        way = [p for p in safeties if p.card is Card.RIGHT_OF_WAY]
        if way and not self.moving(name) and (top is None or top is Card.STOP or top not in HAZARDS):
            return way[0]  # stuck for want of a roll: right of way gets the side going for good
        leader = self._leader(name)
        threat = leader is not None and self.side(leader).km >= max(me.km, self.goal() - 300)
        on_leader = [p for p in attacks if p.onto == leader]
        if threat and on_leader and rng.random() < 0.8:
            return self._strongest(on_leader)
        lift = [p for p in fixes if p.card is Card.END_OF_LIMIT]
        if lift and (not distance or distance[0].card.km <= 50) and rng.random() < 0.9:
            return lift[0]
        if distance and rng.random() < 0.95:
            return distance[0] if rng.random() < 0.85 else rng.choice(distance)
        # attack a side that is ahead (or not far behind); a side well behind is no danger yet
        worth = [p for p in attacks if self.side(p.onto or "").km >= me.km - 100]
        if worth and rng.random() < 0.9:
            return self._strongest(worth)
        if lift:
            return lift[0]
        if safeties and (not self.pile or rng.random() < 0.3 or all(c.is_safety for c in self.hands[name])):
            return next((p for p in safeties if p.card is Card.RIGHT_OF_WAY), rng.choice(safeties))
        return Play(name, self._spare(name), Pile.DISCARD, None)

    def _leader(self, name: str) -> str | None:
        """The opponent furthest along the trip (ties: the first in seating order)."""
        others = [o for o in self.names if o != name]
        return max(others, key=lambda o: self.side(o).km) if others else None

    def _strongest(self, attacks: list[Play]) -> Play:
        """A stop or a breakdown before a speed limit, on the side furthest along."""
        return max(attacks, key=lambda p: (self.side(p.onto or "").km, p.card is not Card.SPEED_LIMIT, p.card.value))

    def _spare(self, name: str) -> Card:
        """The card least worth keeping (never a safety while another card remains)."""
        me = self.side(name)
        hand = self.hands[name]
        left = self.goal() - me.km
        twos = sum(1 for c in me.distance if c is Card.DISTANCE_200)
        protected = {c for c, _ in me.safeties}
        others = [o for o in self.names if o != name]

        def useless(card: Card) -> float:
            copies = sum(1 for c in hand if c is card)
            if card.is_safety:
                return -100.0
            if card.is_distance:
                if card.km > left or (card is Card.DISTANCE_200 and twos + copies > MAX_200S_PER_HAND):
                    return 50.0  # can never be played
                return {25: 8.0, 50: 6.0, 75: 5.0, 100: 4.0, 200: 3.0}[card.km]
            if card in HAZARDS:
                if all(self.has(o, SAFETY_AGAINST[card]) for o in others):
                    return 45.0  # nobody left to lay it on
                return 7.0 + 4 * (sum(1 for c in hand if c in HAZARDS) > 1)  # keep a couple of attacks
            # remedies, roll and end of limit: rolls are scarce (every hazard costs one), keep them
            guarded = [h for h in HAZARDS if REMEDY_FOR[h] is card]
            if guarded and all(any(h in SAFETY_PROTECTS[s] for s in protected) for h in guarded):
                return 40.0  # my own safety already protects me
            if card is Card.ROLL:
                return 40.0 if Card.RIGHT_OF_WAY in protected else 1.0 + 20 * (copies > 2)
            return 2.0 + 18 * (copies > 1)

        scores = [(useless(c), c.value) for c in hand]
        best = max(scores)
        return next(c for c in hand if (useless(c), c.value) == best)

    def coup_fourre(self, hazard_play: Play) -> bool:
        """The victim answers a hazard with the matching safety from their hand, sideways."""
        victim = hazard_play.onto or ""
        safety = SAFETY_AGAINST[hazard_play.card]
        if safety not in self.hands[victim] or self.rng.random() > 0.85:
            return False
        # the hazard is cancelled: it leaves the battle/speed pile for the discard pile
        t = self.side(victim)
        (t.battle if hazard_play.pile is Pile.BATTLE else t.speed).pop()
        self.table.discard.append(hazard_play.card)
        self.apply(Play(victim, safety, Pile.SAFETIES, victim, sideways=True))
        self.after_safety(victim, safety)
        self.tables[-1] = self.table.copy()
        self.draw(victim)
        return True

    def after_safety(self, name: str, safety: Card) -> None:
        """A safety cancels a hazard it protects against that lies on the side's piles."""
        t = self.side(name)
        for pile in (t.battle, t.speed):
            if pile and pile[-1] in SAFETY_PROTECTS[safety]:
                self.table.discard.append(pile.pop())

    def play(self, seed: int, max_plays: int) -> SimulatedHand:
        initial = self.table.copy()
        turn = self.rng.randrange(len(self.names))
        idle = 0
        while len(self.plays) < max_plays:
            name = self.names[turn]
            self.draw(name)
            if not self.hands[name]:
                idle += 1
                if idle >= len(self.names):
                    break
                turn = (turn + 1) % len(self.names)
                continue
            idle = 0
            play = self.choose(name)
            km_after = self.side(name).km + play.card.km if play.pile is Pile.DISTANCE else -1
            if km_after == self.table.goal == 700 and not self.extension_decided:
                self.extension_decided = True
                if self.rng.random() < 0.5:
                    play = Play(play.player, play.card, play.pile, play.onto, extension_called=True)
            self.apply(play)
            if play.pile is Pile.SAFETIES:
                self.after_safety(name, play.card)
                self.tables[-1] = self.table.copy()
                continue  # a safety gives another turn
            if play.pile is Pile.DISTANCE and self.side(name).km == self.goal():
                break
            if play.card in HAZARDS and play.onto and self.coup_fourre(play):
                turn = self.names.index(play.onto)  # play continues from the side that called it
                continue
            turn = (turn + 1) % len(self.names)
        self.table.finished = True
        if self.tables:
            self.tables[-1] = self.table.copy()
        return SimulatedHand(seed=seed, plays=tuple(self.plays), tables=tuple(self.tables), initial=initial)
