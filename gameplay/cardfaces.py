"""SVG card faces for the French and the Spanish decks, drawn from code (no downloaded art).

`python manage.py make_card_faces` writes `static/cards/french/<code>.svg` (all 52 French cards;
All Fours uses them all, Baloot the 32 from Seven up), `static/cards/french4/<code>.svg` (the
diamonds and clubs of the four-colour deck), `static/cards/spanish/<code>.svg` (the
20 cards of La Cuatrola) and `static/cards/back.svg`. Codes are the engine's
(docs/contracts/engine.md): `AS`, `TD`, `7H`; `1O`, `12E`, `10C`. The two decks live in their own
folders because some codes are in both (`3C` is the three of clubs and the three of copas).

A face is deliberately plain: the rank and a suit sign in two corners, one large suit sign in the
middle, and a framed panel for the court cards. Suits are simple paths, so the faces look the same
whatever fonts a browser has; only the rank is text.
"""

from __future__ import annotations

from pathlib import Path

from gameplay.rules.cards import FRENCH_52
from gameplay.rules.cuatrola_tables import DECK as SPANISH_20

WIDTH, HEIGHT = 120, 168

# --- suit signs, each a path in a 100 x 100 box ------------------------------------------------

FRENCH_SUITS = {
    "S": ("#1d232a", "M50 4 C62 24 96 40 96 62 C96 80 74 88 58 74 C60 86 64 94 72 98 L28 98 "
                     "C36 94 40 86 42 74 C26 88 4 80 4 62 C4 40 38 24 50 4 Z"),
    "H": ("#c62828", "M50 96 C36 80 4 60 4 32 C4 14 18 4 32 4 C42 4 48 10 50 18 C52 10 58 4 68 4 "
                     "C82 4 96 14 96 32 C96 60 64 80 50 96 Z"),
    "D": ("#c62828", "M50 2 L90 50 L50 98 L10 50 Z"),
    "C": ("#1d232a", "M50 4 A21 21 0 0 1 66 39 A21 21 0 1 1 58 74 C60 86 64 94 72 98 L28 98 "
                     "C36 94 40 86 42 74 A21 21 0 1 1 34 39 A21 21 0 0 1 50 4 Z"),
}

# Spanish suits: a gold coin, a cup, a sword, a wooden club.
SPANISH_SUITS = {
    "O": ("#b7860b", '<circle cx="50" cy="50" r="44" fill="#e0b021" stroke="#8a6508" stroke-width="6"/>'
                     '<circle cx="50" cy="50" r="22" fill="none" stroke="#8a6508" stroke-width="5"/>'
                     '<circle cx="50" cy="50" r="6" fill="#8a6508"/>'),
    "C": ("#b3261e", '<path d="M14 8 L86 8 C86 40 70 54 56 58 L56 78 L74 90 L74 96 L26 96 L26 90 L44 78 '
                     'L44 58 C30 54 14 40 14 8 Z" fill="#d0392f" stroke="#7c1a14" stroke-width="4" '
                     'stroke-linejoin="round"/><path d="M22 18 L78 18" stroke="#f2c14e" stroke-width="6"/>'),
    "E": ("#1f5fa8", '<path d="M50 2 L60 16 L60 70 L40 70 L40 16 Z" fill="#cfd8e3" stroke="#1f5fa8" '
                     'stroke-width="4" stroke-linejoin="round"/>'
                     '<rect x="20" y="68" width="60" height="10" rx="4" fill="#1f5fa8"/>'
                     '<rect x="44" y="78" width="12" height="14" fill="#7a4b1e"/>'
                     '<circle cx="50" cy="94" r="6" fill="#1f5fa8"/>'),
    "B": ("#2e6b2f", '<path d="M40 96 L34 20 C32 8 44 2 52 4 C66 6 70 18 66 28 L60 96 Z" fill="#8d5a2b" '
                     'stroke="#4e3015" stroke-width="4" stroke-linejoin="round"/>'
                     '<circle cx="46" cy="34" r="4" fill="#4e3015"/><circle cx="56" cy="56" r="4" fill="#4e3015"/>'
                     '<circle cx="47" cy="74" r="4" fill="#4e3015"/>'),
}

# The four-colour deck (a player's table setting, issue 32): diamonds blue and clubs green, so
# no two suits share a colour; spades and hearts stay as they are. Written to static/cards/french4/.
FOUR_COLOURS = {"D": "#1f5fa8", "C": "#2e7d32"}

FRENCH_RANK_TEXT = {"T": "10"}
FRENCH_COURTS = {"J", "Q", "K"}
SPANISH_COURTS = {"10": "SOTA", "11": "CABALLO", "12": "REY"}


def french_sign(suit: str, colour: str | None = None) -> str:
    own, path = FRENCH_SUITS[suit]
    return f'<path d="{path}" fill="{colour or own}"/>'


def spanish_sign(suit: str) -> str:
    return SPANISH_SUITS[suit][1]


