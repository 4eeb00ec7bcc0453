"""How the product writes its figures: a share as a percentage that never reads 100% unless it is whole, and
what a clean-up does with a copy, in one line (the command line, exports; the window translates the same
words)."""

from __future__ import annotations

import math

from simdesk.core.cleanup.plan import (
    WHOLE,
    WHY_BELOW,
    WHY_HELD,
    WHY_KEPT,
    WHY_NOTHING_KEPT,
    WHY_PART,
    WHY_QUEUED,
    WHY_SAME,
    WHY_UNSEEN,
    WHY_WORDS,
    Fate,
)

CONTAINED = 0.95  # a share of a text this large is "all of it" where the other way holds less


def percent(share: float) -> str:
    """A share 0..1 as a percentage with one decimal, rounded down: 0.9995 reads 99.9%, never 100.0%, so a
    figure of 100.0% always means the whole text."""
    if share >= WHOLE:
        return "100.0%"
    return f"{math.floor(max(share, 0.0) * 1000) / 10:.1f}%"


def measured(share: float | None) -> float | None:
    """A share, or None when it was not measured (None, or NaN: plain groups, pairs under the share floor)."""
    return None if share is None or share != share else share


def share_text(share: float | None) -> str:
    """percent(share), or "" for a share not measured."""
    value = measured(share)
    return "" if value is None else percent(value)


def contained(held: float | None, holds: float | None) -> bool:
    """Whether a text is held whole by another it is a small part of (a share `held` of it found in the other,
    a share `holds` of the other found in it): shown as "inside", not as a similarity of 100%."""
    return held is not None and holds is not None and held >= CONTAINED and holds < CONTAINED


def fate_reason(fate: Fate, least: float | None) -> str:
    """Why a clean-up keeps, removes or leaves a copy, with the figure it rests on."""
    shown = share_text(fate.held)
    if fate.why == WHY_KEPT:
        return "the copy kept"
    if fate.why == WHY_QUEUED:
        return "queued for the trash"
    if fate.why == WHY_HELD:
        return f"{shown} of its text is in {fate.keeper} (kept)" if shown else f"a copy of {fate.keeper} (kept)"
    if fate.why == WHY_BELOW:
        if not shown:
            return "no copy kept holds its text: it is no copy of one"
        bar = f", under the least similarity {percent(least)}" if least is not None else ""
        return f"only {shown} of its text is in {fate.keeper} (kept){bar}"
    if fate.why == WHY_PART:
        part = f" (it holds only {share_text(fate.holds)} of it)" if share_text(fate.holds) else ""
        return f"all of it is in {fate.keeper} (kept), but it is a passage of that text, not a copy{part}"
    if fate.why == WHY_WORDS:
        return (
            f"a short text that differs from {fate.keeper} (kept) in a word ({shown} of its text is in it): "
            "it may be another saying"
        )
    if fate.why == WHY_SAME:
        return f"the same words as {fate.keeper}, which stays"
    if fate.why == WHY_UNSEEN:
        return "joined the group, or changed, after its copy to keep was marked; decide it first"
    if fate.why == WHY_NOTHING_KEPT:
        return "no copy of its group is kept"
    return fate.why
