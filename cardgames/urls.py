"""The site's URLs: the platform's pages, then one prefix per game app."""

from django.contrib import admin
from django.urls import include, path

from cardgames.views import HomeView

urlpatterns = [
    path("", HomeView.as_view(), name="home"),
    path("durak/", include("durak.urls")),
    path("rummy/", include("rummy.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
