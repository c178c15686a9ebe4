"""The catalogues use the players' own words that docs/glossary.md lists for each language."""

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
SECTIONS = {"ar": "## Arabic", "es": "## Spanish", "en": "## English"}
DIACRITICS = re.compile("[\u064b-\u0652\u0640]")  # tashkeel and tatweel: الإكّة is إكة


def glossary_rows(language):
    """(term, context, msgid) for every row of the language's table that names a catalogue entry."""
    text = (ROOT / "docs/glossary.md").read_text()
    section = text.split(SECTIONS[language], 1)[1].split("\n## ", 1)[0]
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[1] not in ("msgid", "—") and not set(cells[1]) <= {"-"}:
            context, _, msgid = cells[1].rpartition("|") if cells[1].count("|") else ("", "", cells[1])
            yield cells[0], context or None, msgid


def catalogue(language):
    with (ROOT / "locale" / language / "LC_MESSAGES" / "django.po").open("rb") as handle:
        return read_po(handle, locale=language)


def plain(text):
    return DIACRITICS.sub("", text).casefold()


@pytest.mark.parametrize("language", ["ar", "es"])
def test_catalogue_translates_each_glossary_word_with_the_glossary_term(language):
    messages = catalogue(language)
    wrong = []
    for term, context, msgid in glossary_rows(language):
        message = messages.get(msgid, context=context)
        variants = [plain(word) for word in term.split(" / ")]
        if message is None or not any(variant in plain(message.string) for variant in variants):
            wrong.append((msgid, term, message and message.string))
    assert wrong == []


def test_english_glossary_words_are_the_catalogue_msgids():
    messages = catalogue("es")
    missing = [msgid for _term, context, msgid in glossary_rows("en")
               if messages.get(msgid, context=context) is None]
    assert missing == []


def test_glossary_has_terms_for_every_language():
    assert all(len(list(glossary_rows(language))) >= 10 for language in SECTIONS)
