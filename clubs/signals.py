from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save
from django.dispatch import Signal, receiver
from django.utils import translation

from clubs.models import Player

# `member_invited(sender=MemberInvitation, invitation=...)`, after the commit that invited a player
# by name: the competitions' notifications (tournaments/receivers.py) tell the invitee.
member_invited = Signal()
# `member_invitation_answered(sender=MemberInvitation, invitation=...)`, after the commit of the
# invitee's answer: their notification of it is read.
member_invitation_answered = Signal()


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="clubs.create_player")
def create_player(sender, instance, created, raw=False, **kwargs):
    """Every user has a Player, however the user was made (sign-up, admin, createsuperuser)."""
    if created and not raw:
        Player.objects.get_or_create(user=instance)


@receiver(user_logged_in, dispatch_uid="clubs.speak_preferred_language")
def speak_preferred_language(sender, request, user, **kwargs):
    """Switch to the profile's language as soon as the player logs in.

    allauth renders its "signed in" message right after this signal, still inside the login
    request; PreferredLanguageMiddleware only switches on the next request, so without this the
    message stayed in the language the anonymous visitor had (English on a Spanish page).
    """
    from clubs.middleware import profile_choices  # the middleware's rule, one place

    language = request and profile_choices(user)[0]
    if language:
        translation.activate(language)
        request.LANGUAGE_CODE = language
