"""The French, Italian and Romanian catalogs: complete, well formed, up to date, and used.

The catalog checks read ``locale/<lang>/LC_MESSAGES/django.po`` with polib. The freshness check
runs Django's ``makemessages`` (which needs GNU gettext) on a copy of the sources, so that the
working tree is never touched. The page checks ask for pages in each language and look for real
words.
"""

import re
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse
from django.utils.autoreload import file_changed
from django.utils.translation import trans_real
from django.utils.translation.reloader import translation_file_changed

from cardgames import languages
from cardgames.jinja import gettext as table_gettext

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "locale"
LANGUAGES = ("fr", "it", "ro")
NPLURALS = {"fr": 2, "it": 2, "ro": 3}

# The same options as `make messages` (see the Makefile).
MAKEMESSAGES_OPTIONS = {
    "locale": list(LANGUAGES),
    "no_location": True,
    "no_obsolete": True,
    "ignore_patterns": [".venv/*", "tests/*", "staticfiles/*", "test-results/*"],
    "verbosity": 0,
}
# Top-level entries not copied for makemessages: what `make messages` ignores, plus the catalogs
# (copied on their own) and whatever is neither code nor templates.
NOT_SOURCES = {".venv", "tests", "staticfiles", "test-results", "locale", "static", "docs"}

PLACEHOLDER = re.compile(r"%\((\w+)\)[sdif]")
TAG = re.compile(r"</?\w+[^>]*>")


def catalog(lang: str) -> polib.POFile:
    path = LOCALE / lang / "LC_MESSAGES" / "django.po"
    assert path.exists(), f"{path} is missing: run `make messages` and translate it"
    return polib.pofile(str(path))


def entry_name(entry: polib.POEntry) -> str:
    context = f" (context {entry.msgctxt!r})" if entry.msgctxt else ""
    return f"{entry.msgid!r}{context}"


def entry_key(entry: polib.POEntry) -> tuple[str, str, str]:
    return (entry.msgctxt or "", entry.msgid, entry.msgid_plural or "")


def translations(entry: polib.POEntry) -> list[str]:
    """The entry's msgstr, or each of its plural forms."""
    if entry.msgid_plural:
        return [entry.msgstr_plural[n] for n in sorted(entry.msgstr_plural)]
    return [entry.msgstr]


# --- The catalogs -----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalog_header_names_the_language_and_its_plural_forms(lang):
    po = catalog(lang)
    assert po.metadata.get("Language") == lang
    assert f"nplurals={NPLURALS[lang]};" in po.metadata.get("Plural-Forms", "").replace(" ", "")
    assert not po.metadata_is_fuzzy, f"{lang}: the header is marked fuzzy"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated_and_none_is_fuzzy(lang):
    po = catalog(lang)
    entries = [entry for entry in po if not entry.obsolete]
    assert entries, f"{lang}: the catalog is empty"
    fuzzy = [entry_name(entry) for entry in entries if "fuzzy" in entry.flags]
    assert not fuzzy, f"{lang}: fuzzy entries (check and unmark them): {fuzzy}"
    missing = []
    for entry in entries:
        forms = translations(entry)
        if entry.msgid_plural and len(forms) != NPLURALS[lang]:
            missing.append(f"{entry_name(entry)}: {len(forms)} plural forms")
        elif not all(form.strip() for form in forms):
            missing.append(entry_name(entry))
    assert not missing, f"{lang}: {len(missing)} untranslated: {missing}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_placeholders_and_markup_survive_translation(lang):
    problems = []
    for entry in catalog(lang):
        if entry.obsolete:
            continue
        wanted = set(PLACEHOLDER.findall(entry.msgid + " " + (entry.msgid_plural or "")))
        tags = sorted(TAG.findall(entry.msgid))
        for form in translations(entry):
            if set(PLACEHOLDER.findall(form)) != wanted:
                problems.append(f"{entry_name(entry)} → {form!r}: placeholders differ")
            if sorted(TAG.findall(form)) != tags:
                problems.append(f"{entry_name(entry)} → {form!r}: HTML tags differ")
            if "%" in PLACEHOLDER.sub("", form.replace("%%", "")):
                problems.append(f"{entry_name(entry)} → {form!r}: a stray %")
    assert not problems, f"{lang}: " + "\n".join(problems)


