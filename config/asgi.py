"""ASGI entry point: HTTP goes to Django, websockets to the Channels routes of each app.

Run with `uvicorn config.asgi:application` (see Procfile and docs/deploying.md).
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Django must be set up before anything imports models (consumers do).
django.setup(set_prefix=False)

from django.conf import settings  # noqa: E402
from django.core.handlers.asgi import ASGIHandler  # noqa: E402

from tuning.asgi_http import OneHopASGIHandler  # noqa: E402

# Pages: the middleware chain and the view in one thread hop per request (tuning/asgi_http.py);
# Django's own handler only when that override is switched off for a run (CHALK_TUNING_OFF).
django_asgi_app = ASGIHandler() if "asgi_http" in settings.TUNING_OFF else OneHopASGIHandler()

from channels.routing import ProtocolTypeRouter  # noqa: E402

from config.lifespan import lifespan  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from config.websockets import websocket_application  # noqa: E402

from tuning import garbage  # noqa: E402

# Everything loaded so far lives as long as the process; the young generation is collected
# rarely, the older ones on a clock (tuning/garbage.py, started by config/lifespan.py).
if "garbage" not in settings.TUNING_OFF:
    garbage.tune_for_serving()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Same-origin sockets only (scheme, host and port), unknown paths refused: config/websockets.py
        "websocket": websocket_application(websocket_urlpatterns),
        # Shutdown closes the event loop's own database pool: config/lifespan.py
        "lifespan": lifespan,
    }
)
