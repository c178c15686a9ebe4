// Shared by the live table (table.js) and the archive stepper (replay.js): words and card pictures.
// Every word comes from the server, translated (gameplay/labels.py), in the page's JSON boot data.

// A card, a score or a name inside a sentence, between Unicode isolates (FSI … PDI): it keeps its
// own order inside Arabic text ("A♣" never turns into "♣A", "K♣ Q♣ J♣" never into "♣K♣ Q♣ J").
export function isolate(text) {
  const shown = String(text ?? "");
  return shown ? `\u2068${shown}\u2069` : "";
}

export function fmt(template, params = {}) {
  return String(template ?? "").replace(/%\((\w+)\)s/g, (_, key) => params[key] ?? "");
}

// The Spanish suits have no common font signs: they are written as words (and drawn on the faces).
const SUIT_SIGNS = { french: { S: "♠", H: "♥", D: "♦", C: "♣" } };
const RED = { french: new Set(["H", "D"]), spanish: new Set() };

export class Cards {
  constructor(boot) {
    // the four-colour deck (a player's table setting): its diamonds and clubs replace the faces
    this.faces = boot.prefs?.four_colour_deck ? { ...boot.cards.faces, ...(boot.cards.faces4 ?? {}) } : boot.cards.faces;
    this.back = boot.cards.back;
    this.deck = boot.cards.deck;
    this.labels = boot.labels;
    this.order = Object.keys(this.faces); // deck order: suit by suit, ranks low to high
    this.perSuit = this.order.length / 4;
  }

  split(code) { return [code.slice(0, -1), code.slice(-1)]; }

  suitName(suit) { return this.labels.suits[this.deck]?.[suit] ?? suit; }

  sign(suit) { return SUIT_SIGNS[this.deck]?.[suit] ?? ""; }

  // "♠ spades" in the French deck, "oros" in the Spanish one.
  suitText(suit) { return `${this.sign(suit)} ${this.suitName(suit)}`.trim(); }

  isRed(suit) { return RED[this.deck]?.has(suit); }

  name(code) {
    const [rank, suit] = this.split(code);
    return fmt(this.labels.text.card_of, { rank: this.labels.ranks[rank] ?? rank, suit: this.suitName(suit) });
  }

  // A short text for a card inside a sentence, isolated (see isolate): "10♦" in the French deck;
  // in the Spanish one its name with the article, "el as de oros", "la sota de copas".
  short(code) {
    const [rank, suit] = this.split(code);
    if (this.deck === "french") return isolate(`${rank === "T" ? "10" : rank}${this.sign(suit)}`);
    const words = this.labels.spanish_cards ?? {};
    return isolate(fmt(words[rank] ?? words.number, { rank, suit: this.suitName(suit) }));
  }

  // Several cards in a sentence ("K♣ Q♣ J♣"), read in the order given in every language.
  list(codes) { return isolate(codes.map((code) => this.short(code)).join(" ")); }

  // Hand order: suit by suit, the highest card first.
  sort(codes) {
    const index = (code) => this.order.indexOf(code);
    return [...codes].sort((a, b) => {
      const [sa, sb] = [Math.floor(index(a) / this.perSuit), Math.floor(index(b) / this.perSuit)];
      return sa - sb || index(b) - index(a);
    });
  }

  // Hand order by rank: the highest rank first, suit by suit within a rank.
  sortByRank(codes) {
    const index = (code) => this.order.indexOf(code);
    return [...codes].sort((a, b) => (index(b) % this.perSuit) - (index(a) % this.perSuit)
      || Math.floor(index(a) / this.perSuit) - Math.floor(index(b) / this.perSuit));
  }

  img(code, extra = "") {
    const image = document.createElement("img");
    image.src = code ? this.faces[code] : this.back;
    image.alt = code ? this.name(code) : "";
    image.className = `card-img ${extra}`.trim();
    image.draggable = false;
    if (code) image.dataset.card = code;
    return image;
  }
}

// "+3" that stays "+3" inside right-to-left text (a left-to-right mark keeps the sign in front).
export function signed(number) {
  // the same isolation as config/formatting.py's signed filter: "+1" never flips to "1+"
  return `\u2066+${number}\u2069`;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("data-") || key.startsWith("aria-") || key === "role" || key === "hidden") node.setAttribute(key, value === true ? "" : value);
    else node[key] = value;
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

// "by Devi" under a contract, "by you" for the reader's own (never "— Tú", a name in the third person).
export function byWhom(labels, name, mine) {
  return mine ? labels.text.bid_by_you : fmt(labels.text.bid_by, { name: isolate(name) });
}

// The caption of the last trick: "won by Devi", "won by you" (never «أكلها أنت»).
export function lastTrickBy(labels, name, mine) {
  return mine ? labels.text.last_trick_yours : fmt(labels.text.last_trick, { name: isolate(name) });
}