def test_makemessages_finds_no_string_the_catalogs_lack(tmp_path, monkeypatch):
    """Every string marked in the code is in the catalogs: `make messages` would add nothing."""
    missing_tools = [tool for tool in ("xgettext", "msgmerge", "msguniq") if not shutil.which(tool)]
    if missing_tools:
        pytest.fail(
            f"GNU gettext is needed to check the catalogs ({', '.join(missing_tools)} not found): "
            "install it, e.g. `apt-get install gettext` (.ci/run does)."
        )
    for entry in ROOT.iterdir():
        if entry.is_dir() and entry.name not in NOT_SOURCES and not entry.name.startswith("."):
            shutil.copytree(
                entry, tmp_path / entry.name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
            )
    shutil.copytree(LOCALE, tmp_path / "locale", ignore=shutil.ignore_patterns("*.mo"))
    monkeypatch.chdir(tmp_path)
    with override_settings(LOCALE_PATHS=[tmp_path / "locale"]):
        call_command("makemessages", **MAKEMESSAGES_OPTIONS)
    for lang in LANGUAGES:
        committed = {entry_key(entry) for entry in catalog(lang) if not entry.obsolete}
        fresh = polib.pofile(str(tmp_path / "locale" / lang / "LC_MESSAGES" / "django.po"))
        new = sorted(
            entry_key(e) for e in fresh if not e.obsolete and entry_key(e) not in committed
        )
        assert not new, (
            f"{lang}: strings marked in the code but missing from the catalog; "
            f"run `make messages` and translate them: {new}"
        )
        # And nothing the pages say is lost: a string makemessages no longer finds (a template
        # it cannot read) would be dropped from the catalog, with its translation.
        found = {entry_key(e) for e in fresh if not e.obsolete}
        dropped = sorted(committed - found)
        assert not dropped, f"{lang}: `make messages` would drop these strings: {dropped}"


# --- The pages --------------------------------------------------------------------------------


@pytest.fixture(scope="module", autouse=True)
def compiled_catalogs():
    """Compile the catalogs (as `make test` does) and forget any catalog loaded before."""
    call_command("compilepo", verbosity=0)
    translation_file_changed(sender=None, file_path=Path("django.mo"))
    yield


# Words each page must show, per language: the vocabulary players of these games use.
HOME_WORDS = {
    "fr": ["Jeux de cartes", "Contre l’ordinateur", "Jouer en ligne", "Règles du Durak", "Rami"],
    "it": ["Giochi di carte", "Contro il computer", "Gioca online", "Regole del Durak", "Ramino"],
    "ro": ["Jocuri de cărți", "Contra calculatorului", "Joacă online", "Reguli Durak", "Remi"],
}
TABLE_WORDS = {
    "fr": ["Atout", "Votre main", "Pioche", "Défausse", "Nouvelle partie"],
    "it": ["Briscola", "La tua mano", "Mazzo", "Scarti", "Nuova partita"],
    "ro": ["Atu:", "Mâna ta", "Talon", "Cărți aruncate", "Partidă nouă"],
}
# A card's spoken name: rank, "de"/"di", suit as players say it.
CARD_NAME = {
    "fr": r"(Six|Sept|Huit|Neuf|Dix|Valet|Dame|Roi|As) de (trèfle|carreau|cœur|pique)",
    "it": r"(Sei|Sette|Otto|Nove|Dieci|Fante|Donna|Re|Asso) di (fiori|quadri|cuori|picche)",
    "ro": r"(Șase|Șapte|Opt|Nouă|Zece|Valet|Damă|Popă|As) de (treflă|caro|cupă|pică)",
}
DURAK_RULES_WORDS = {
    "fr": ["atout", "défausse", "pioche", "défenseur", "durak"],
    "it": ["briscola", "mazzo", "scarti", "difensore", "durak"],
    "ro": ["atu", "talon", "apărător", "atacant", "Durak"],
}
RUMMY_RULES_WORDS = {
    "fr": ["défausse", "pioche", "suite", "combinaison", "manche"],
    "it": ["scarti", "mazzo", "scala", "combinazion", "smazzata"],
    "ro": ["talon", "cărțile aruncate", "scară", "formați", "rundă"],
}


