"""English, Arabic and Spanish from day one; Arabic pages are right-to-left."""

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

LOCALE = Path(__file__).resolve().parents[2] / "locale"


@pytest.mark.django_db
def test_arabic_page_is_right_to_left(client):
    client.post("/language/", {"language": "ar", "next": "/"})

    html = client.get("/").content.decode()

    assert '<html lang="ar" dir="rtl">' in html
    assert "طاولة" in html  # the home page heading, in Arabic


@pytest.mark.django_db
def test_spanish_page_is_left_to_right_and_translated(client):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode()

    assert '<html lang="es" dir="ltr">' in html
    assert "Crear una cuenta" in html


@pytest.mark.django_db
def test_english_is_the_default(client):
    assert '<html lang="en" dir="ltr">' in client.get("/").content.decode()


@pytest.mark.parametrize("language", ["ar", "es"])
def test_every_string_of_ours_is_translated(language):
    with (LOCALE / language / "LC_MESSAGES" / "django.po").open("rb") as handle:
        catalog = read_po(handle, locale=language)

    untranslated = [m.id for m in catalog if m.id and (not m.string or m.fuzzy or
                    (isinstance(m.string, tuple) and not all(m.string)))]
    assert untranslated == []


def test_stylesheet_uses_logical_properties_only():
    css = (Path(__file__).resolve().parents[2] / "static/css/chalk.css").read_text()
    physical = ["margin-left", "margin-right", "padding-left", "padding-right", "text-align: left",
                "text-align: right", "float: left", "float: right", "border-left", "border-right"]

    assert [word for word in physical if word in css] == []
