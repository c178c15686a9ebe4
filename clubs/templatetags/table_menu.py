"""The table's menu of a player's table settings (issue 32): ``{% load table_menu %}`` then
``{% table_menu request %}`` on the table page (gameplay knows nothing of clubs' forms)."""

from django import template

from clubs.forms import TableSettingsForm

register = template.Library()


@register.inclusion_tag("clubs/table_menu.html")
def table_menu(request):
    user = request.user
    player = getattr(user, "player", None) if user.is_authenticated else None
    return {"form": TableSettingsForm(instance=player) if player else None, "next": request.get_full_path()}
