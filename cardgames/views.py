"""The platform's pages."""

from django.views.generic import TemplateView


class HomeView(TemplateView):
    """The home page: what the site offers, one card per game."""

    template_name = "cardgames/home.html"
