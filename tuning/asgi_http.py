"""Django's ASGI handler for Chalk's pages: the whole middleware chain and the view in one thread
hop, on one of a few long-lived request threads.

Chalk's pages are synchronous code: every view, and middleware that only work synchronously
(the language, security and request-guard ones). Django's own ASGI handler builds the chain for
asynchronous use, so where a synchronous middleware sits outside an async-capable one (htmx's,
allauth's, Django's MiddlewareMixin ones) a request went from its thread back to the event loop
and out to a thread again, several times per page (py-spy under benchmarks/soak.py: the loop
waiting on those hand-overs, and a request's thread holding its pooled database connection
while it waited for the loop, which under load ran the pool dry: "couldn't get a connection
after 10 s", pages answered 500). Here the chain is built synchronously, as under WSGI, and the
event loop hands each request to it once.

Django also gave every request a thread of its own (a ThreadSensitiveContext: a new executor,
its thread started, and another thread started at the end to join it): under
benchmarks/pages.py half of the event loop's time went to starting threads. Here a request
borrows one of PAGE_THREADS long-lived threads for all of its synchronous work (the chain,
`request_finished`, which hands its database connection back) and returns it after; a request
beyond them waits on the loop for one. PAGE_THREADS defaults to what Django's pool has left
beside the live tables' threads and Channels' own thread (config/settings.py), so a page thread
never waits for a database connection.

The health probe (/healthz, config/urls.py) has a thread of its own, through the same chain: a
load balancer's check answers while every page thread is busy, instead of queueing behind the
pages (it took up to 9.1 s behind 300 concurrent signed-in requests).
"""

from __future__ import annotations

import asyncio
import weakref
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler


HEALTH_PATH = "/healthz"


class RequestThreads:
    """`size` single-thread executors per event loop, lent to one request at a time."""

    def __init__(self, size: int, name: str = "chalk-page"):
        self.size, self.name = size, name
        self._idle: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # loop -> asyncio.Queue
        self._last: tuple = (None, None)  # the last loop and its queue: a server has one loop

    def _queue(self) -> asyncio.Queue:
        loop = asyncio.get_running_loop()
        if self._last[0] is loop:
            return self._last[1]
        queue = self._idle.get(loop)
        if queue is None:
            queue = self._idle[loop] = asyncio.Queue()
            for number in range(self.size):
                queue.put_nowait(ThreadPoolExecutor(1, thread_name_prefix=f"{self.name}-{number}"))
        self._last = (loop, queue)
        return queue

    async def borrow(self) -> ThreadPoolExecutor:
        return await self._queue().get()

    def give_back(self, executor: ThreadPoolExecutor) -> None:
        self._queue().put_nowait(executor)


class OneHopASGIHandler(ASGIHandler):
    def __init__(self):
        super().__init__()
        self.threads = RequestThreads(settings.PAGE_THREADS)
        self.health_threads = RequestThreads(1, "chalk-health")  # a probe waits for a probe, never a page

    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        threads = self.health_threads if scope["path"] == HEALTH_PATH else self.threads
        executor = await threads.borrow()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            threads.give_back(executor)

    async def get_response_async(self, request):
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)
