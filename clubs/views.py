"""Club and player pages. Thin (docs/style.md §5): load rows, ask clubs.permissions, call clubs.services.

Every club URL goes through `club_view`, which gives the answers docs/permissions.md lists:
a private club is a 404 to anyone who may not see it (anonymous users included, so its existence
does not leak); a visible club's restricted page redirects anonymous users to log in and answers
403 to signed-in users without the role. htmx posts get the changed fragment back; plain posts
get a redirect (post/redirect/get) with a message.
"""

from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from clubs import pages, permissions, services
from clubs.forms import (ClubForm, InvitationForm, JoinRequestForm, MemberInvitationForm, ProfileForm, RoleForm,
                         TableSettingsForm)
from clubs.middleware import remember_digits, set_language_cookie
from clubs.models import Club, Invitation, JoinRequest, MemberInvitation, Membership
from config.calendar_tokens import player_token
from config.formatting import valid_zone_names


# ----- the gate every club URL passes --------------------------------------------------------

def club_view(check=None, *, login=False):
    """Decorate `view(request, club, ...)`: 404 if hidden, login redirect, then 403 if `check` fails."""
    def decorator(view):
        @wraps(view)
        def wrapper(request, slug, *args, **kwargs):
            club = get_object_or_404(Club, slug=slug)
            if not permissions.can_view_club(request.user, club):
                raise Http404
            allowed = check is None or check(request.user, club)
            if not request.user.is_authenticated and (login or not allowed):
                return redirect_to_login(request.get_full_path())
            if not allowed:
                raise PermissionDenied
            return view(request, club, *args, **kwargs)
        return wrapper
    return decorator


def done(request, club, message=None, level=messages.SUCCESS, to=None):
    if message:
        messages.add_message(request, level, message)
    return redirect(to or club.get_absolute_url())


# ----- profile and language (foundation) -------------------------------------------------------

@login_required
def profile(request):
    player = services.profile_of(request.user)
    form = ProfileForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid():
        player = services.save_profile(player, **form.cleaned_data)
        remember_digits(request, player.digits)
        return profile_saved(request, player)
    return render(request, "clubs/profile.html", {"form": form, "player": player,
                                                  "calendar_url": player_calendar_url(request)})


@require_POST
def follow_zone(request):
    """page.js reports the browser's zone here for a player who has not picked one: 204 kept or
    unchanged, 400 for a zone that is not real (nothing changes), 403 for a visitor."""
    if not request.user.is_authenticated:
        return HttpResponse(status=403)
    zone = request.POST.get("zone", "")[:64]
    if zone not in valid_zone_names():
        return HttpResponse(_("%(zone)s is not a time zone.") % {"zone": zone}, status=400, content_type="text/plain")
    services.follow_browser_zone(request.user, zone)
    return HttpResponse(status=204)
@login_required
def table_settings(request):
    """The table's menu (templates/gameplay/table_menu.html) posts here, and back to the table;
    a value outside its choices is shown beside its field on this page, the rest as typed."""
    player = services.profile_of(request.user)
    form = TableSettingsForm(request.POST or None, instance=player)
    back = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        back = ""
    if request.method == "POST" and form.is_valid():
        services.save_settings(player, **form.cleaned_data)
        messages.success(request, _("Your table settings have been saved."))
        return redirect(back or "table_settings")
    status = 400 if request.method == "POST" else 200
    return render(request, "clubs/table_settings.html", {"form": form, "next": back}, status=status)


def player_calendar_url(request) -> str:
    return request.build_absolute_uri(reverse("tournaments:player_calendar", args=[player_token(request.user)]))


def profile_saved(request, player):
    language = player.preferred_language or translation.get_language()
    translation.activate(language)  # the confirmation is already in the new language
    messages.success(request, _("Your profile has been saved."))
    response = redirect("profile")
    set_language_cookie(response, language)
    return response


@require_POST
def switch_language(request):
    """Django's set_language, plus: a logged-in player's choice is remembered in the profile."""
    response = set_language(request)
    language = request.POST.get("language")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        services.remember_language(request.user, language)
    return response


def player_page(request, username):
    """A player's public page: name, clubs the viewer may see, ratings, recent matches."""
    user = get_object_or_404(get_user_model().objects.select_related("player"), username=username)
    return render(request, "clubs/player.html", pages.player_context(request.user, user))


# ----- clubs -----------------------------------------------------------------------------------

