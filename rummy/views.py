"""Rummy's pages (the table itself is the platform's)."""

from django.views.generic import TemplateView


class RulesView(TemplateView):
    """The rules page: getting started, rules, tips, saving and new game, the version."""

    template_name = "rummy/rules.html"
