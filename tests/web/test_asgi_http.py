"""Pages under ASGI run their whole middleware chain and view on one thread, handed over once
by the event loop (tuning/asgi_http.py): no hop back to the loop in the middle of a request,
while the request's thread holds its database connection; the health probe on a thread of its own."""

import asyncio
import threading

import pytest
from asgiref.sync import iscoroutinefunction
from asgiref.testing import ApplicationCommunicator
from django.conf import settings
from django.http import HttpResponse
from django.test import override_settings
from django.urls import path
from django.utils.decorators import sync_and_async_middleware

from config import views as config_views
from tuning.asgi_http import OneHopASGIHandler

seen: dict[str, str] = {}


class RecordOuter:
    """Synchronous only, outermost: where the chain starts."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        seen["outer"] = threading.current_thread().name
        return self.get_response(request)


@sync_and_async_middleware
def record_inner(get_response):
    """Both synchronous and asynchronous, innermost (like htmx's middleware): Django's own
    handler runs such a middleware on the event loop."""
    if iscoroutinefunction(get_response):
        async def middleware(request):
            seen["inner"] = threading.current_thread().name
            return await get_response(request)
    else:
        def middleware(request):
            seen["inner"] = threading.current_thread().name
            return get_response(request)
    return middleware


def page(request):
    seen["view"] = threading.current_thread().name
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [path("one-hop/", page)]  # and the health test's pages, below


async def get(application, path_: str):
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": path_, "raw_path": path_.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"host", b"testserver")], "client": ("127.0.0.1", 5000), "server": ("testserver", 80)}
    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await communicator.receive_output(5)
    body = await communicator.receive_output(5)
    await communicator.wait(5)
    return start["status"], body["body"], threading.current_thread().name


def test_a_page_runs_every_middleware_and_its_view_on_one_thread_that_is_not_the_event_loops():
    chain = [f"{__name__}.RecordOuter", *settings.MIDDLEWARE, f"{__name__}.record_inner"]
    with override_settings(MIDDLEWARE=chain, ROOT_URLCONF=__name__, ALLOWED_HOSTS=["testserver"]):
        seen.clear()
        status, body, loop_thread = asyncio.run(get(OneHopASGIHandler(), "/one-hop/"))
    assert (status, body) == (200, b"ok")
    assert seen["outer"] == seen["inner"] == seen["view"] != loop_thread


def test_requests_borrow_a_few_long_lived_threads_instead_of_starting_one_each():
    async def twelve(application):
        names = []
        for _ in range(12):
            await get(application, "/one-hop/")
            names.append(seen["view"])
        await asyncio.gather(*(get(application, "/one-hop/") for _ in range(12)))  # more at once than threads
        return names

    with override_settings(ROOT_URLCONF=__name__, ALLOWED_HOSTS=["testserver"], PAGE_THREADS=3):
        application = OneHopASGIHandler()
        before = threading.active_count()
        names = asyncio.run(twelve(application))
    assert set(names) <= {f"chalk-page-{n}_0" for n in range(3)}
    assert threading.active_count() <= before + 3


released = threading.Event()


def busy_page(request):
    """A page that holds its thread until the test lets it go."""
    released.wait(30)
    return HttpResponse("done", content_type="text/plain")


urlpatterns += [path("busy/", busy_page), path("healthz", config_views.healthz)]


@pytest.mark.django_db(transaction=True)
def test_healthz_answers_while_every_page_thread_is_busy():
    async def probe_beside_busy_pages(application):
        pages = [asyncio.ensure_future(get(application, "/busy/")) for _ in range(2)]
        await asyncio.sleep(0.2)  # both page threads are taken
        try:
            status, body, _ = await asyncio.wait_for(get(application, "/healthz"), 10)
            still_busy = not any(page.done() for page in pages)
        finally:
            released.set()
            await asyncio.gather(*pages)
        return status, body, still_busy

    released.clear()
    with override_settings(ROOT_URLCONF=__name__, ALLOWED_HOSTS=["testserver"], PAGE_THREADS=2):
        status, body, still_busy = asyncio.run(probe_beside_busy_pages(OneHopASGIHandler()))
    assert status == 200 and b'"status": "ok"' in body
    assert still_busy
