// The archive stepper (templates/gameplay/replay.html): a finished match, every hand shown.
// The server replays the match and hands over one frame per action (gameplay/archive.py):
// {action, view (public), hands (all four), deal_record (when a deal closed)}, fetched from
// boot.timeline (gameplay/replay_cache.py: the same file for every language, kept by the browser).

import { Cards, detailRows, el, fmt, isolate, nextSeat, position, sheetRows, sheetTable, signed } from "./cards.js";
import * as saudi from "./saudi.js"; // classic Saudi Baloot's deal summary

const boot = JSON.parse(document.getElementById("replay-boot").textContent);
const cards = new Cards(boot);
const L = boot.labels;
const T = L.text;
const page = document.getElementById("replay-page");
const $ = (selector) => page.querySelector(selector);
const at = { game: 0, step: 0 };
window.chalkReplay = at;

let games = null; // one list of frames per game, once fetched
const frames = () => games[at.game];
const frame = () => frames()[at.step];
const hasEvent = (f, kind) => (f.view.events ?? []).some((e) => e.kind === kind);
const seatName = (seat) => boot.names[seat] ?? "";
const named = (seat) => isolate(seatName(seat)); // inside a sentence: keeps its order in Arabic
const teamName = (team) => boot.names.filter((_, seat) => seat % 2 === team).join(" & ");

// A match-level act (gameplay/archive.py act_frames): a concession, a leave, a bot taking a seat.
const ACTS = {
  concede_proposed: (name) => fmt(T.proposes_concede, { name }), concede_declined: (name) => fmt(T.declines_concede, { name }),
  conceded: (name) => fmt(T.conceded, { name }), replaced: (name) => fmt(T.replaced, { name }),
  forfeited: (name) => fmt(T.forfeited, { name }), returned: (name) => fmt(T.returned, { name }),
};
const ENDINGS = { conceded: "won_by_concession", forfeit: "won_by_forfeit", timeout: "lost_on_time" };

function describeAct(f) {
  const lines = [];
  for (const event of f.view.events ?? []) {
    if (ACTS[event.kind]) lines.push(ACTS[event.kind](named(event.seat)));
    if (event.kind === "match_over") {
      lines.push(fmt(T.team_won, { names: isolate(teamName(event.winner)) }));
      if (ENDINGS[event.finish]) lines.push(T[ENDINGS[event.finish]]);
    }
  }
  return lines.join(" · ");
}

function describe(f) {
  const action = f.action;
  if (!action) return fmt(T.deal, { number: f.view.deal_number });
  if (f.view.events?.some((event) => ACTS[event.kind])) return describeAct(f);
  const name = named(action.seat);
  if (action.type === "play") return fmt(T.plays, { name, card: cards.short(action.card) });
  if (action.type === "bid" || action.type === "announce") return fmt(T.calls, { name, call: L.contracts[action.contract] });
  if (action.type === "sing") return fmt(T.sings, { name, suit: cards.suitName(action.suit) });
  if (action.type === "declare") return fmt(T.declares, { name, melds: action.melds.map((m) => cards.list(m)).join(" + ") });
  if (action.type === "timeout") return fmt(T.timed_out, { name });
  return fmt(T.calls, { name, call: L.actions[action.type] ?? action.type });
}

function renderSeats(f) {
  const v = f.view;
  const players = f.hands.length;
  for (const box of page.querySelectorAll(".seat")) box.replaceChildren();
  for (let seat = 0; seat < players; seat += 1) {
    const box = page.querySelector(`.seat[data-pos="${position(seat, 0, players)}"]`);
    box.classList.toggle("to-act", v.to_act === seat);
    box.classList.toggle("sits-out", v.sits_out === seat);
    box.append(el("div", { class: "seat-head" }, el("span", { class: "seat-name", text: seatName(seat) }),
      v.dealer === seat ? el("span", { class: "chip dealer", text: T.dealer }) : null,
      v.sits_out === seat ? el("span", { class: "chip", text: T.sits_out }) : null));
    const hand = el("div", { class: "replay-hand", "data-testid": `hand-${seat}` });
    for (const code of cards.sort(f.hands[seat])) hand.append(cards.img(code));
    box.append(hand);
  }
}

