"""Project configuration: settings, URLs, the ASGI application and the Celery app."""

# Load the Celery app with Django so that @shared_task uses it (Celery's Django recipe).
from config.celery import app as celery_app

__all__ = ("celery_app",)
