"""Template context for every page: the navigation's unread-notification count."""

from home.queries import unread_notifications


def navigation(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notifications": unread_notifications(user)}
