from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = _("Clubs and players")

    def ready(self):
        # Connected here, once the other apps are loaded (the home's receivers: home/apps.py).
        from django.conf import settings
        from django.db.models.signals import post_delete, post_save

        from clubs import signals  # noqa: F401  (connects the profile-creation receiver)
        from clubs.auth_backends import forget_user

        # the signed-in user's kept row (clubs/auth_backends.py) is forgotten whenever it changes
        for name, signal in (("saved", post_save), ("deleted", post_delete)):
            signal.connect(forget_user, sender=settings.AUTH_USER_MODEL, dispatch_uid=f"signed-in-user-{name}")
