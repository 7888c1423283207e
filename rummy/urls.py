"""Rummy's URLs: the rules page and the game tables arrive with later issues."""

from django.urls import URLPattern

app_name = "rummy"

urlpatterns: list[URLPattern] = []