def club_list(request):
    return render(request, "clubs/club_list.html", pages.club_list_context(request.user))


@login_required
def club_create(request):
    form = ClubForm(request.POST or None, initial={"default_language": translation.get_language(),
                                                   "time_zone": pages.creator_zone(request.user)})
    if request.method == "POST" and form.is_valid():
        try:
            club = services.create_club(request.user, **form.club_fields())
        except services.ClubError as error:
            form.add_error("slug", error.message)
        else:
            return done(request, club, _("Your club is ready. Invite players with a link."))
    return render(request, "clubs/club_form.html", {"form": form, "club": None})


@club_view()
def club_detail(request, club):
    return render(request, "clubs/club_detail.html", pages.club_context(request.user, club))


@club_view(permissions.can_edit_club)
def club_edit(request, club):
    form = ClubForm(request.POST or None, instance=Club.objects.get(pk=club.pk))
    if request.method == "POST" and form.is_valid():
        try:
            club = services.update_club(request.user, club, **form.club_fields())
        except services.ClubError as error:
            form.add_error(None, error.message)
        else:
            return done(request, club, _("The club has been saved."))
    return render(request, "clubs/club_form.html", {"form": form, "club": club})


@club_view(permissions.can_play_in)
def play_now(request, club):
    """Open the new-table form with the club's first home game chosen."""
    query = urlencode({"game": club.first_game}) if club.first_game else ""
    return redirect(reverse("gameplay:new") + (f"?{query}" if query else ""))


@club_view(permissions.can_view_audit)
def audit_log(request, club):
    entries = club.audit_entries.select_related("actor__player", "target__player")[:200]
    return render(request, "clubs/audit_log.html", {"club": club, "entries": entries})


# ----- members ---------------------------------------------------------------------------------

@club_view(permissions.can_view_members)
def members(request, club):
    return render(request, "clubs/members.html", pages.members_context(request.user, club))


def membership_of(club, user_id) -> Membership:
    """The membership in *this* club (a forged id from another club is a 404)."""
    return get_object_or_404(Membership.objects.select_related("user__player", "club"), club=club, user_id=user_id)


@require_POST
@club_view(login=True)
def member_role(request, club, user_id):
    membership = membership_of(club, user_id)
    if not permissions.can_manage_roles(request.user, club):
        raise PermissionDenied
    form = RoleForm(request.POST)
    error = None
    if form.is_valid():
        try:
            membership = services.change_role(request.user, membership, form.cleaned_data["role"])
        except services.ClubError as refused:
            error = refused.message
    else:
        error = _("Choose one of the roles.")
    return member_changed(request, club, membership, error, _("The role has been changed."))


def member_changed(request, club, membership, error, success):
    if request.htmx:
        context = {"club": club, "membership": membership, "error": error, "saved": not error,
                   "can": pages.abilities(request.user, club), "roles": Membership.Role.choices,
                   "can_remove": permissions.can_remove_member(request.user, club, membership)}
        return render(request, "clubs/partials/member_row.html", context)
    if error:
        return done(request, club, error, messages.ERROR, to=reverse("clubs:members", args=[club.slug]))
    return done(request, club, success, to=reverse("clubs:members", args=[club.slug]))


@require_POST
@club_view(login=True)
def member_remove(request, club, user_id):
    membership = membership_of(club, user_id)
    if not permissions.can_remove_member(request.user, club, membership):
        raise PermissionDenied
    try:
        services.remove_member(request.user, membership)
    except services.ClubError as refused:
        return member_changed(request, club, membership, refused.message, "")
    if request.htmx:
        return render(request, "clubs/partials/member_removed.html", {"membership": membership})
    return done(request, club, _("The member has been removed."), to=reverse("clubs:members", args=[club.slug]))


@require_POST
@club_view(permissions.can_leave)
def leave(request, club):
    try:
        services.leave(request.user, club)
    except services.ClubError as refused:
        return done(request, club, refused.message, messages.ERROR)
    messages.success(request, _("You have left %(club)s.") % {"club": club.name})
    return redirect("clubs:list")


# ----- invitations -----------------------------------------------------------------------------

@club_view(permissions.can_invite)
def invitations(request, club):
    form = InvitationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        services.create_invitation(request.user, club, days=form.cleaned_data["days"],
                                   max_uses=form.cleaned_data["max_uses"])
        return done(request, club, _("A new invitation link is ready to share."),
                    to=reverse("clubs:invitations", args=[club.slug]))
    return invitations_page(request, club, form, MemberInvitationForm(prefix="player"))


