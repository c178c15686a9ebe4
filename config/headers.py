"""Response headers that tell the browser what a Chalk page may do (docs/deploying.md).

- Content-Security-Policy: scripts, styles, images and fonts only from Chalk itself, sockets
  only back to the host that served the page, no plugins, no framing, forms post only here. No
  'unsafe-inline': every script is a file under static/js/ (data travels in json_script
  blocks, which the browser does not run), and htmx's own inline indicator style is switched off
  by the htmx-config meta tag in templates/base.html.
- Permissions-Policy: no camera, microphone, location, payment or other device access; the
  clipboard may be written by the page itself (the table's "copy invitation" button).
The directives are settings (CONTENT_SECURITY_POLICY, PERMISSIONS_POLICY) so a deployment that
serves its static files from another host can add it in one place.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.utils.deprecation import MiddlewareMixin


def socket_sources(request) -> list[str]:
    """ws(s) back to this host: CSP Level 3 lets 'self' cover them, older Safari does not."""
    try:
        host = request.get_host()
    except DisallowedHost:  # the 400 for a bad Host header gets 'self' alone
        return []
    return [f"{'wss' if request.is_secure() else 'ws'}://{host}"]


def content_security_policy(request) -> str:
    directives = {name: list(sources) for name, sources in settings.CONTENT_SECURITY_POLICY.items()}
    directives.setdefault("connect-src", ["'self'"]).extend(socket_sources(request))
    return "; ".join(" ".join([name, *sources]) for name, sources in directives.items())


def permissions_policy() -> str:
    return ", ".join(f"{feature}=({' '.join(allowed)})" for feature, allowed in settings.PERMISSIONS_POLICY.items())


class SecurityHeadersMiddleware(MiddlewareMixin):
    def process_response(self, request, response):
        response.headers.setdefault("Content-Security-Policy", content_security_policy(request))
        response.headers.setdefault("Permissions-Policy", permissions_policy())
        return response
