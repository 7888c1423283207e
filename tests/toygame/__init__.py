"""Nim, a third game that exists only to prove the registry is the one plug-in boundary.

It is an app of its own (``tests.toygame``), installed only by ``tests.toygame.settings``: with
it, the site shows and plays a third game with no edit under ``cardgames/`` or ``templates/``.
"""