def invitations_page(request, club, form, player_form, status=200):
    links = club.invitations.select_related("created_by__player")
    personal = club.member_invitations.select_related("user__player", "invited_by__player")[:50]
    return render(request, "clubs/invitations.html", {"club": club, "form": form, "invitations": links,
                                                      "player_form": player_form, "personal": personal},
                  status=status)


@require_POST
@club_view(permissions.can_invite)
def invite_member(request, club):
    """Invite one player by user name or e-mail: they answer from their home page."""
    form = MemberInvitationForm(request.POST, prefix="player")
    if form.is_valid():
        try:
            invitation = services.invite_member(request.user, club, form.cleaned_data["who"],
                                                days=form.cleaned_data["days"])
        except services.ClubError as refused:
            form.add_error("who", refused.message)
        else:
            return done(request, club, _("%(name)s is invited: they can answer on their home page.")
                        % {"name": invitation.user.player.name}, to=reverse("clubs:invitations", args=[club.slug]))
    return invitations_page(request, club, InvitationForm(), form, status=400)


@require_POST
@club_view(permissions.can_invite)
def member_invitation_revoke(request, club, invitation_id):
    invitation = get_object_or_404(MemberInvitation, club=club, pk=invitation_id)
    services.revoke_member_invitation(request.user, invitation)
    return done(request, club, _("The invitation has been withdrawn."),
                to=reverse("clubs:invitations", args=[club.slug]))


@require_POST
@club_view(permissions.can_invite)
def invitation_revoke(request, club, invitation_id):
    invitation = get_object_or_404(Invitation, club=club, pk=invitation_id)
    services.revoke_invitation(request.user, invitation)
    return done(request, club, _("The invitation link has been revoked."),
                to=reverse("clubs:invitations", args=[club.slug]))


def invitation(request, token):
    """The link itself. Anyone may look (the token is the secret); joining needs an account."""
    invite = get_object_or_404(Invitation.objects.select_related("club"), token=token)
    club, problem = invite.club, services.invitation_problem(invite)
    if request.method == "POST" and not problem:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            services.accept_invitation(request.user, token)
        except services.ClubError as refused:
            return done(request, club, refused.message, messages.INFO)
        return done(request, club, _("Welcome to %(club)s!") % {"club": club.name})
    context = {"club": club, "invitation": invite, "problem": problem,
               "already_member": permissions.is_member(request.user, club)}
    return render(request, "clubs/invitation.html", context, status=410 if problem else 200)


# ----- join requests ---------------------------------------------------------------------------

@club_view(login=True)
def join_request(request, club):
    if not permissions.can_request_to_join(request.user, club):
        raise PermissionDenied
    form = JoinRequestForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.request_to_join(request.user, club, form.cleaned_data["message"])
        except services.ClubError as refused:
            return done(request, club, refused.message, messages.INFO)
        return done(request, club, _("Your request has been sent to the organisers."))
    pending = club.join_requests.filter(user=request.user, status=JoinRequest.Status.PENDING).exists()
    return render(request, "clubs/join_request.html", {"club": club, "form": form, "pending": pending})


@club_view(permissions.can_decide_requests)
def join_requests(request, club):
    pending = club.join_requests.filter(status=JoinRequest.Status.PENDING).select_related("user__player")
    decided = (club.join_requests.exclude(status=JoinRequest.Status.PENDING)
               .select_related("user__player", "decided_by__player").order_by("-decided_at")[:50])
    return render(request, "clubs/join_requests.html", {"club": club, "pending": pending, "decided": decided})


@require_POST
@club_view(permissions.can_decide_requests)
def join_request_decide(request, club, request_id, decision):
    join = get_object_or_404(JoinRequest.objects.select_related("user__player", "club"), club=club, pk=request_id)
    error = None
    try:
        join = services.decide_request(request.user, join, approve=decision == "approve")
    except services.ClubError as refused:
        error = refused.message
    if request.htmx:
        return render(request, "clubs/partials/join_request_row.html",
                      {"club": club, "join": join, "error": error})
    if error:
        return done(request, club, error, messages.INFO, to=reverse("clubs:requests", args=[club.slug]))
    text = _("%(name)s is now a member.") if join.status == JoinRequest.Status.APPROVED else _(
        "The request from %(name)s has been declined.")
    return done(request, club, text % {"name": join.user.player.name},
                to=reverse("clubs:requests", args=[club.slug]))
