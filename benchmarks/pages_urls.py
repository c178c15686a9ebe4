"""Chalk's URLs plus /bench/bare/: a view that does nothing, through the same middleware, on the
same server, as the ceiling each page is compared with (benchmarks/pages.py)."""

from django.http import HttpResponse
from django.urls import path

from config.urls import handler400, handler403, handler404, handler500, urlpatterns as site  # noqa: F401


def bare(request):
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [path("bench/bare/", bare), *site]
