"""The websocket side of the ASGI application: who may open a socket, and on which paths.

- **Same origin only.** A page on another site must not open a socket that rides on the user's
  session cookie, so the handshake's Origin must be this site itself, compared by scheme, host
  and port (Channels' AllowedHostsOriginValidator compares the host alone, so
  `http://chalk.example:8080` passed for `https://chalk.example`): either the origin the
  handshake was made to (its Host header, allowed by ALLOWED_HOSTS, with `https` when the socket
  is `wss` or the TLS proxy says so through SECURE_PROXY_SSL_HEADER), or an origin listed in
  CSRF_TRUSTED_ORIGINS — the same two ways Django's CSRF check accepts a form post.
- **Unknown or malformed paths are refused** (an id past 2**63, thousands of digits, a NUL) with a
  plain close before accepting (uvicorn answers HTTP 403), instead of URLRouter's ValueError, which
  uvicorn turned into a 500 and a logged traceback.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.urls import re_path

from config.request_guard import is_bad_id_text, is_malformed_text

DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_tuple(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin such as 'https://chalk.example:8443', or None."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port or DEFAULT_PORTS.get(parts.scheme)
    except ValueError:  # a port that is not a number, or out of range
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        return None
    return parts.scheme, parts.hostname.lower(), port


def header(scope, name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin-1")
    return ""


def is_secure(scope) -> bool:
    proxy_header, secure_value = settings.SECURE_PROXY_SSL_HEADER or (None, None)
    forwarded = header(scope, proxy_header[5:].lower().replace("_", "-").encode()) if proxy_header else ""
    return scope.get("scheme") == "wss" or forwarded.split(",")[0].strip() == secure_value


def own_origin(scope) -> tuple[str, str, int] | None:
    """The origin this handshake was made to, if its Host is one ALLOWED_HOSTS accepts."""
    host = header(scope, b"host")
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    return origin_tuple(("https://" if is_secure(scope) else "http://") + host)


def trusted(origin: tuple[str, str, int]) -> bool:
    """Listed in CSRF_TRUSTED_ORIGINS ('https://*.chalk.example' covers its subdomains)."""
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        scheme, _, rest = entry.partition("://")
        wildcard = rest.startswith("*.")
        listed = origin_tuple(f"{scheme}://{rest[2:] if wildcard else rest}")
        if listed is None or (listed[0], listed[2]) != (origin[0], origin[2]):
            continue
        if origin[1] == listed[1] or (wildcard and origin[1].endswith("." + listed[1])):
            return True
    return False


def malformed_path(path: str) -> bool:
    """A control character, or a number no database id can be (the same rule as HTTP's,
    config/request_guard.py): refused before a consumer looks anything up."""
    return is_malformed_text(path) or any(is_bad_id_text(segment) for segment in path.split("/"))


def origin_allowed(scope) -> bool:
    origin = origin_tuple(header(scope, b"origin"))
    return origin is not None and (origin == own_origin(scope) or trusted(origin))


class SameOriginValidator:
    """ASGI middleware: a websocket whose Origin is not this site, or whose path is malformed,
    is closed before it opens."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and (malformed_path(scope["path"]) or not origin_allowed(scope)):
            return await WebsocketDenier.as_asgi()(scope, receive, send)
        return await self.application(scope, receive, send)


def websocket_application(routes):
    """The websocket half of config/asgi.py: origin check, session user, the routes, and a
    refusal for every other path."""
    refuse_the_rest = re_path(r"", WebsocketDenier.as_asgi())
    return SameOriginValidator(AuthMiddlewareStack(URLRouter([*routes, refuse_the_rest])))
