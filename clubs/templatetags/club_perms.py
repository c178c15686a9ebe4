"""Permission questions for templates: ``{% load club_perms %}`` then
``{% if user|can_organise:club %}`` (each filter is the clubs.permissions function of that name;
the answers come from the same cached membership lookup the view used).
"""

from django import template

from clubs import permissions

register = template.Library()

for _name in ("is_member", "is_owner", "can_organise", "can_view_club", "can_manage_roles", "can_invite",
              "can_decide_requests", "can_edit_club", "can_leave", "can_play_in", "can_request_to_join",
              "can_view_audit", "can_create_competition", "can_manage_competition"):
    register.filter(_name, getattr(permissions, _name))
