"""A hand's result read out in words for the table's device (issue 57): "Seat 2 knocks with
6, seat 1 has 13 after lay-offs: seat 2 scores 22". What it says comes from what the engine
worked out (``scoring``: the outcome, an undercut, the points); this module only words it,
in the reader's language, from a score just worked out or from a result saved."""

from __future__ import annotations

from django.utils.translation import gettext

from scoring.hand import HandScore


def reading(outcome: str, *, declarer_seat: int | None, declarer_deadwood: int | None,
            opponent_deadwood: int | None, seat1_points: int,
            false_knock_seat: int | None = None,
            false_knock_deadwood: int | None = None) -> str:
    """The sentence of one hand: ``outcome`` as the engine found it (an undercut says so)."""
    outcome = str(getattr(outcome, "value", outcome))
    before = ""
    if false_knock_seat is not None:
        before = gettext("Seat %(seat)s knocked falsely with %(deadwood)s. ") % {
            "seat": false_knock_seat, "deadwood": false_knock_deadwood}
    if outcome == "draw" or declarer_seat is None:
        return before + gettext("A draw: nobody scores.")
    values = {"declarer": declarer_seat, "opponent": 3 - declarer_seat,
              "mine": declarer_deadwood, "theirs": opponent_deadwood,
              "points": abs(seat1_points)}
    if outcome == "knock":
        line = gettext("Seat %(declarer)s knocks with %(mine)s, seat %(opponent)s has "
                       "%(theirs)s after lay-offs: seat %(declarer)s scores %(points)s.")
    elif outcome == "undercut":
        line = gettext("Seat %(declarer)s knocks with %(mine)s, seat %(opponent)s has "
                       "%(theirs)s after lay-offs: an undercut, seat %(opponent)s scores "
                       "%(points)s.")
    elif outcome == "gin":
        line = gettext("Seat %(declarer)s goes gin, seat %(opponent)s has %(theirs)s: "
                       "seat %(declarer)s scores %(points)s.")
    else:
        line = gettext("Seat %(declarer)s has Big Gin, seat %(opponent)s has %(theirs)s: "
                       "seat %(declarer)s scores %(points)s.")
    return before + line % values


def reading_of_score(score: HandScore, declarer_seat: int | None,
                     false_knock_seat: int | None = None) -> str:
    """A score just worked out by the engine (the device's preview, before a save)."""
    seat1 = score.declarer_points if declarer_seat == 1 else score.opponent_points
    return reading(score.outcome, declarer_seat=declarer_seat,
                   declarer_deadwood=score.declarer_deadwood,
                   opponent_deadwood=score.opponent_deadwood, seat1_points=seat1,
                   false_knock_seat=false_knock_seat,
                   false_knock_deadwood=score.false_knock.deadwood if score.false_knock
                   else None)


def reading_of_result(result) -> str:
    """A result saved (``HandResult``)."""
    return reading(result.outcome, declarer_seat=result.declarer_seat,
                   declarer_deadwood=result.declarer_deadwood,
                   opponent_deadwood=result.opponent_deadwood,
                   seat1_points=result.seat1_points, false_knock_seat=result.false_knock_seat,
                   false_knock_deadwood=result.false_knock_deadwood)
