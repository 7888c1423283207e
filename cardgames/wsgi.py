"""WSGI entry point (plain HTTP only; the site is served by Daphne through ``asgi.py``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardgames.settings")

application = get_wsgi_application()
