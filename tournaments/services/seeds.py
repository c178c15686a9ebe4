"""Seeds set by hand: the organiser numbers the entered pairs before the start (1 = strongest).
The draw (manager.seed_entries) uses them when the competition's seeding is *by hand*; each pair
whose seed changed gets an audit line naming it, with its seed before and after."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import AuditEntry, Competition, Entry
from tournaments.services.manager import CompetitionError
from tournaments.services.organiser import _audit, _lock


def seedable(competition: Competition) -> list[Entry]:
    """The pairs the organiser numbers: the entered ones, in their present seed order (unseeded last)."""
    return list(Entry.objects.filter(competition=competition, status=Entry.Status.CONFIRMED, evens_the_count=False)
                .order_by("seed", "pk"))


def set_seeds(competition: Competition, seeds: dict[int, int], actor) -> int:
    """Store `seeds` ({entry id: seed}, checked by the form: every pair once, 1 to N). Returns how
    many pairs' seeds changed. Refused once the competition has started or is not seeded by hand."""
    with transaction.atomic():
        locked = _lock(competition.pk)
        if locked.status != Competition.Status.OPEN:
            raise CompetitionError(_("The competition has started: its seeds can no longer change."))
        if locked.seeding != Competition.Seeding.HAND:
            raise CompetitionError(_("This competition is seeded by rating: choose seeding by hand in its form first."))
        entries = {e.pk: e for e in seedable(locked)}
        if set(seeds) != set(entries) or sorted(seeds.values()) != list(range(1, len(entries) + 1)):
            raise CompetitionError(_("The pairs entered changed meanwhile: number them again."))
        changed = [e for pk, e in entries.items() if e.seed != seeds[pk]]
        for entry in changed:
            _audit(locked, actor, AuditEntry.Action.SEEDED, entry=entry,
                   detail={"seed": seeds[entry.pk], "before": entry.seed})
            entry.seed = seeds[entry.pk]
        Entry.objects.bulk_update(changed, ["seed"])
    return len(changed)