// The seat that plays after `seat` (La Cuatrola skips the partner who sits out).
export function nextSeat(seat, players, sitsOut) {
  let next = (seat + 1) % players;
  if (next === sitsOut) next = (next + 1) % players;
  return next;
}

// Screen position of a seat: 0 bottom, 1 right, 2 top, 3 left. Play goes anticlockwise, so the
// next player sits on your right in every language (the seats are not mirrored in Arabic).
export function position(seat, viewer, players) {
  const relative = (seat - viewer + players) % players;
  return players === 2 ? [0, 2][relative] : relative;
}

// Words for a deal's detail and its point items (docs/rules/<game>.md "detail").
export function detailRows(detail, cards, labels, names, mySeat = null) {
  const rows = [];
  const words = labels.detail;
  const word = (value) => words[value] ?? labels.contracts[value] ?? String(value).replaceAll("_", " ");
  if (detail.contract) {
    let text = word(detail.contract);
    const who = detail.bidder ?? detail.declarer;
    if (who !== undefined && who !== null) text += " · " + byWhom(labels, names[who], who === mySeat);
    if (detail.multiplier > 1) text += ` ×${detail.multiplier}`;
    rows.push({ label: words.contract, text });
  }
  if (detail.trump) rows.push({ label: words.trump, text: cards.suitText(detail.trump) });
  if (detail.result) rows.push({ label: words.result, text: word(detail.result) });
  const items = itemRows(detail, cards, words, names);
  for (const key of ["tricks_won", "card_points", "card_points_with_bonus", "game_totals", "cante_points",
    "last_trick_bonus", "totals", "raw"]) {
    rows.push(...(items[key] ?? []));
    const pair = detail[key];
    if (Array.isArray(pair) && pair.length === 2 && (pair[0] || pair[1])) rows.push({ label: words[key] ?? key, pair });
  }
  for (const item of detail.points ?? []) {
    const [name, team, points] = item;
    const pair = [0, 0];
    pair[team] = signed(points);
    let label = word(name);
    const info = detail[name];
    if (info && typeof info === "object" && info.card) label += ` (${cards.short(info.card)})`;
    rows.push({ label, pair, points: true });
  }
  return rows;
}

// docs/rules/baloot.md R8.1: a belote is worth 20 (raw points) and no option changes that; the
// deal record lists each belote as {seat, suit} without its value.
const BELOTE_POINTS = 20;

// One row per scoring meld and belote (Baloot) and per cante (La Cuatrola), so that a player sees
// whose it was and what it scored. Keyed by the row of the total each one adds into (Baloot's
// "raw", La Cuatrola's "cante_points"): detailRows puts them just above it. Their values are raw
// points, what the rules call the meld value (baloot.md R7.5, R8.1, R9.3; cuatrola.md R23), in the
// same unit as the card-point rows around them, not match points; so they are shown unsigned,
// in the column of the owner's team (team = seat % 2).
function itemRows(detail, cards, words, names) {
  const row = (seat, label, points) => {
    const pair = ["", ""];
    pair[seat % 2] = String(points);
    return { label, pair };
  };
  return {
    raw: [
      ...(detail.melds ?? []).map((meld) => row(meld.seat, fmt(words.meld_by,
        { name: isolate(names[meld.seat]), cards: cards.list(meld.cards) }), meld.points)),
      ...(detail.belote ?? []).map((belote) => row(belote.seat, fmt(words.belote_by,
        { name: isolate(names[belote.seat]), suit: cards.suitText(belote.suit) }), BELOTE_POINTS)),
    ],
    cante_points: (detail.cantes ?? []).map((cante) => row(cante.seat, fmt(words.cante_by,
      { name: isolate(names[cante.seat]), suit: cards.suitText(cante.suit) }), cante.points)),
  };
}

// ----- the score sheet (gameplay/scoresheet.py: the same rows, from the same deal records) ------

// One row per closed deal: {deal, points: [team 0, team 1], total: [team 0, team 1]}.
export function sheetRows(records) {
  return (records ?? []).map((record, index) => ({ deal: index + 1, points: record.delta, total: record.score }));
}

// A sheet's table: the deal, each team's points in `order` (the reader's team first at the table),
// and a Total row with the score after the last deal. Cells name their team (data-team).
export function sheetTable(rows, labels, order, heads, caption = "") {
  const T = labels.text;
  const cells = (pair) => order.map((team) => el("td", { "data-team": String(team), text: String(pair?.[team] ?? 0) }));
  const body = el("tbody", {}, rows.map((row) => el("tr", { "data-deal": String(row.deal) },
    el("th", { scope: "row", text: String(row.deal) }), ...cells(row.points))));
  const foot = rows.length ? el("tfoot", {}, el("tr", { class: "total" },
    el("th", { scope: "row", text: T.sheet_total }), ...cells(rows.at(-1).total))) : null;
  return el("table", { class: "sheet-table" },
    caption ? el("caption", { text: caption }) : null,
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: T.sheet_deal }), ...heads)), body, foot);
}