def placed(sign: str, x: float, y: float, size: float, rotate: bool = False) -> str:
    """A 100 x 100 sign drawn in a size x size square at (x, y), optionally upside down."""
    scale = size / 100
    turn = " rotate(180 50 50)" if rotate else ""
    return f'<g transform="translate({x} {y}) scale({scale}){turn}">{sign}</g>'


def corner_index(rank: str, colour: str, sign: str) -> str:
    """Rank and a small sign at the top-left corner, and the same turned at the bottom-right."""
    size = 22 if len(rank) < 2 else 17
    index = (f'<text x="14" y="28" font-family="Georgia, \'DejaVu Serif\', serif" font-size="{size}" '
             f'font-weight="700" fill="{colour}" text-anchor="middle">{rank}</text>'
             + placed(sign, 5, 34, 18))
    return f'{index}<g transform="rotate(180 {WIDTH / 2} {HEIGHT / 2})">{index}</g>'


def frame(inner: str, border: str = "#c9c3b3") -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
            f'width="{WIDTH}" height="{HEIGHT}">'
            f'<rect x="1.5" y="1.5" width="{WIDTH - 3}" height="{HEIGHT - 3}" rx="10" fill="#fff" '
            f'stroke="{border}" stroke-width="3"/>{inner}</svg>\n')


def court_panel(colour: str, sign: str, label: str, label_size: int = 30) -> str:
    return (f'<rect x="28" y="36" width="64" height="96" rx="6" fill="{colour}" fill-opacity="0.08" '
            f'stroke="{colour}" stroke-width="2.5"/>'
            f'<text x="60" y="78" font-family="Georgia, \'DejaVu Serif\', serif" font-size="{label_size}" '
            f'font-weight="700" fill="{colour}" text-anchor="middle">{label}</text>'
            + placed(sign, 42, 90, 36))


def french_face(code: str, four_colour: bool = False) -> str:
    rank, suit = code[:-1], code[-1]
    colour = FOUR_COLOURS.get(suit, FRENCH_SUITS[suit][0]) if four_colour else FRENCH_SUITS[suit][0]
    sign = french_sign(suit, colour)
    text = FRENCH_RANK_TEXT.get(rank, rank)
    if rank in FRENCH_COURTS:
        middle = court_panel(colour, sign, rank, 34)
    elif rank == "A":
        middle = placed(sign, 25, 49, 70)
    else:
        middle = placed(sign, 34, 58, 52)
    return frame(corner_index(text, colour, sign) + middle)


def spanish_face(code: str) -> str:
    rank, suit = code[:-1], code[-1]
    colour = SPANISH_SUITS[suit][0]
    sign = spanish_sign(suit)
    if rank in SPANISH_COURTS:
        middle = court_panel(colour, sign, SPANISH_COURTS[rank], 13 if rank == "11" else 16)
    elif rank == "1":
        middle = placed(sign, 22, 46, 76)
    else:
        middle = placed(sign, 32, 56, 56)
    border = colour  # the Spanish pack's framed edge ("la pinta") in the suit colour
    return frame(corner_index(rank, colour, sign) + middle, border)


def back() -> str:
    stripes = "".join(f'<path d="M{x} 0 L{x + HEIGHT} {HEIGHT}" stroke="#2a7a5c" stroke-width="3"/>'
                      for x in range(-HEIGHT, WIDTH + 1, 12))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
            f'width="{WIDTH}" height="{HEIGHT}">'
            f'<defs><clipPath id="inside"><rect x="9" y="9" width="{WIDTH - 18}" height="{HEIGHT - 18}" '
            f'rx="6"/></clipPath></defs>'
            f'<rect x="1.5" y="1.5" width="{WIDTH - 3}" height="{HEIGHT - 3}" rx="10" fill="#fff" '
            f'stroke="#c9c3b3" stroke-width="3"/>'
            f'<rect x="9" y="9" width="{WIDTH - 18}" height="{HEIGHT - 18}" rx="6" fill="#1f5c45"/>'
            f'<g clip-path="url(#inside)">{stripes}</g>'
            f'<circle cx="{WIDTH / 2}" cy="{HEIGHT / 2}" r="24" fill="#fbfaf6"/>'
            f'<text x="{WIDTH / 2}" y="{HEIGHT / 2 + 11}" font-family="Georgia, \'DejaVu Serif\', serif" '
            f'font-size="32" font-weight="700" fill="#1f5c45" text-anchor="middle">C</text></svg>\n')


def all_faces() -> dict[str, str]:
    """Relative path under static/cards/ -> SVG text, for every card and the back."""
    faces = {f"french/{code}.svg": french_face(code) for code in FRENCH_52.codes}
    faces.update({f"french4/{code}.svg": french_face(code, four_colour=True)
                  for code in FRENCH_52.codes if code[-1] in FOUR_COLOURS})
    faces.update({f"spanish/{code}.svg": spanish_face(code) for code in SPANISH_20.codes})
    faces["back.svg"] = back()
    return faces


def write_faces(target: Path) -> int:
    for name, svg in all_faces().items():
        path = target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(svg, encoding="utf-8")
    return len(all_faces())


def deck_folder(game: str) -> str:
    return "spanish" if game == "cuatrola" else "french"
