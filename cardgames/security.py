"""A Content-Security-Policy on every response, the ones django-csp does not see included.

django-csp sets the site's policy on the pages, but WhiteNoise answers for the static files
before it, and with ``DEBUG`` on it leaves Django's 404 and 500 pages without one, for their
inline style and script. A static file gets the narrow policy nginx sets for them too
(``deploy/nginx.conf``: an SVG opened on its own runs nothing), and a debug page one that
allows just its inline style and script.
"""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"
STATIC_POLICY = "default-src 'none'; style-src 'self'; img-src 'self'; frame-ancestors 'none'"
DEBUG_PAGE_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
DEBUG_PAGES = (404, 500)


class PolicyOnEveryResponse:
    """Give a response that has no policy the static files' or the debug pages' policy."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if HEADER not in response:
            debug_page = settings.DEBUG and response.status_code in DEBUG_PAGES
            response[HEADER] = DEBUG_PAGE_POLICY if debug_page else STATIC_POLICY
        return response
