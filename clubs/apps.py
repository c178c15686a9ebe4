from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = _("Clubs and players")

    def ready(self):
        from clubs import signals  # noqa: F401  (connects the profile-creation receiver)
