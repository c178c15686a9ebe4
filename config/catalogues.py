"""Compile the translation catalogues (locale/*/LC_MESSAGES/*.po -> .mo) with Babel.

Django's `compilemessages` needs GNU gettext's msgfmt, which a fresh machine may not have;
Babel is pure Python and already a dependency. `make run` and `make test` call this, and the
test suite calls `ensure_compiled()` so a bare `pytest` also sees current catalogues.

    python -m config.catalogues
"""

import sys
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def catalogue_pairs(locale_dir=LOCALE_DIR):
    for po_path in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        yield po_path, po_path.with_suffix(".mo")


def compile_one(po_path, mo_path):
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    locale = po_path.parent.parent.name
    with po_path.open("rb") as handle:
        catalog = read_po(handle, locale=locale)
    errors = [(message.id, error) for message, errs in catalog.check() for error in errs]
    if errors:
        raise SystemExit(f"{po_path}: {errors[0][1]} in {errors[0][0]!r}")
    with mo_path.open("wb") as handle:
        write_mo(handle, catalog, use_fuzzy=False)


def ensure_compiled(locale_dir=LOCALE_DIR, force=False):
    """Compile every catalogue whose .mo is missing or older than its .po; return their count."""
    compiled = 0
    for po_path, mo_path in catalogue_pairs(locale_dir):
        if force or not mo_path.exists() or mo_path.stat().st_mtime < po_path.stat().st_mtime:
            compile_one(po_path, mo_path)
            compiled += 1
    return compiled


def main():
    count = ensure_compiled(force="--force" in sys.argv)
    print(f"translation catalogues compiled: {count}")


if __name__ == "__main__":
    main()
