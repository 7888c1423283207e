"""Durak's pages. The game tables arrive with a later issue."""

from django.views.generic import TemplateView


class RulesView(TemplateView):
    """The rules page: getting started, rules, tips, saving and new game, the version."""

    template_name = "durak/rules.html"
