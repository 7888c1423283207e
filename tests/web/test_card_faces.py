"""The cards as a table draws them: corner indices in the player's language, pips, courts, and
the cards named in the move log."""

import re
from html.parser import HTMLParser

import pytest
from django.template import Context, Template
from django.test import Client
from django.utils import translation
from table_helpers import start_computer_game

from cardgames import bots
from cardgames.cardtext import cards_short, face
from cardgames.models import Game
from durak.engine import Config, new_game

# Seat 0 (you) holds the lowest trump (6h) and leads the jack of clubs, which seat 1 cannot beat:
# it takes (you have nothing to throw in), picks the jack up, and you draw the queen of clubs.
DECK = [
    *("Jc", "Qd", "Ks", "Ac", "7s", "6h"),
    *("6d", "7d", "8d", "9s", "Ts", "8c"),
    "Th",
    *("Qc", "Kc"),
]
MOVES = [(0, "attack Jc"), (1, "take")]
HAND = ["Qd", "Ks", "Ac", "7s", "6h", "Qc"]

# The court and ace letters players of each language expect in a card's corner.
LETTERS = {
    "en": {"J": "J", "Q": "Q", "K": "K", "A": "A"},
    "fr": {"J": "V", "Q": "D", "K": "R", "A": "A"},  # valet, dame, roi, as
    "it": {"J": "F", "Q": "D", "K": "R", "A": "A"},  # fante, donna, re, asso
    "ro": {"J": "V", "Q": "D", "K": "R", "A": "A"},  # valet, damă, rege, as
}
SUITS = "♣♦♥♠"


class Node:
    def __init__(self, tag: str, attrs: dict[str, str], parent: "Node | None") -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node | str] = []

    @property
    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def find_all(self, test) -> list["Node"]:
        found = []
        for child in self.children:
            if isinstance(child, Node):
                if test(child):
                    found.append(child)
                found.extend(child.find_all(test))
        return found

    def with_class(self, name: str) -> list["Node"]:
        return self.find_all(lambda node: name in node.classes)


class Tree(HTMLParser):
    """Just enough of a DOM to read the cards of a page."""

    VOID = {"input", "meta", "link", "br", "img", "hr", "use", "path", "circle", "rect"}

    def __init__(self, html: str) -> None:
        super().__init__()
        self.root = self.current = Node("#root", {}, None)
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs}, self.current)
        self.current.children.append(node)
        if tag not in self.VOID:
            self.current = node

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Node(tag, {k: v or "" for k, v in attrs}, self.current))

    def handle_endtag(self, tag):
        node = self.current
        while node.parent is not None and node.tag != tag:
            node = node.parent
        if node.parent is not None:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def cards_in(node: Node) -> list[Node]:
    """The card faces under ``node`` (not backs or empty places)."""
    return [card for card in node.with_class("card") if card.with_class("card__index")]


def indices(card: Node) -> list[str]:
    """What a card's corner indices say, e.g. ["D♥", "D♥"] (the first one's rank and suit
    have the classes card__rank and card__suit, which scripts read)."""
    (rank,) = card.with_class("card__rank")
    (suit,) = card.with_class("card__suit")
    assert rank.parent is suit.parent is card.with_class("card__index")[0]
    return [index.text() for index in card.with_class("card__index")]


@pytest.fixture
def table(db):
    """A Durak table in a given language, after the moves of ``MOVES``: its page, parsed."""

    def open_in(lang: str) -> Node:
        client = Client(HTTP_ACCEPT_LANGUAGE=lang)
        game = start_computer_game(client, players="2", deck="36")
        assert bots.wait_idle()
        engine = new_game(Config(players=2, deck=36), deck=DECK, seed=1)
        for seat, action in MOVES:
            engine.apply(seat, action)
        Game.objects.filter(pk=game.pk).update(state=engine.to_dict(), version=len(MOVES))
        response = client.get(f"/game/{game.pk}/")
        assert response.status_code == 200
        return Tree(response.content.decode()).root

    return open_in


