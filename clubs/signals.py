from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from clubs.models import Player


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="clubs.create_player")
def create_player(sender, instance, created, raw=False, **kwargs):
    """Every user has a Player, however the user was made (sign-up, admin, createsuperuser)."""
    if created and not raw:
        Player.objects.get_or_create(user=instance)
