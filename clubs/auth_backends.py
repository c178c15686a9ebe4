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

import logging

from allauth.account import auth_backends as allauth
from django.conf import settings
from django.contrib.auth import backends as django
from django.core.cache import cache
from redis.exceptions import RedisError

logger = logging.getLogger("chalk.cache")


def user_key(user_id) -> str:
    return f"signed-in-user:{user_id}"


def forget_user(sender, instance, **kwargs) -> None:
    """post_save / post_delete of a user (connected in clubs/apps.py)."""
    try:
        cache.delete(user_key(instance.pk))
    except (RedisError, OSError) as error:  # nothing was kept either: get_user could not reach it
        logger.warning("signed-in user not forgotten: cache not reached (%s)", type(error).__name__)


class KeptUser:
    def get_user(self, user_id):
        seconds = settings.SIGNED_IN_USER_SECONDS
        if seconds <= 0:
            return super().get_user(user_id)
        try:
            user = cache.get(user_key(user_id))
        except (RedisError, OSError):
            return super().get_user(user_id)  # the cache is a shortcut
        if user is None:
            user = super().get_user(user_id)  # None: no such user, or not active
            if user is not None:
                try:
                    cache.set(user_key(user_id), user, seconds)
                except (RedisError, OSError):
                    pass
        return user


class ModelBackend(KeptUser, django.ModelBackend):
    """Django's (sign-in by username, as the admin does)."""


class AuthenticationBackend(KeptUser, allauth.AuthenticationBackend):
    """allauth's (sign-in by username or e-mail)."""
