"""Project-wide pages: the home page, the health probe and the friendly error pages."""

import logging

from django.conf import settings
from django.db import connection
from django.http import HttpResponseServerError, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.views.decorators.cache import never_cache
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from config.public_cache import cached_for_visitors
from config.redis_ping import ping_url
from gameplay.api import Game

logger = logging.getLogger("chalk.health")

GAMES = [
    # (key, name, where it is played) — the names in the reader's script (بلوت on an Arabic page)
    (Game.ALLFOURS.value, Game.ALLFOURS.label, _("Trinidad and Tobago")),
    (Game.BALOOT.value, Game.BALOOT.label, _("Saudi Arabia and the Gulf")),
    (Game.CUATROLA.value, Game.CUATROLA.label, _("Spain")),
]


@cached_for_visitors  # the same page for every visitor in one language
def home(request):
    return render(request, "home.html", {"games": GAMES})


def check_database():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def check_redis():
    if not ping_url(settings.REDIS_URL, timeout=1.0):
        raise ConnectionError("redis did not answer PING")


def run_check(name, check):
    """'ok' or 'error': the reason goes to the log (redacted), never to the response."""
    try:
        check()
        return "ok"
    except Exception as error:  # a probe reports every failure instead of raising
        logger.warning("health check %s failed: %s", name, type(error).__name__)
        return "error"


@never_cache
@require_GET
def healthz(request):
    checks = {"database": run_check("database", check_database), "redis": run_check("redis", check_redis)}
    healthy = all(status == "ok" for status in checks.values())
    return JsonResponse({"status": "ok" if healthy else "error", "checks": checks}, status=200 if healthy else 503)


def bad_request(request, exception=None):
    return render(request, "400.html", status=400)


def permission_denied(request, exception=None):
    return render(request, "403.html", status=403)


def page_not_found(request, exception=None):
    return render(request, "404.html", status=404)


def server_error(request):
    # Rendered without the request context: whatever broke (the database, say) may break the
    # context processors too. The template is self-contained for the same reason.
    return HttpResponseServerError(loader.render_to_string("500.html"))