function renderTrick(f) {
  const v = f.view;
  const area = $(".trick-area");
  area.replaceChildren();
  const players = f.hands.length;
  let trick = v.trick ?? [];
  let caption = "";
  area.classList.remove("previous");
  if (!trick.length && v.last_trick && hasEvent(f, "trick_won")) {
    let seat = v.last_trick.leader;
    trick = v.last_trick.cards.map((card) => { const p = { seat, card }; seat = nextSeat(seat, players, v.sits_out ?? -1); return p; });
    caption = fmt(T.last_trick, { name: named(v.last_trick.winner) });
  }
  for (const { seat, card } of trick) {
    const spot = el("div", { class: `trick-card from-${["bottom", "right", "top", "left"][position(seat, 0, players)]}` });
    spot.append(cards.img(card));
    area.append(spot);
  }
  if (caption) area.append(el("p", { class: "trick-caption", text: caption }));
}

function renderNotes(f) {
  const v = f.view;
  const notes = $(".felt-notes");
  notes.replaceChildren();
  let text = null;
  if (v.game === "baloot" && v.contract) text = [T.contract, L.contracts[v.contract] + (v.multiplier > 1 ? ` ×${v.multiplier}` : "")];
  else if (v.trump) text = [T.trump, cards.suitText(v.trump)];
  if (text) notes.append(el("div", { class: "trump-note", "data-testid": "trump" }, el("span", { class: "note-label", text: text[0] }), el("strong", { text: text[1] })));
  if (v.game === "cuatrola" && v.contract && v.contract !== "pass") {
    notes.append(el("div", { class: "trump-note" }, el("span", { class: "note-label", text: T.contract }),
      el("strong", { text: L.contracts[v.contract] }), el("span", { class: "note-by", text: fmt(T.bid_by, { name: named(v.declarer) }) })));
  }
  const shown = v.game === "cuatrola" ? (v.trump_card ? [v.trump_card] : []) : (v.turn_ups ?? []);
  if (shown.length) notes.append(el("div", { class: "turn-ups" }, shown.map((c) => cards.img(c, "small"))));
}

function renderSide(f) {
  const v = f.view;
  const head = el("tr", {}, el("th"), el("th", { scope: "col", text: teamName(0) }), el("th", { scope: "col", text: teamName(1) }));
  const row = (label, pair) => el("tr", {}, el("th", { scope: "row", text: label }), el("td", { text: String(pair?.[0] ?? "") }), el("td", { text: String(pair?.[1] ?? "") }));
  const body = el("tbody", {}, row(T.score, v.score));
  for (const key of ["tricks_won", "card_points", "game_totals", "cante_points"]) if (v[key]) body.append(row(L.detail[key], v[key]));
  $(".scoreboard").replaceChildren(el("table", { class: "score-table" }, el("thead", {}, head), body),
    el("p", { class: "target", text: fmt(T.deal, { number: v.deal_number }) }));
  const summary = $(".deal-summary-static");
  summary.replaceChildren();
  if (f.deal_record) {
    const detail = f.deal_record.detail ?? {};
    const rows = saudi.isSaudiDetail(detail) ? saudi.detailRows(detail, { L, cards, seatName: named })
      : detailRows(detail, cards, L, boot.names);
    const body2 = el("tbody", {}, rows.map((r) => r.pair
      ? el("tr", {}, el("th", { scope: "row", text: r.label }), el("td", { text: String(r.pair[0] || "") }), el("td", { text: String(r.pair[1] || "") }))
      : el("tr", {}, el("th", { scope: "row", text: r.label }), el("td", { colSpan: 2, text: r.text }))));
    body2.append(el("tr", { class: "total" }, el("th", { text: T.this_deal }), el("td", { text: signed(f.deal_record.delta[0]) }), el("td", { text: signed(f.deal_record.delta[1]) })));
    summary.append(el("h2", { text: fmt(T.deal_summary, { number: f.deal_record_number }) }),
      el("table", { class: "summary-table", "data-testid": "replay-summary" }, el("thead", {}, head.cloneNode(true)), body2));
  }
}

