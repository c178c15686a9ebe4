"""Who is signed in: the user's row kept in the cache instead of read from the database on
every request.

Django reads the signed-in user's row on every request and socket (the session holds only the
id); under a crowd of players that read was a fifth of the signed-in home's CPU
(benchmarks/pages.py, sampled with py-spy). Here the row is kept for SIGNED_IN_USER_SECONDS
and forgotten whenever it is saved or deleted, so what a save changes counts at the next
request: a new password ends the player's other sessions (Django compares the session's hash
with the row read here), an account made inactive is signed out. A change that bypasses
save() (a queryset's update), or a save made while another request was between reading the
row and keeping it, counts within SIGNED_IN_USER_SECONDS.

The backends are Django's and allauth's, the same two as before, with that one difference.
"""

from __future__ import annotations

from allauth.account import auth_backends as allauth
from django.conf import settings
from django.contrib.auth import backends as django

from config import soft_cache


def user_key(user_id) -> str:
    return f"signed-in-user:{user_id}"


def forget_user(sender, instance, **kwargs) -> None:
    """post_save / post_delete of a user (connected in clubs/apps.py)."""
    soft_cache.delete_many([user_key(instance.pk)])


class KeptUser:
    def get_user(self, user_id):
        seconds = settings.SIGNED_IN_USER_SECONDS
        if seconds <= 0:
            return super().get_user(user_id)
        user = soft_cache.get(user_key(user_id))
        if user is None:
            user = super().get_user(user_id)  # None: no such user, or not active
            if user is not None:
                soft_cache.set(user_key(user_id), user, seconds)
        return user


class ModelBackend(KeptUser, django.ModelBackend):
    """Django's (sign-in by username, as the admin does)."""


class AuthenticationBackend(KeptUser, allauth.AuthenticationBackend):
    """allauth's (sign-in by username or e-mail)."""
