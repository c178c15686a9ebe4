from django.conf import settings
from django.utils import translation

from clubs.models import Player

SYNCED_SESSION_KEY = "chalk_language_synced"


def set_language_cookie(response, language):
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


class PreferredLanguageMiddleware:
    """Applies a logged-in player's preferred language once per login.

    LocaleMiddleware has already picked a language from the cookie or the browser. On the first
    request after logging in we switch to the profile's language and store it in the cookie;
    after that the cookie rules, so the language switcher keeps working (it also updates the
    profile, see clubs.views.switch_language).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        language = None
        if self.needs_sync(request):
            request.session[SYNCED_SESSION_KEY] = True
            language = preferred_language(request.user)
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        response = self.get_response(request)
        if language:
            set_language_cookie(response, language)
        return response

    @staticmethod
    def needs_sync(request):
        user = getattr(request, "user", None)
        return bool(user and user.is_authenticated and not request.session.get(SYNCED_SESSION_KEY))


def preferred_language(user):
    """The profile's language if it is one we serve, else None (keep what LocaleMiddleware chose)."""
    language = Player.objects.filter(user=user).values_list("preferred_language", flat=True).first()
    return language if language in dict(settings.LANGUAGES) else None