// The score sheet up to the step shown: every deal closed at or before it (a closing step and the
// next deal's first step carry the same record, counted once by its number).
function renderSheet() {
  const records = [];
  for (const f of frames().slice(0, at.step + 1)) if (f.deal_record) records[f.deal_record_number - 1] = f.deal_record;
  const rows = sheetRows(records.filter(Boolean));
  const heads = [0, 1].map((team) => el("th", { scope: "col", text: teamName(team) }));
  $(".sheet-body").replaceChildren(rows.length ? sheetTable(rows, L, [0, 1], heads)
    : el("p", { class: "helptext", text: T.sheet_empty }));
}

function render() {
  const f = frame();
  renderSheet();
  renderSeats(f);
  renderTrick(f);
  renderNotes(f);
  renderSide(f);
  $(".replay-action").textContent = describe(f);
  $(".step-label").textContent = fmt(T.step, { step: at.step, total: frames().length - 1 });
  const last = frames().length - 1;
  for (const button of page.querySelectorAll("[data-go]")) {
    const forward = button.dataset.go.endsWith("+");
    button.disabled = forward ? at.step >= last : at.step <= 0;
  }
  for (const tab of page.querySelectorAll("[data-game]")) tab.setAttribute("aria-pressed", String(Number(tab.dataset.game) === at.game));
  const exportLink = $("[data-testid=export]");  // the export is of the game shown
  if (exportLink) exportLink.search = `?game=${at.game}`;
}

// The next (or previous) step whose frame closed a trick / began a deal; the end (or start)
// otherwise. A deal's first step has no action (gameplay/archive.py splits the step that deals it).
function seek(kind, direction) {
  const list = frames();
  for (let i = at.step + direction; i > 0 && i < list.length; i += direction) {
    if (hasEvent(list[i], kind)) return i;
  }
  return direction > 0 ? list.length - 1 : 0;
}

function go(command) {
  const direction = command.endsWith("+") ? 1 : -1;
  const what = command.slice(0, -1);
  if (what === "step") at.step = Math.min(frames().length - 1, Math.max(0, at.step + direction));
  else at.step = seek(what === "trick" ? "trick_won" : "deal", direction);
  render();
}

// The timeline, fetched once; what the reader clicks or presses before it arrives is done after.
async function fetchTimeline() {
  for (const control of page.querySelectorAll("[data-go], [data-game]")) control.disabled = true;
  $(".replay-action").textContent = T.replay_loading;
  try {
    const response = await fetch(boot.timeline, { credentials: "same-origin" });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    games = await response.json();
  } catch (error) {
    $(".replay-action").textContent = T.replay_failed;
    return false;
  }
  for (const tab of page.querySelectorAll("[data-game]")) tab.disabled = false;
  render();
  return true;
}
const ready = fetchTimeline();
const whenReady = (step) => ready.then((loaded) => { if (loaded) step(); });

page.addEventListener("click", (event) => {
  const button = event.target.closest("[data-go]");
  if (button) whenReady(() => go(button.dataset.go));
  const tab = event.target.closest("[data-game]");
  if (tab) whenReady(() => { at.game = Number(tab.dataset.game); at.step = 0; render(); });
});

document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, select, textarea")) return;
  const rtl = document.documentElement.dir === "rtl";
  const arrows = { ArrowRight: rtl ? "-" : "+", ArrowLeft: rtl ? "+" : "-" };
  let command = null;
  if (event.key in arrows) command = (event.shiftKey ? "trick" : "step") + arrows[event.key];
  else if (event.key === "PageDown") command = "deal+";
  else if (event.key === "PageUp") command = "deal-";
  else if (event.key === "Home" || event.key === "End") {
    const end = event.key === "End";
    whenReady(() => { at.step = end ? frames().length - 1 : 0; render(); });
    event.preventDefault();
    return;
  }
  if (!command) return;
  whenReady(() => go(command));
  event.preventDefault();
});
