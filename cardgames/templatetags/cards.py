"""``{% card face %}``: a card's face as the tables draw it.

A tag rather than an included template: a table draws dozens of cards on every render, and an
``{% include %}`` costs a template context push each.
"""

import functools

from django import template
from django.utils.html import format_html

from cardgames.cardtext import CardFace

register = template.Library()


@register.simple_tag
def card(face: CardFace) -> str:
    """The face of ``face``'s card; hidden from screen readers, which read its control's name."""
    return _face_html(face)


@functools.cache
def _face_html(face: CardFace) -> str:
    colour = " card--red" if face.red else ""
    return format_html(
        '<span class="card card--{}{}" aria-hidden="true">'
        '<span class="card__rank">{}</span><span class="card__suit">{}</span></span>',
        face.suit,
        colour,
        face.rank,
        face.symbol,
    )
