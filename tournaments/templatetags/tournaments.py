from django import template
from django.utils.translation import gettext_lazy as _

register = template.Library()

SHORT = {"buchholz": _("Bu"), "sonneborn_berger": _("SB"), "head_to_head": _("H2H"),
         "game_difference": _("GD"), "game_points": _("GP")}


@register.filter
def tiebreak_text(tiebreaks) -> str:
    """[[name, value], ...] as "Bu 7 · SB 4.5" (unbroken or unused ones left out)."""
    parts = [f"{SHORT.get(name, name)} {value:g}" for name, value in tiebreaks or () if value is not None]
    return " · ".join(parts)
