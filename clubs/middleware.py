from django.conf import settings
from django.utils import translation

from clubs.models import Player
from config.digits import SESSION_KEY as DIGITS_SESSION_KEY

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
            language, request.session[DIGITS_SESSION_KEY] = profile_choices(request.user)
        elif self.needs_digits(request):  # a session signed in before the digits were a setting
            request.session[DIGITS_SESSION_KEY] = profile_choices(request.user)[1]
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

    @staticmethod
    def needs_digits(request):
        user = getattr(request, "user", None)
        return bool(user and user.is_authenticated and DIGITS_SESSION_KEY not in request.session)


def profile_choices(user) -> tuple:
    """The profile's language if it is one we serve, else None (keep what LocaleMiddleware chose),
    and its digits for Arabic pages (config/digits.py), in one query."""
    language, digits = Player.objects.filter(user=user).values_list("preferred_language", "digits").first() or ("", "")
    return (language if language in dict(settings.LANGUAGES) else None), digits or "western"


def remember_digits(request, digits: str) -> None:
    """The profile's new choice of digits, for this session's pages from now on."""
    request.session[DIGITS_SESSION_KEY] = digits
