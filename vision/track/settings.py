"""The tracker's settings and the named numbers in its decisions (a card's length is the unit of every distance).

Each says what raising or lowering it does; :class:`ReconcileSettings` holds the ones a caller may change.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from scoring.hand import GOALS
from vision.sources.frames import frames_for
from vision.track.draw_pile import GONE_BEFORE_FRAMES
from vision.track.piles import TOP_FRAMES
from vision.track.rule_checks import ATTACK_TAKEN_AWAY_FRAMES, PlayRules

WHOLE_SHARE = 0.93
"""A box at least this share of the longest one a nearby card was seen with shows a whole card (a box
cut short by a hand over a card, 50 of 64 px, does not)."""
LONGEST_RISE = 0.3
"""A counted card's longest side rises this share of the way to a longer box each time one is seen: the
card's size is learnt in a few frames, while one box a little too long (the card still in the hand, a
shadow along an edge: 56 px for a card seen at 48–52) does not make every later whole box of its column
look cut short (replayed hand 60008: the next 25 waited to the end of the hand)."""

CAMERA_SHIFT_CARDS = 4
"""The camera's shift in a frame is followed when it brings at least this many cards seen (and two more
than no shift does) within 5 % of a card's length of a known card of their id; shifts under 3 % are
left to the matching."""
CAMERA_SHIFT_SHARE = 0.6
"""…and this share of all the cards seen: the camera moves them all (a hand moving some does not)."""
CAMERA_SHIFT_MAX = 0.2
"""The largest shift looked for in one frame, as a share of a card's length (under a column's step)."""

# -- the numbers in the tracker's decisions (a card's length is the unit of every distance) --------------

CARD_LENGTH_BEFORE_SEEN_PX = 80.0
"""A card's length in pixels until a frame has measured one (a card at 1280 × 720 from a usual height,
DESIGN.md). Only the first frames use it: raising it widens every radius and step until then, lowering it
narrows them."""
CARD_LENGTH_LEARN = 0.2
"""The share of each frame's own measure of a card's length taken into the length learnt so far (the rest
is kept): raising it follows a camera moved closer or further sooner, lowering it keeps the size steadier."""
CAMERA_SHIFT_LANDS_SHARE = 0.05
"""A card lands on a known card of its id under a tried camera shift when within this share of a card's
length of it: raising it lets looser shifts win (and a hand moving a few cards pass for the camera)."""
CAMERA_SHIFT_LEAST_SHARE = 0.03
"""A camera shift smaller than this share of a card's length is left to the matching: raising it leaves
more small shifts to the matching's radii, lowering it moves every place for jitter."""
EVIDENCE_HEAD_START = 0.4
"""A decided card's confidence is its reads' mean times ``min(1, hits / vote_window_frames + this)``:
with it a card seen in most of its vote window counts nearly full. Raising it trusts short sightings more;
lowering it makes cards seen briefly less sure (and their sides' confidence lower)."""
SHORTEST_COLUMN_STEP = 0.12
"""The least step, in card lengths, between a card of a column and the next laid over it, where no tighter
one is asked (:data:`TIGHTEST_STEP`): raising it takes more close boxes for the same card, lowering it
takes more for a new one."""
LONGEST_COLUMN_STEP = 0.6
"""The longest step, in card lengths, between two cards laid one over the other in a column (strips of
20–30 mm are 0.23–0.34 of a card): raising it takes cards further down a column for the next one."""
COLUMN_ACROSS_SHARE = 0.2
"""How far across a column, in card lengths, the next card may lie and still be of that column:
raising it joins cards of neighbouring columns, lowering it splits a column laid askew."""
FLAGGED_SIDE_CONFIDENCE = 0.5
"""A side's confidence is multiplied by this while a flag about it is open (a person should look)."""
HALF_SEEN_SIDE_CONFIDENCE = 0.8
"""…and by this while one of its cards is seen but not yet decided."""

EXTENSION_AT = min(GOALS)
"""In a 700-km hand, the side that reaches exactly this may call the extension to 1,000."""


NOT_A_STRIP_SHARE = 0.85
"""A box at least this share of the longest side its twin was seen with is a card, not a second box on
the twin's strip (a strip's box is as long as a card is wide, 0.64 of its length); looser than
:data:`WHOLE_SHARE`, as the same card's size changes across a tilted camera's picture."""
TIGHTEST_STEP = 0.05
"""The least step between two cards of a column, in card lengths, that the tracker tells apart. Columns
are laid with 20–30 mm strips (0.23–0.34 of a card), but under a tilted camera the top edges of a strip's
box and of the card laid over it were seen as little as 0.08 of a card apart (replayed hand 60013)."""
AT_HOME_SHARE = 0.5
"""A card seen within this share of ``same_card_radius`` of where a counted card was last seen whole is
that card (boxes of one card seen whole lie a few pixels apart; the cards of a column laid tight lie
about a ``same_card_radius`` apart)."""
PILE_CHECK_AFTER = 2
"""A counted card is held to its side's piles this many frames past a pile's ``pile_top_frames`` after it was
counted: a Roll or an attack laid just before it has come on top of its pile by then (:mod:`vision.track.piles`)."""
COLUMN_STEPS_HIDDEN = 4
"""A hand laying a card at the foot of a column of small cards can hide this many of the column's cards."""