def assert_words(response, lang: str, words: list[str]) -> None:
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html
    missing = [word for word in words if word not in html]
    assert not missing, f"{lang}: not on the page: {missing}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_home_page_speaks_the_browsers_language(client, db, lang):
    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE=lang)
    assert_words(response, lang, HOME_WORDS[lang])
    assert "Play online" not in response.content.decode()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_durak_table_speaks_the_browsers_language(db, lang):
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    response = client.post("/play/durak/computer/", {"players": "2", "deck": "36"}, follow=True)
    assert_words(response, lang, TABLE_WORDS[lang])
    html = response.content.decode()
    assert re.search(CARD_NAME[lang], html), f"{lang}: no card is named in {lang}"
    assert f"?lang={lang}" in html  # the table's socket renders in the same language
    assert "Your hand" not in html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_pages_are_translated(client, db, lang):
    durak = client.get(reverse("durak:rules"), HTTP_ACCEPT_LANGUAGE=lang)
    assert_words(durak, lang, DURAK_RULES_WORDS[lang])
    rummy = client.get(reverse("rummy:rules"), HTTP_ACCEPT_LANGUAGE=lang)
    assert_words(rummy, lang, RUMMY_RULES_WORDS[lang])
    for page in (durak, rummy):
        assert "On this page" not in page.content.decode()


def test_english_stays_the_default(client, db):
    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="de")
    assert_words(response, "en", ["Card games", "Play online"])


def test_the_chosen_language_wins_over_the_browsers(client, db):
    response = client.post(reverse("set_language"), {"language": "it", "next": "/"})
    assert response.status_code == 302
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "it"
    assert settings.LANGUAGE_COOKIE_NAME == "django_language"
    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="fr")
    assert_words(response, "it", HOME_WORDS["it"])
    response = client.get(reverse("durak:rules"), HTTP_ACCEPT_LANGUAGE="ro")
    assert_words(response, "it", DURAK_RULES_WORDS["it"])


def test_the_switcher_offers_each_language_in_its_own_name(client, db):
    response = client.get(reverse("durak:rules"), HTTP_ACCEPT_LANGUAGE="ro")
    html = response.content.decode()
    form = re.search(r'<form class="lang-switch".*?</form>', html, re.S)
    assert form, "no language switcher in the header"
    form = form.group(0)
    assert f'action="{reverse("set_language")}"' in form
    assert 'name="next" value="/durak/rules/"' in form
    assert '<label class="visually-hidden" for="lang-select">Limbă</label>' in form
    for code, name in (("en", "English"), ("fr", "Français"), ("it", "Italiano"), ("ro", "Română")):
        assert re.search(rf'<option value="{code}" lang="{code}"[^>]*>{name}</option>', form)
    assert re.search(r'<option value="ro" lang="ro" selected>', form)
    assert "csrfmiddlewaretoken" in form


def test_a_recompiled_catalog_reaches_the_tables_without_a_restart():
    """The table's translations are kept per language; a changed catalogue (``compilemessages``
    under the development server) is read again, as Django's own pages read it again."""
    mo_file = LOCALE / "fr" / "LC_MESSAGES" / "django.mo"
    with languages.rendering("fr"):
        assert table_gettext("Your hand") == "Votre main"
    with pytest.MonkeyPatch.context() as patch:
        # What the recompiled catalogue now says.
        patch.setattr(trans_real.DjangoTranslation, "gettext", lambda self, message: "Ta main")
        file_changed.send(sender=None, file_path=mo_file)
        with languages.rendering("fr"):
            assert table_gettext("Your hand") == "Ta main"
    file_changed.send(sender=None, file_path=mo_file)  # and back to the real catalogue
    with languages.rendering("fr"):
        assert table_gettext("Your hand") == "Votre main"
