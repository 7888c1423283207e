"""Rummy: the Django app (registry entry, pages, rules page) around ``rummy.engine``."""