@dataclass(frozen=True)
class ReconcileSettings:
    """How much evidence the tracker wants before it believes a card was played."""

    minimum_frames_seen: int = 3
    """A new card counts once it was seen in this many of the last :attr:`vote_window_frames` frames.
    Raising it rejects more flicker and wrong readings but delays each play on the display;
    lowering it shows plays sooner and lets brief misreadings through as phantom cards."""
    vote_window_frames: int = 5
    """The frames the vote looks back over. Wider tolerates a card hidden now and then while it
    settles (a hand still over it); narrower forgets a half-seen card sooner."""
    mixed_column_frames: int = 5
    """A side's column read as different values in this many frames running is flagged for a person.
    Raising it lets a passing misreading go unflagged longer; lowering it flags a column while a hand
    is still laying its next card."""
    minimum_evidence: float = 2.5
    """…and once the confidences of those sightings add up to this much: three sure sightings (0.85 and
    more) count, a card read doubtfully (a hand's edge or an arm over it, a box cut askew) needs four or
    five in the window. Raising it delays doubtful cards; lowering it lets a few frames of odd, doubtful
    boxes count (at 2.0, a white floor tile boxed and read as a 25 at 0.3–0.55 for 13 frames was counted
    in development hand 50005; at 2.5 the 43 development hands gave no phantom, 39 exact either way, one
    more play late and one more missed)."""
    minimum_confidence: float = 0.3
    """Sightings less sure than this (detector times recogniser) do not vote at all."""
    same_card_radius: float = 0.18
    """Two sightings of one card id on one side whose top edges are closer than this share of a
    card's length are the same card. It must stay under the step of an overlapping column
    (20–30 mm of an 87 mm card); raising it merges a new card in a column into the one above it,
    lowering it makes a card nudged a little count twice (see :attr:`moved_card_radius`)."""
    place_smoothing: float = 0.5
    """Each frame a counted card's known place moves this share of the way to where it was seen: one
    frame's odd box (a hand's edge over it, the camera shaking) moves it half way only, and a card that
    really moved is followed within a few frames."""
    moved_card_radius: float = 0.8
    """A newly confirmed card lying within this share of a card's length of a counted card of the
    same id that has not been seen since, is that card moved (knocked askew), not a new one,
    unless it lies further down the card's column (the next cards laid over it, see :data:`COLUMN_STEPS_HIDDEN`)."""
    minimum_frames_at_end: int = 2
    """When the source ends, a card seen in every frame since it appeared counts after this many
    (a recording that stops right after the last card was laid leaves no time for the full vote)."""
    doubt_seen_under: int = 10
    doubt_unseen_frames: int = 50
    """A counted card seen in fewer than ``doubt_seen_under`` frames after its vote and in none of the last
    ``doubt_unseen_frames`` is flagged for a person (a phantom of a few frames' odd boxes looks so;
    a card on the table is seen again and again, in a column as a strip)."""
    draw_pile_frames: int = 5
    """The draw pile is believed gone (or back) after this many frames in a row that say so."""
    unread_frames: int = 20
    """A side's whole face-up cards left unread in most of its last this many frames with cards flag the hand
    as it ends (:class:`~vision.track.doubts.UnreadCards`)."""
    pile_top_frames: int = TOP_FRAMES
    """Frames a new card of a battle or speed pile is seen in before it is on top (:mod:`vision.track.piles`)."""
    attack_taken_away_frames: int = ATTACK_TAKEN_AWAY_FRAMES
    """How long before a coup fourré its attack may be taken away (:func:`~vision.track.rule_checks.check_coup_fourre`)."""
    draw_pile_gone_before_frames: int = GONE_BEFORE_FRAMES
    """How long before the last card the draw pile must have gone (:mod:`vision.track.draw_pile`)."""
    play_rules: PlayRules = PlayRules()
    """The rules of play counted cards are held to by their sides' piles (a Roll to drive, the speed limit;
    :data:`~vision.track.rule_checks.PLAY_RULES` has each rule set's)."""

    def __post_init__(self) -> None:
        if not 1 <= self.minimum_frames_seen <= self.vote_window_frames:
            raise ValueError(
                f"minimum_frames_seen must be 1 to vote_window_frames ({self.vote_window_frames}), "
                f"not {self.minimum_frames_seen}"
            )
        if not 0 <= self.minimum_evidence <= self.vote_window_frames:
            raise ValueError(f"minimum_evidence must be 0 to vote_window_frames ({self.vote_window_frames}), "
                             f"not {self.minimum_evidence}")
        if not 0 < self.same_card_radius < self.moved_card_radius:
            raise ValueError("same_card_radius must be above 0 and below moved_card_radius")
        if not 0 < self.place_smoothing <= 1:
            raise ValueError(f"place_smoothing must be above 0 and at most 1, not {self.place_smoothing}")
        for name in ("draw_pile_frames", "pile_top_frames", "mixed_column_frames", "unread_frames"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)}")

    def at_rate(self, fps: float) -> ReconcileSettings:
        """These settings for a camera filming ``fps`` frames a second (the frame counts are set for
        :data:`~vision.sources.frames.DEFAULT_FPS`, 10: unchanged).

        The counts that stand for a time keep that time (:func:`frames_for`): a pile's new top, a column read
        mixed, a counted card unseen, the draw pile gone, an attack taken away. The vote's counts stand for looks
        at a card and stay: at 5 frames a second a card is counted after three sure sightings as at 10, later.
        """
        if not fps > 0:
            raise ValueError(f"a camera rate is above 0 frames a second, not {fps}")
        timed: dict[str, Any] = {name: frames_for(getattr(self, name), fps) for name in TIMED_COUNTS}
        return replace(self, **timed)


TIMED_COUNTS = ("mixed_column_frames", "doubt_seen_under", "doubt_unseen_frames", "draw_pile_frames",
                "pile_top_frames", "attack_taken_away_frames", "draw_pile_gone_before_frames", "unread_frames")
"""The :class:`ReconcileSettings` counted in frames that stand for a time (:meth:`ReconcileSettings.at_rate`)."""
