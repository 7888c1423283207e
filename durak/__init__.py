"""Durak: the Django app (registry entry, pages, rules page) around ``durak.engine``."""
