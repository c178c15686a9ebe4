"""Django's ASGI handler for Chalk's pages: the whole middleware chain and the view in one thread.

Chalk's pages are synchronous code: every view, and middleware that only work synchronously
(the language, security and request-guard ones). Django's own ASGI handler builds the chain for
asynchronous use, so where a synchronous middleware sits outside an async-capable one (htmx's,
allauth's, Django's MiddlewareMixin ones) a request went from its thread back to the event loop
and out to a thread again, several times per page (py-spy under benchmarks/soak.py: the loop
waiting on those hand-overs, and a request's thread holding its pooled database connection
while it waited for the loop, which under load ran the pool dry: "couldn't get a connection
after 10 s", pages answered 500).

Here the chain is built synchronously, as under WSGI, and the event loop hands each request to
it once, on the request's own thread (Django's ThreadSensitiveContext, as before). That thread
also runs the request's end (`request_finished`, which hands the database connection back).
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler


class OneHopASGIHandler(ASGIHandler):
    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)

    async def get_response_async(self, request):
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)
