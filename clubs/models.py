"""Players (the profile of a user), clubs, memberships, invitations, join requests and the audit log.

Who may do what is decided in clubs.permissions; what changes a club is done in clubs.services.
"""

import secrets
import zoneinfo
from functools import cache

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from gameplay.api import Game


def language_choices():
    return settings.LANGUAGES


@cache
def time_zone_choices():
    return [(name, name) for name in sorted(zoneinfo.available_timezones())]


def new_invitation_token() -> str:
    return secrets.token_urlsafe(18)


class HandOrder(models.TextChoices):
    SUIT = "suit", _("By suit")
    RANK = "rank", _("By rank")
    DEALT = "dealt", _("As dealt")


class CardSize(models.TextChoices):
    SMALL = "small", _("Small")
    MEDIUM = "medium", _("Medium")
    LARGE = "large", _("Large")


class Digits(models.TextChoices):
    WESTERN = "western", _("Western digits")
    EASTERN = "eastern", _("Eastern Arabic digits")


class Player(models.Model):
    """A user's public face on Chalk: the name shown at tables and in standings."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player")
    display_name = models.CharField(_("display name"), max_length=60, blank=True)
    preferred_language = models.CharField(
        _("preferred language"), max_length=8, choices=language_choices, default="", blank=True,
        help_text=_("Chalk shows its pages in this language when you are logged in."),
    )
    table_alerts = models.BooleanField(
        _("sound and browser notification when my table opens"), default=False,
        help_text=_("Chalk always takes you to your table when it opens; with this on it also plays a "
                    "sound and shows a notification, if your browser allows it."),
    )
    # The browser's zone from sign-up on (page.js reports it while zone_follows_browser); empty
    # only for an account made elsewhere (the admin) until its first page: pages then use UTC.
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True, default="")
    # True until the player picks a zone in the profile: the zone then stays put when they travel.
    zone_follows_browser = models.BooleanField(default=True)
    # The table as this player likes it (issue 32): the table page reads them (static/js/table.js).
    hand_order = models.CharField(_("order of the cards in my hand"), max_length=8, choices=HandOrder.choices,
                                  default=HandOrder.SUIT)
    four_colour_deck = models.BooleanField(
        _("four-colour deck"), default=False,
        help_text=_("Diamonds blue and clubs green, so no two suits share a colour (the Spanish deck always has four)."))
    card_size = models.CharField(_("card size"), max_length=8, choices=CardSize.choices, default=CardSize.MEDIUM)
    turn_alert = models.BooleanField(
        _("sound and vibration on my turn"), default=False,
        help_text=_("A short beep, and a buzz on a phone that can, when a decision at your table is yours."))
    digits = models.CharField(
        _("digits on Arabic pages"), max_length=8, choices=Digits.choices, default=Digits.WESTERN,
        help_text=_("Every number on a page in Arabic is written with these digits."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self):
        return self.name

    @property
    def name(self):
        return self.display_name or self.user.get_username()


class Club(models.Model):
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(
        _("slug"), max_length=100, unique=True,
        help_text=_("The club's address on Chalk: letters, digits, hyphens and underscores."),
    )
    description = models.TextField(_("description"), blank=True)
    home_games = models.JSONField(
        _("home games"), default=list, blank=True, help_text=_("The games the club plays."))
    time_zone = models.CharField(_("time zone"), max_length=64, choices=time_zone_choices, default="UTC")
    default_language = models.CharField(_("default language"), max_length=8, choices=language_choices, default="en")
    is_public = models.BooleanField(
        _("public"), default=True,
        help_text=_("Anyone can see a public club and ask to join; a private club is visible to its members only."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="clubs_created"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, through="Membership", related_name="clubs")

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        from django.urls import reverse
        return reverse("clubs:detail", args=[self.slug])

    @property
    def home_game_labels(self) -> list[str]:
        labels = dict(Game.choices)
        return [labels[key] for key in self.home_games if key in labels]

    @property
    def first_game(self) -> str:
        return self.home_games[0] if self.home_games else ""


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", _("Owner")
        ORGANISER = "organiser", _("Organiser")
        MEMBER = "member", _("Member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=20, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="one_membership_per_club")]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")

    def __str__(self):
        return f"{self.user} in {self.club} ({self.role})"


class Invitation(models.Model):
    """A link that lets whoever holds it join the club, until it expires, is revoked or used up."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=40, unique=True, default=new_invitation_token, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"))
    max_uses = models.PositiveIntegerField(
        _("maximum uses"), null=True, blank=True, help_text=_("Leave empty for no limit."))
    uses = models.PositiveIntegerField(_("uses"), default=0)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self):
        return f"{self.club} invitation {self.token[:6]}…"

    def get_absolute_url(self):
        from django.urls import reverse
        return reverse("clubs:invitation", args=[self.token])

    @property
    def is_expired(self) -> bool:
        return self.expires_at <= timezone.now()

    @property
    def is_used_up(self) -> bool:
        return self.max_uses is not None and self.uses >= self.max_uses

    @property
    def is_usable(self) -> bool:
        return self.revoked_at is None and not self.is_expired and not self.is_used_up


class MemberInvitation(models.Model):
    """An organiser's invitation of one player by name: the invitee answers it from their home."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        REVOKED = "revoked", _("Revoked")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="member_invitations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_invitations")
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"))
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], condition=models.Q(status="pending"),
                                    name="one_pending_member_invitation_per_club"),
        ]
        verbose_name = _("personal invitation")
        verbose_name_plural = _("personal invitations")

    def __str__(self):
        return f"{self.user} invited to {self.club} ({self.status})"

    @property
    def is_expired(self) -> bool:
        return self.expires_at <= timezone.now()


class JoinRequest(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        APPROVED = "approved", _("Approved")
        DECLINED = "declined", _("Declined")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="join_requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_join_requests")
    message = models.CharField(_("message"), max_length=500, blank=True)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], condition=models.Q(status="pending"),
                                    name="one_pending_request_per_club"),
        ]
        verbose_name = _("join request")
        verbose_name_plural = _("join requests")

    def __str__(self):
        return f"{self.user} → {self.club} ({self.status})"


class AuditEntry(models.Model):
    """One change to a club: who did it, what, to whom, when. Written by clubs.services only."""

    class Action(models.TextChoices):
        CREATED = "created", _("created the club")
        EDITED = "edited", _("edited the club")
        INVITED = "invited", _("created an invitation link")
        INVITED_MEMBER = "invited_member", _("invited a player")
        INVITATION_DECLINED = "invitation_declined", _("declined an invitation")
        REVOKED = "revoked", _("revoked an invitation link")
        JOINED = "joined", _("joined")
        REQUESTED = "requested", _("asked to join")
        APPROVED = "approved", _("approved a join request")
        DECLINED = "declined", _("declined a join request")
        LEFT = "left", _("left")
        REMOVED = "removed", _("removed a member")
        ROLE_CHANGED = "role_changed", _("changed a role")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="audit_entries")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="+")
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    target = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="+")
    detail = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")

    def __str__(self):
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor} {self.action}"

    @property
    def role_change(self) -> tuple[str, str] | None:
        """(old, new) role labels of a role change, translated; None for other actions."""
        labels = dict(Membership.Role.choices)
        old, new = self.detail.get("old"), self.detail.get("new")
        return (labels[old], labels[new]) if old in labels and new in labels else None
