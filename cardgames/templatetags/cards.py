"""``{% card face %}``: a card's face as the tables draw it; ``{{ text|suited }}``: the cards
named in a line of text, marked up so that they take their suit's colour.

A tag rather than an included template: a table draws dozens of cards on every render, and an
``{% include %}`` costs a template context push each.

A face has an index (rank and suit) in its top-left corner and, turned round, in the bottom-right
one; number cards have their pips in the standard places, an ace one large pip, and the courts a
figure of their own from ``static/cards/courts.svg``. ``static/css/cards.css`` draws them.
"""

import functools
import re

from django import template
from django.templatetags.static import static
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from cardgames import languages
from cardgames.cardtext import SUIT_SYMBOLS, CardFace, rank_symbol

register = template.Library()

# Where the pips of each number card go: (column, row), columns 0-2 from the left, rows 0-12
# from the top in twelfths of the pip area (cards.css turns those below the middle round).
PIPS = {
    "2": ((1, 0), (1, 12)),
    "3": ((1, 0), (1, 6), (1, 12)),
    "4": ((0, 0), (2, 0), (0, 12), (2, 12)),
    "5": ((0, 0), (2, 0), (1, 6), (0, 12), (2, 12)),
    "6": ((0, 0), (2, 0), (0, 6), (2, 6), (0, 12), (2, 12)),
    "7": ((0, 0), (2, 0), (1, 3), (0, 6), (2, 6), (0, 12), (2, 12)),
    "8": ((0, 0), (2, 0), (1, 3), (0, 6), (2, 6), (1, 9), (0, 12), (2, 12)),
    "9": ((0, 0), (2, 0), (0, 4), (2, 4), (1, 6), (0, 8), (2, 8), (0, 12), (2, 12)),
    "T": ((0, 0), (2, 0), (1, 2), (0, 4), (2, 4), (0, 8), (2, 8), (1, 10), (0, 12), (2, 12)),
    "A": ((1, 6),),
}
COURTS = "JQK"
SUITS = "".join(SUIT_SYMBOLS.values())
SUIT_OF_SYMBOL = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}


@register.simple_tag
def card(face: CardFace) -> str:
    """The face of ``face``'s card; hidden from screen readers, which read its control's name."""
    return _face_html(face)


@functools.cache
def _face_html(face: CardFace) -> SafeString:
    rank = face.code[0]
    colour = " card--red" if face.red else ""
    # The top index's classes are what scripts and tests read; the bottom one repeats it.
    index = format_html(
        '<span class="card__rank">{}</span><span class="card__suit">{}</span>',
        face.rank,
        face.symbol,
    )
    end_index = format_html("<span>{}</span><span>{}</span>", face.rank, face.symbol)
    if rank in COURTS:
        middle = format_html(
            '<span class="card__court"><svg viewBox="0 0 56 112"><use href="{}#{}"></use></svg>'
            '</span><span class="card__court-pip"></span>'
            '<span class="card__court-pip card__court-pip--end"></span>',
            static("cards/courts.svg"),
            rank.lower(),
        )
    else:
        ace = " card__pip--ace" if rank == "A" else ""
        middle = format_html_join(
            "",
            '<span class="card__pip{}" style="--x:{};--y:{}"></span>',
            ((ace, x, y) for x, y in PIPS[rank]),
        )
    return format_html(
        '<span class="card card--{}{} card--{}" aria-hidden="true">'
        '<span class="card__index">{}</span>{}'
        '<span class="card__index card__index--end">{}</span></span>',
        face.suit,
        colour,
        rank.lower(),
        index,
        middle,
        end_index,
    )


@register.filter(is_safe=False)
def suited(text: object) -> SafeString:
    """``text``, HTML-escaped, with each card it names ("10♥", "D♠" in French) wrapped in
    ``<span class="card-text card-text--{suit}">``, for the move log."""
    return mark_safe(_card_tokens().sub(_card_text, str(conditional_escape(text))))


def _card_tokens() -> re.Pattern[str]:
    return _card_tokens_in(languages.current())


@functools.cache
def _card_tokens_in(language: str | None) -> re.Pattern[str]:
    # The ranks as the current language prints them ("10", "D" in French), longest first.
    ranks = {rank_symbol(rank) for rank in "23456789TJQKA"}
    alternatives = "|".join(re.escape(rank) for rank in sorted(ranks, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})[{SUITS}]")


def _card_text(match: re.Match[str]) -> str:
    token = match.group()
    return f'<span class="card-text card-text--{SUIT_OF_SYMBOL[token[-1]]}">{token}</span>'