def hand_cards(page: Node) -> dict[str, Node]:
    """Your hand's card faces, by card code."""
    hand = {}
    for label in page.with_class("hand-card"):
        code = label.find_all(lambda node: node.tag == "input")[0].attrs["value"]
        (card,) = cards_in(label)
        hand[code] = card
    return hand


@pytest.mark.parametrize("lang", sorted(LETTERS))
def test_the_corner_indices_and_the_move_log_speak_the_players_language(table, lang):
    page = table(lang)
    letters = LETTERS[lang]
    hand = hand_cards(page)
    assert sorted(hand) == sorted(HAND)
    for code, card in hand.items():
        rank = letters.get(code[0], "10" if code[0] == "T" else code[0])
        symbol = face(code).symbol
        assert indices(card) == [rank + symbol] * 2, code  # two corners, the same index
        assert card.with_class("card__index--end"), code  # the second one turned round
    shown = [index for card in cards_in(page) for index in indices(card)]
    assert "10♥" in shown  # the trump card
    log = page.with_class("recent__list")[0].text()
    assert f"{letters['J']}♣" in log  # "You led V♣" in French
    if lang != "en":
        english = re.compile(rf"^(?:{'|'.join(set('JQK') - set(letters.values()))})[{SUITS}]$")
        assert not [index for index in shown if english.match(index)], shown
        assert not re.search(rf"(?<!\w)[KQJ][{SUITS}]", log), log


def test_number_cards_have_their_pips_and_courts_their_figure(table):
    hand = hand_cards(table("en"))
    assert len(hand["7s"].with_class("card__pip")) == 7
    assert len(hand["6h"].with_class("card__pip")) == 6
    (ace_pip,) = hand["Ac"].with_class("card__pip")
    assert "card__pip--ace" in ace_pip.classes
    figures = {}
    for code in ("Qd", "Ks", "Qc"):
        assert not hand[code].with_class("card__pip"), code
        (use,) = hand[code].find_all(lambda node: node.tag == "use")
        figures[code] = use.attrs["href"].rsplit("#", 1)[1]
    assert figures == {"Qd": "q", "Ks": "k", "Qc": "q"}


@pytest.mark.parametrize("code", ["2c", "3d", "4h", "5s", "6c", "7d", "8h", "9s", "Tc"])
def test_each_number_card_has_as_many_pips_as_its_rank(code):
    count = {"T": 10}.get(code[0]) or int(code[0])
    html = Template("{% load cards %}{% card f %}").render(Context({"f": face(code)}))
    (card,) = cards_in(Tree(html).root)
    assert len(card.with_class("card__pip")) == count
    assert card.classes[:2] == ["card", f"card--{code[1]}"]  # what the load test reads


def test_a_face_and_its_markup_follow_the_active_language():
    with translation.override("fr"):
        assert face("Kh").rank == "R" and cards_short(["Qs", "Jd", "Th"]) == "D♠ V♦ 10♥"
        french = Template("{% load cards %}{% card f %}").render(Context({"f": face("Kh")}))
    with translation.override("en"):
        assert face("Kh").rank == "K"
        english = Template("{% load cards %}{% card f %}").render(Context({"f": face("Kh")}))
    assert '"card__rank">R<' in french and '"card__rank">K<' in english


def test_suited_escapes_the_text_and_marks_each_card_it_names():
    template = Template("{% load cards %}{{ move|suited }}")
    with translation.override("fr"):
        html = template.render(Context({"move": "<b>Ann</b> a battu 10♥ avec D♥ & R♠, 9♣ 8♦"}))
    assert html == (
        "&lt;b&gt;Ann&lt;/b&gt; a battu "
        '<span class="card-text card-text--h">10♥</span> avec '
        '<span class="card-text card-text--h">D♥</span> &amp; '
        '<span class="card-text card-text--s">R♠</span>, '
        '<span class="card-text card-text--c">9♣</span> '
        '<span class="card-text card-text--d">8♦</span>'
    )
    with translation.override("en"):
        assert template.render(Context({"move": "Ann led K♥"})) == (
            'Ann led <span class="card-text card-text--h">K♥</span>'
        )
        assert template.render(Context({"move": "No card: ♥ alone, AK♥"})) == (
            "No card: ♥ alone, AK♥"
        )
