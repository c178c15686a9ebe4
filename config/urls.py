from django.contrib import admin
from django.urls import include, path

from clubs import views as club_views
from home import views as dashboard_views
from config import views

# Language comes from the user's profile, the language cookie or the browser (LocaleMiddleware),
# not from a URL prefix: links shared between players of different languages stay the same.
urlpatterns = [
    path("", dashboard_views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("language/", club_views.switch_language, name="set_language"),
    path("accounts/profile/", club_views.profile, name="profile"),
    path("accounts/profile/zone/", club_views.follow_zone, name="follow_zone"),
    path("accounts/table-settings/", club_views.table_settings, name="table_settings"),
    path("accounts/", include("allauth.urls")),
    path("clubs/", include("clubs.urls")),
    path("players/<str:username>/", club_views.player_page, name="player"),
    path("", include("home.urls")),
    path("ratings/", include("tournaments.ratings.urls")),
    path("competitions/", include("tournaments.urls")),
    path("", include("gameplay.urls")),
    path("admin/", admin.site.urls),
]

handler400 = "config.views.bad_request"
handler403 = "config.views.permission_denied"
handler404 = "config.views.page_not_found"
handler500 = "config.views.server_error"
