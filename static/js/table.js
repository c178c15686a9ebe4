// Chalk's live table (templates/gameplay/table.html), a vanilla ES module: no build step.
//
// Talks the protocol of docs/contracts/protocol.md over /ws/matches/<id>/: renders every
// `state` frame it receives, sends `act` with a fresh `ref` and the `seq` of the state it acted on,
// reconnects by itself with backoff (resending an unanswered act with the same ref, then `sync`),
// and shows an offline badge meanwhile. Any legal action with a `card` is a card in the hand;
// every other legal action is a button labelled from the translated dictionary in the boot data.

import { Cards, byWhom, detailRows, el, fmt, isolate, lastTrickBy, nextSeat, position, sheetRows, sheetTable, signed } from "./cards.js";
import * as saudi from "./saudi.js"; // classic Saudi Baloot's parts (view.mode "saudi_classic")

const boot = JSON.parse(document.getElementById("table-boot").textContent);
const cards = new Cards(boot);
const L = boot.labels;
const T = L.text;
const page = document.getElementById("table-page");
const $ = (selector) => page.querySelector(selector);

const table = {
  frame: null, // the last `state` frame
  socket: null,
  attempts: 0,
  reconnecting: false,
  pending: null, // {ref, seq, action} of an act not yet answered
  seenDeals: null, // "game:deals" already summarised
  summaryShown: false,
  resultDismissed: false,
  holdResult: false, // the decisive deal's summary is shown first; the result after "Continue"
  log: [],
  chat: [], // chat frames, oldest first
  muted: localStorage.getItem("chalk-chat-muted") === "1",
  dealt: [], // the reader's cards in the order they came to the hand (hand order "as dealt")
  wasMyTurn: false,
  trickShown: [], // the trick's cards drawn last time (a new one slides in from its seat)
};
const prefs = boot.prefs ?? {}; // the player's table settings (clubs' Player; gameplay/views.py TABLE_PREFS)
window.chalkTable = table; // for the browser tests and the curious

// After an ack, how long the frame of that action may take before we ask for a fresh state.
const ACK_FRAME_GRACE_MS = 3000;

// ----- the socket ----------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}${boot.ws}`);
  table.socket = socket;
  socket.addEventListener("open", () => {
    table.attempts = 0;
    setOnline(true);
    if (table.reconnecting) {
      if (table.pending) send({ type: "act", ...table.pending }); // same ref: applied at most once
      send({ type: "sync" });
    }
    table.reconnecting = false;
    send({ type: "chat_history" });
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    if (table.socket !== socket) return;
    setOnline(false);
    if (event.code === 4403) return; // forbidden: reconnecting would not help
    table.reconnecting = true;
    const delay = Math.min(10000, 500 * 2 ** table.attempts) * (0.75 + Math.random() / 2);
    table.attempts += 1;
    setTimeout(connect, delay);
  });
}

function send(message) {
  if (table.socket?.readyState === WebSocket.OPEN) table.socket.send(JSON.stringify(message));
}

function newRef() {
  const random = crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  return `c-${random}`.slice(0, 64);
}

function act(action) {
  if (table.pending || !table.frame) return;
  table.pending = { ref: newRef(), seq: table.frame.seq, action };
  showError("");
  send({ type: "act", ...table.pending });
  render();
}

function receive(message) {
  if (message.type === "state") {
    if (table.frame && message.seq < table.frame.seq) return; // an older frame overtaken
    const wasWaiting = table.frame ? table.frame.status === "waiting" : boot.status === "waiting";
    const previousGame = table.frame?.view?.match?.game_number;
    table.frame = message;
    if (table.pending && message.seq !== table.pending.seq) table.pending = null;
    if (message.history) rebuildLog(message.history);
    else note(message.events);
    if (wasWaiting && message.status !== "waiting") refreshSeats();
    // A fresh state (reconnect, stale) can overtake the broadcast frame that ended a game; its
    // history still holds the game_over event.
    const skippedGameOver = message.history && previousGame !== undefined
      && message.view?.match?.game_number > previousGame;
    showGameOver(skippedGameOver ? message.history : message.events);
    render();
  } else if (message.type === "ack") {
    // The ack comes straight back on this socket, while the state it produced travels through
    // the channel layer and can arrive later: the decision stays taken until that frame is here.
    if (table.pending?.ref !== message.ref) return;
    if (table.frame && table.frame.seq >= message.seq) { table.pending = null; return; }
    const ref = message.ref; // a frame lost on the way must not leave the table locked
    setTimeout(() => { if (table.pending?.ref === ref) send({ type: "sync" }); }, ACK_FRAME_GRACE_MS);
  } else if (message.type === "rematch") {
    receiveRematch(message);
  } else if (message.type === "chat") {
    addChat([message]);
  } else if (message.type === "chat_history") {
    table.chat = [];
    addChat(message.messages);
  } else if (message.type === "error" && message.ref?.startsWith("m-")) {
    showChatError(T[`chat_${message.code}`] ?? message.message);
  } else if (message.type === "error") {
    if (!message.ref || table.pending?.ref === message.ref) table.pending = null;
    showError(message.code === "stale" ? T.stale : message.reason === "seat_held" ? T.seat_held : message.message);
    if (message.code === "forbidden" && !table.frame) showError(message.message);
    render();
  }
}

function setOnline(online) {
  const badge = $(".conn-badge");
  badge.hidden = online;
  badge.textContent = online ? T.online : T.offline;
  page.classList.toggle("offline", !online);
}

function showError(text) {
  $(".error-line").textContent = text || "";
}

// ----- who is who ----------------------------------------------------------------------------

const view = () => table.frame.view;
const viewer = () => table.frame.seat ?? 0;
const players = () => view().players ?? boot.names.length;
const myTeam = () => (table.frame.seat === null ? null : table.frame.seat % 2);

function seatName(seat) {
  if (seat === null || seat === undefined) return "";
  if (seat === table.frame?.seat) return T.you;
  return boot.names[seat] || T.empty;
}

// A seat's name inside a sentence, isolated so that it keeps its order in Arabic text.
const named = (seat) => isolate(seatName(seat));
const isMine = (seat) => seat !== null && seat !== undefined && seat === table.frame?.seat;

// The two teams in the order the reader sees them: their own team first ("Us" before "Them")
// for every seat; a spectator sees team 0 first.
const sides = () => (myTeam() === 1 ? [1, 0] : [0, 1]);
const teamCells = (pair, shown = (value) => String(value ?? 0)) => sides().map((team) => el("td", { text: shown(pair?.[team]) }));
const teamHeads = (classed = false) => sides().map((team) => el("th", { scope: "col", class: classed ? teamClass(team) : null, text: teamName(team) }));

function teamName(team) {
  if (myTeam() !== null) return team === myTeam() ? T.us : T.them;
  const names = [];
  for (let seat = team; seat < players(); seat += 2) names.push(boot.names[seat]);
  return names.join(" & ");
}

// ----- rendering -----------------------------------------------------------------------------

function render() {
  const frame = table.frame;
  if (!frame) return;
  page.dataset.status = frame.status;
  page.dataset.phase = view().phase;
  page.classList.toggle("spectating", frame.seat === null);
  const waiting = document.getElementById("waiting");
  if (waiting && frame.status !== "waiting") waiting.hidden = true;
  renderSeats();
  renderTrick();
  renderNotes();
  renderScores();
  renderSheet();
  renderTurn();
  renderActions();
  renderHand();
  renderLog();
  renderSummary();
  renderConduct();
  renderResult();
  const myTurn = frame.legal.length > 0 && frame.seat !== null;
  if (myTurn && !table.wasMyTurn && frame.status === "playing") noticeTurn();
  table.wasMyTurn = myTurn;
  page.classList.toggle("my-turn", myTurn);
  document.title = myTurn ? `▶ ${T.your_turn} · ${PAGE_TITLE}` : PAGE_TITLE; // seen from another tab
  tick();
}

const PAGE_TITLE = document.title;

// ----- your turn, noticed (opt-in: the profile's or the table menu's "sound and vibration") -----

let audio = null;
function noticeTurn() {
  if (!prefs.turn_alert) return;
  navigator.vibrate?.(180);
  try {
    audio = audio ?? new (window.AudioContext || window.webkitAudioContext)();
    audio.resume?.();
    const tone = audio.createOscillator();
    const level = audio.createGain();
    tone.frequency.value = 880;
    level.gain.setValueAtTime(0.15, audio.currentTime);
    level.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(level).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  } catch (error) { /* no sound on this browser: the title and the banner still say it */ }
  table.noticed = (table.noticed ?? 0) + 1; // for the browser tests
}

// The hand in the player's order: by suit (the default), by rank, or as dealt (the order the
// cards came to the hand; a later batch, a draw or a second dealing, at the end).
function orderedHand(codes) {
  if (prefs.hand_order === "rank") return cards.sortByRank(codes);
  if (prefs.hand_order !== "dealt") return cards.sort(codes);
  const held = new Set(codes);
  const kept = table.dealt.filter((code) => held.has(code));
  const seen = new Set(kept);
  table.dealt = kept.concat(codes.filter((code) => !seen.has(code)));
  return table.dealt;
}

function renderSeats() {
  const v = view();
  const count = players();
  for (const box of page.querySelectorAll(".seat")) box.replaceChildren();
  for (let seat = 0; seat < count; seat += 1) {
    const box = page.querySelector(`.seat[data-pos="${position(seat, viewer(), count)}"]`);
    const acting = v.to_act === seat && table.frame.status === "playing";
    box.className = `seat pos-${["bottom", "right", "top", "left"][Number(box.dataset.pos)]}`;
    box.classList.toggle("to-act", acting);
    const partner = table.frame.seat !== null && seat !== table.frame.seat && seat % 2 === myTeam();
    box.classList.toggle("partner", partner);
    box.classList.add(teamClass(seat % 2));
    box.classList.toggle("sits-out", v.sits_out === seat);
    box.dataset.seat = seat;
    const badges = el("span", { class: "seat-badges" },
      v.dealer === seat ? el("span", { class: "chip dealer", title: T.dealer, text: T.dealer }) : null,
      v.mano === seat && v.game === "cuatrola" ? el("span", { class: "chip", text: T.mano }) : null,
      v.sits_out === seat ? el("span", { class: "chip", text: T.sits_out }) : null,
      boot.bots[seat] ? el("span", { class: "chip bot", text: T.bot }) : null,
      presenceChip(seat),
      partner ? el("span", { class: "chip partner-chip", "data-testid": "partner-chip", text: T.partner }) : null);
    const name = el("span", { class: "seat-name", text: seatName(seat) });
    const head = el("div", { class: "seat-head" }, name, ratingOf(seat), badges,
      acting ? el("span", { class: "countdown", "data-testid": `countdown-${seat}` }) : null);
    box.append(head);
    const call = lastCall(seat);
    if (call) box.append(el("div", { class: "bubble", text: call }));
    const held = v.hand_sizes?.[seat] ?? 0;
    if (seat !== table.frame.seat && held) {
      const fan = el("div", { class: "mini-fan", "aria-label": fmt(T.cards_left, { count: held }) });
      for (let i = 0; i < Math.min(held, 8); i += 1) fan.append(el("span", { class: "mini-back" }));
      fan.append(el("span", { class: "mini-count", text: String(held) }));
      box.append(fan);
    }
    for (const shown of revealedBy(seat)) box.append(el("div", { class: "revealed", text: shown }));
  }
}

const teamClass = (team) => (myTeam() === null ? `team-${team}` : team === myTeam() ? "team-us" : "team-them");
const replaced = (seat) => (view().match?.replaced ?? []).includes(seat);

// A seat's presence (docs/protocol-extensions.md): connected, reconnecting (the countdown to the
// end of the reconnect window ticks here, from `back_by`), replaced by a bot.
const presenceOf = (seat) => (table.frame?.presence ?? []).find((entry) => entry.seat === seat) ?? null;

function presenceChip(seat) {
  const here = presenceOf(seat);
  const state = here?.state ?? (replaced(seat) ? "replaced" : null);
  if (table.frame.status !== "playing" || !state) return null;
  const testid = `presence-${seat}`;
  if (state === "replaced") return el("span", { class: "chip bot presence replaced", "data-testid": testid, text: T.bot_plays });
  if (state === "connected") {
    return el("span", { class: "presence-dot", role: "img", title: T.connected, "aria-label": T.connected, "data-testid": testid });
  }
  if (state !== "reconnecting") return null;
  const chip = el("span", { class: "chip presence reconnecting", "data-testid": testid, role: "status" });
  if (here.back_by) chip.dataset.backBy = here.back_by;
  paintReconnecting(chip);
  return chip;
}

// The word and the seconds apart: on a phone's narrow seat box the chip wraps between them
// instead of cutting the seconds off.
function paintReconnecting(chip) {
  if (!chip.dataset.backBy) { chip.textContent = T.reconnecting; return; }
  const left = Math.max(0, Math.ceil((Date.parse(chip.dataset.backBy) - Date.now()) / 1000));
  chip.replaceChildren(el("span", { text: T.reconnecting }), " ",
    el("span", { class: "away-seconds", text: fmt(T.seconds, { seconds: left }) }));
}

function ratingOf(seat) {
  const badge = document.getElementById("seat-ratings")?.content.querySelector(`[data-seat="${seat}"] .rating-badge`);
  return badge && !boot.bots[seat] ? badge.cloneNode(true) : null;
}

// What a seat said in the current auction (Baloot) or round of calls (La Cuatrola).
function lastCall(seat) {
  const v = view();
  if (saudi.isSaudi(v)) return saudi.lastCall(seat, v, saudiContext());
  if (v.game === "baloot" && v.phase === "auction") {
    const mine = (v.auction ?? []).filter((c) => c.seat === seat).pop();
    if (!mine) return "";
    return mine.call === "bid" ? L.contracts[mine.contract] : L.actions[mine.call] ?? mine.call;
  }
  if (v.game === "cuatrola" && v.phase === "calls") {
    const mine = (v.calls ?? []).filter((c) => c[0] === seat).pop();
    return mine ? (mine[1] === "pass" ? L.actions.pass : L.contracts[mine[1]]) : "";
  }
  return "";
}

function revealedBy(seat) {
  const v = view();
  if (saudi.isSaudi(v)) return saudi.revealedBy(seat, v, saudiContext());
  const shown = [];
  for (const declared of v.declarations ?? []) {
    if (declared.seat === seat) shown.push(declared.melds.map((m) => cards.list(m)).join(" · "));
  }
  return shown;
}

function renderTrick() {
  const v = view();
  const area = $(".trick-area");
  area.replaceChildren();
  const count = players();
  let trick = v.trick ?? [];
  let caption = "";
  if (!trick.length && v.last_trick && v.phase !== "over") {
    let seat = v.last_trick.leader;
    trick = v.last_trick.cards.map((card) => {
      const played = { seat, card };
      seat = nextSeat(seat, count, v.sits_out ?? -1);
      return played;
    });
    caption = lastTrickBy(L, seatName(v.last_trick.winner), isMine(v.last_trick.winner));
    area.classList.add("previous");
  } else {
    area.classList.remove("previous");
  }
  const before = new Set(table.trickShown);
  for (const { seat, card } of trick) {
    // a card new on the table slides in from its player's side (none with prefers-reduced-motion: table.css)
    const arriving = !before.has(card) && !area.classList.contains("previous") ? " arriving" : "";
    const spot = el("div", { class: `trick-card from-${["bottom", "right", "top", "left"][position(seat, viewer(), count)]}${arriving}` });
    spot.append(cards.img(card));
    area.append(spot);
  }
  table.trickShown = trick.map(({ card }) => card);
  if (caption) area.append(el("p", { class: "trick-caption", text: caption }));
}

function trumpText() {
  const v = view();
  if (v.game === "baloot") {
    if (!v.contract) return null;
    const suit = { clubs: "C", diamonds: "D", hearts: "H", spades: "S" }[v.contract];
    let text = (suit ? cards.sign(suit) + " " : "") + L.contracts[v.contract];
    if (v.multiplier > 1) text += ` ×${v.multiplier}`;
    return { label: T.contract, text, by: v.bidder };
  }
  if (!v.trump && v.turn_ups?.length) return { label: T.turned_up, text: cards.short(v.turn_ups.at(-1)) };
  if (!v.trump) return { label: T.trump, text: T.no_trump_yet };
  const text = cards.suitText(v.trump);
  return { label: T.trump, text, red: cards.isRed(v.trump) };
}

function renderNotes() {
  const v = view();
  const notes = page.querySelector(".felt-notes");
  notes.replaceChildren();
  const step = page.querySelector(".felt-step");
  step.replaceChildren();
  if (saudi.isSaudi(v)) {
    notes.append(...saudi.notes(v, saudiContext()));
    const line = saudi.stepNote(v, saudiContext());
    if (line) step.append(line);
    return;
  }
  const trump = trumpText();
  if (trump) {
    notes.append(el("div", { class: `trump-note${trump.red ? " red" : ""}`, "data-testid": "trump" },
      el("span", { class: "note-label", text: trump.label }), el("strong", { text: trump.text }),
      trump.by !== undefined && trump.by !== null ? el("span", { class: "note-by", text: byWhom(L, seatName(trump.by), isMine(trump.by)) }) : null));
  }
  if (v.game === "cuatrola" && v.contract && v.contract !== "pass") {
    notes.append(el("div", { class: "trump-note" }, el("span", { class: "note-label", text: T.contract }),
      el("strong", { text: L.contracts[v.contract] }), el("span", { class: "note-by", text: byWhom(L, seatName(v.declarer), isMine(v.declarer)) })));
  }
  const shown = v.game === "cuatrola" ? (v.trump_card ? [v.trump_card] : []) : (v.turn_ups ?? []);
  if (shown.length) {
    const strip = el("div", { class: "turn-ups" });
    for (const code of shown) strip.append(cards.img(code, "small"));
    notes.append(strip);
  }
  if (v.stock_size) notes.append(el("div", { class: "stock-note", text: fmt(T.stock, { count: v.stock_size }) }));
}

function renderScores() {
  const v = view();
  const match = v.match ?? {};
  const board = $(".scoreboard");
  const dealStats = { allfours: ["game_totals"], baloot: ["tricks_won", "card_points"], cuatrola: ["tricks_won", "card_points", "cante_points"] }[v.game] ?? [];
  const grid = el("table", { class: "score-table" },
    el("thead", {}, el("tr", {}, el("th", {}), ...teamHeads(true))));
  const body = el("tbody");
  const line = (label, pair, cls = "") => body.append(el("tr", { class: cls }, el("th", { scope: "row", text: label }),
    ...teamCells(pair)));
  line(T.score, v.score, "match-score");
  if ((match.games_to_win ?? 1) > 1) line(T.games_won, match.games_won);
  for (const key of dealStats) if (v[key]) line(L.detail[key] ?? key, v[key], "deal-stat");
  grid.append(body);
  const target = boot.past_target ? fmt(T.target_past, { past: v.target + 1, target: v.target }) : fmt(T.target, { target: v.target });
  board.replaceChildren(grid, el("p", { class: "target", "data-testid": "target", text: target }));
  if ((match.games_to_win ?? 1) > 1) board.append(el("p", { class: "target", text: fmt(T.best_of, { number: (match.game_number ?? 0) + 1, wins: match.games_to_win }) }));
  const info = page.querySelector(".deal-info:not(.board-number)");
  info.textContent = v.deal_number ? fmt(T.deal, { number: v.deal_number }) : "";
  renderBoardNumber(match);
}

// The score sheet (gameplay/scoresheet.py): the games already decided (view.match.sheets) and
// the current game's closed deals (view.deals), the reader's team first.
function renderSheet() {
  const box = page.querySelector(".score-sheet .sheet-body");
  if (!box) return;
  const v = view();
  const earlier = v.match?.sheets ?? [];
  const current = sheetRows(v.deals);
  const caption = (index) => (earlier.length || (v.match?.games_to_win ?? 1) > 1 ? fmt(T.sheet_game, { number: index + 1 }) : "");
  const tables = earlier.map((rows, index) => sheetTable(rows, L, sides(), teamHeads(true), caption(index)));
  if (v.match?.winner === null || v.match?.winner === undefined || current.length) {
    tables.push(current.length ? sheetTable(current, L, sides(), teamHeads(true), caption(earlier.length))
      : el("p", { class: "helptext", text: T.sheet_empty }));
  }
  box.replaceChildren(...tables);
}

page.querySelector("[data-testid=open-sheet]")?.addEventListener("click", (event) => {
  const sheet = page.querySelector(".score-sheet");
  if (!sheet) return;
  event.preventDefault();
  sheet.open = true;
  sheet.scrollIntoView({ block: "nearest" });
});

// A duplicate's table: "Board k of N" (k counted at this table; the event's number of the board
// too when it differs, as travellers name boards by it). The words come translated in the page.
function renderBoardNumber(match) {
  const line = page.querySelector('[data-testid="board-number"]');
  if (!line || !match.boards) return;
  const number = Math.min((match.game_number ?? 0) + 1, match.boards);
  const words = match.board && match.board !== number ? line.dataset.textNumbered : line.dataset.text;
  line.textContent = fmt(words, { number, boards: match.boards, board: match.board });
}

function renderTurn() {
  const frame = table.frame;
  const v = view();
  const banner = $(".turn-banner");
  banner.classList.remove("mine");
  if (frame.status === "waiting") banner.textContent = T.waiting;
  else if (frame.status === "finished") banner.textContent = T.finished;
  else if (frame.status === "aborted") banner.textContent = T.aborted;
  else if (frame.legal.length && v.to_act === frame.seat) {
    banner.replaceChildren(el("span", { text: T.your_turn }), el("span", { class: "countdown" }));
    banner.classList.add("mine");
  } else if (v.to_act !== null && v.to_act !== undefined) {
    banner.replaceChildren(el("span", { text: fmt(T.waiting_for, { name: named(v.to_act) }) }), el("span", { class: "countdown" }));
  } else banner.textContent = "";
}

function saudiContext() {
  return { L, cards, seatName: named, mySeat: table.frame?.seat };  // mySeat: the reader's own acts in the second person
}

function actionLabel(action) {
  if (saudi.isSaudi(view())) {
    const text = saudi.actionLabel(action, view(), saudiContext());
    if (text) return text;
  }
  const template = L.actions[action.type] ?? action.type;
  if (action.type === "bid" || action.type === "announce") {
    const suit = { clubs: "C", diamonds: "D", hearts: "H", spades: "S" }[action.contract];
    const name = L.contracts[action.contract] ?? action.contract;
    return action.type === "bid" ? (suit ? `${cards.sign(suit)} ${name}` : name) : name;
  }
  if (action.type === "sing") return fmt(template, { suit: cards.suitName(action.suit) });
  if (action.type === "declare") return fmt(template, { melds: action.melds.map((m) => cards.list(m)).join(" + ") });
  return fmt(template, action);
}

function renderActions() {
  const panel = $(".action-panel");
  panel.replaceChildren();
  const buttons = table.frame.legal.filter((action) => !("card" in action));
  for (const action of buttons) {
    const kind = action.contract ? `${action.type}-${action.contract}` : action.suit ? `${action.type}-${action.suit}` : action.type;
    const button = el("button", { type: "button", class: `act-button act-${action.type}`, "data-action": kind, text: actionLabel(action) });
    button.disabled = Boolean(table.pending);
    button.addEventListener("click", () => act(action));
    panel.append(button);
  }
  panel.hidden = !buttons.length;
}

function renderHand() {
  const hand = $(".hand");
  const v = view();
  const playable = new Map(table.frame.legal.filter((a) => "card" in a).map((a) => [a.card, a]));
  const hadFocus = hand.contains(document.activeElement) ? document.activeElement.dataset.card : null;
  hand.replaceChildren();
  hand.hidden = table.frame.seat === null;
  const codes = orderedHand(v.hand ?? []);
  hand.style.setProperty("--count", codes.length);
  for (const code of codes) {
    const action = playable.get(code);
    const button = el("button", { type: "button", class: `hand-card${action ? " legal" : ""}`, "data-card": code, "aria-label": cards.name(code) });
    button.append(cards.img(code));
    button.disabled = !action || Boolean(table.pending);
    if (action) button.addEventListener("click", () => act(action));
    hand.append(button);
  }
  hand.classList.toggle("my-turn", playable.size > 0);
  const focus = hand.querySelector(`.hand-card[data-card="${hadFocus}"]:not(:disabled)`) ?? (hadFocus ? hand.querySelector(".hand-card:not(:disabled)") : null);
  focus?.focus();
}

// Arrow keys move between the playable cards. The hand is a fan of cards laid left to right in
// every language (the corner indices are on the left), so the arrows follow the screen.
$(".hand").addEventListener("keydown", (event) => {
  const keys = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  if (!(event.key in keys)) return;
  const step = keys[event.key];
  const playable = [...page.querySelectorAll(".hand-card:not(:disabled)")];
  if (!playable.length) return;
  const at = playable.indexOf(document.activeElement);
  playable[(at + step + playable.length) % playable.length].focus();
  event.preventDefault();
});

function eventText(event) {
  const name = named(event.seat);
  const mine = event.seat !== undefined && event.seat === table.frame?.seat;
  const special = saudi.isSaudi(view()) ? saudi.eventText(event, saudiContext()) : undefined;
  if (special !== undefined) return special;
  switch (event.kind) {
    case "played": return fmt(mine ? T.you_play : T.plays, { name, card: cards.short(event.card) });
    case "trick_won": return mine ? T.you_win_trick : fmt(T.wins_trick, { name });
    case "turn_up": return fmt(T.turns_up, { card: cards.short(event.card) });
    case "trump": return fmt(T.trump_is, { suit: cards.suitText(event.suit) });
    case "call": {
      const call = event.call === "bid" ? L.contracts[event.contract]
        : event.call === "pass" ? L.actions.pass : L.contracts[event.call] ?? L.actions[event.call] ?? event.call;
      return fmt(T.calls, { name, call });
    }
    case "contract": return `${T.contract}: ${L.contracts[event.contract] ?? event.contract}`;
    case "deal_over": {
      const [a, b] = sides();
      return fmt(T.deal_over, { a: `${teamName(a)} ${signed(event.delta[a])}`, b: `${teamName(b)} ${signed(event.delta[b])}` });
    }
    case "timeout": return mine ? T.you_timed_out : fmt(T.timed_out, { name });
    case "sing": case "cante": return fmt(mine ? T.you_sing : T.sings, { name, suit: cards.suitName(event.suit) });
    case "new_game": return fmt(T.new_game, { number: event.game_number + 1 });
    case "concede_proposed": return mine ? T.you_propose_concede : fmt(T.proposes_concede, { name });
    case "concede_declined": return fmt(T.declines_concede, { name });
    case "conceded": return mine ? T.you_conceded : fmt(T.conceded, { name });
    case "replaced": return fmt(T.replaced, { name: isolate(boot.names[event.seat]) || name });
    case "returned": return fmt(T.returned, { name: isolate(boot.names[event.seat]) || name });
    case "forfeited": return fmt(T.forfeited, { name: isolate(boot.names[event.seat]) || name });
    case "game_over": return fmt(T.game_over, { number: event.game_number + 1 });
    case "match_over": return T.finished;
    default:
      if (L.actions[event.kind] && event.seat !== undefined) return fmt(T.calls, { name, call: L.actions[event.kind] });
      return null;
  }
}

function note(events) {
  for (const event of events ?? []) {
    const text = eventText(event);
    if (text) table.log.push(text);
  }
  table.log = table.log.slice(-40);
}

// After a reload: the log from the match's latest events (the state's `history`).
function rebuildLog(events) {
  table.log = [];
  note(events);
}

function renderLog() {
  const list = page.querySelector(".event-log ol");
  list.replaceChildren(...table.log.slice().reverse().map((text) => el("li", { text })));
}

function summaryNode(record, number, headingId) {
  const names = boot.names.map((_, seat) => seatName(seat));
  const rows = saudi.isSaudi(view()) ? saudi.detailRows(record.detail ?? {}, saudiContext())
    : detailRows(record.detail ?? {}, cards, L, names, table.frame.seat);
  const body = el("tbody", {}, rows.map((row) => row.pair
    ? el("tr", { class: row.points ? "points" : "" }, el("th", { scope: "row", text: row.label }), ...teamCells(row.pair, (value) => String(value || "")))
    : el("tr", {}, el("th", { scope: "row", text: row.label }), el("td", { colSpan: 2, text: row.text }))));
  body.append(el("tr", { class: "total" }, el("th", { scope: "row", text: T.this_deal }), ...teamCells(record.delta, signed)));
  body.append(el("tr", { class: "total" }, el("th", { scope: "row", text: T.score }), ...teamCells(record.score)));
  return [el("h2", { id: headingId, text: fmt(T.deal_summary, { number }) }),
    el("table", { class: "summary-table" }, el("thead", {}, el("tr", {}, el("th"), ...teamHeads())), body)];
}

function renderSummary() {
  const v = view();
  const deals = v.deals ?? [];
  const key = `${v.match?.game_number ?? 0}:${deals.length}`;
  const box = $(".deal-summary");
  const last = page.querySelector(".last-summary");
  if (!deals.length) { last.hidden = true; }
  else {
    last.hidden = false;
    last.querySelector("summary").textContent = fmt(T.deal_summary, { number: deals.length });
    last.querySelector("div").replaceChildren(...summaryNode(deals.at(-1), deals.length, "last-summary-title").slice(1));
  }
  if (table.seenDeals === null) { table.seenDeals = key; return; }
  if (key !== table.seenDeals && deals.length) {
    table.seenDeals = key;
    const close = el("button", { type: "button", class: "button small", "data-testid": "close-summary", text: T.close });
    close.addEventListener("click", () => { box.hidden = true; table.holdResult = false; renderResult(); });
    table.holdResult = table.frame.status === "finished"; // the decisive deal first, then the result
    const [heading, summary] = summaryNode(deals.at(-1), deals.length, "deal-summary-title");
    box.replaceChildren(el("div", { class: "overlay-head" }, heading, close), summary);
    box.hidden = false;
  }
}

function renderResult() {
  const frame = table.frame;
  const box = $(".match-result");
  if (frame.status !== "finished" && frame.status !== "aborted") { box.hidden = true; return; }
  if (table.holdResult) { box.hidden = true; return; }
  $(".deal-summary").hidden = true;
  $(".game-over").hidden = true;
  const match = view().match ?? {};
  const winner = match.winner ?? view().winner;
  const [a, b] = sides();
  let headline = T.aborted;
  if (frame.status === "finished") {
    if (myTeam() === null) headline = fmt(T.team_won, { names: teamName(winner) });
    else headline = winner === myTeam() ? T.you_won : T.you_lost;
  }
  box.replaceChildren(...[
    el("h2", { id: "match-result-title", text: headline }),
    el("p", { class: "final-score", text: `${T.final_score}: ${teamName(a)} ${view().score[a]} – ${view().score[b]} ${teamName(b)}` }),
    (match.games_to_win ?? 1) > 1 ? el("p", { text: `${T.games_won}: ${match.games_won[a]} – ${match.games_won[b]}` }) : null,
    match.finish === "timeout" ? el("p", { text: T.lost_on_time }) : null,
    match.finish === "conceded" ? el("p", { text: T.won_by_concession }) : null,
    match.finish === "forfeit" ? el("p", { text: T.won_by_forfeit }) : null,
    el("p", { class: "actions" },
      frame.status === "finished" ? el("a", { class: "button", href: boot.replay, "data-testid": "replay-link", text: T.replay }) : null,
      el("a", { class: "button secondary", href: boot.lobby, "data-testid": "back-link", text: T[boot.lobby_label] || T.lobby })),
    frame.status === "finished" ? rematchPanel() : null,
  ].filter(Boolean));
  box.hidden = false;
}

// ----- rematch (docs/protocol-extensions.md, "Rematch") ------------------------------------------

function receiveRematch(message) {
  if (message.match !== boot.match) return;
  table.rematch = message;
  if (message.state === "started" && boot.seat !== null && message.next_url) {
    location.assign(message.next_url); // everyone seated accepted: the same table again
    return;
  }
  if (table.frame) renderResult();
}

function rematchPanel() {
  const R = boot.rematch;
  if (!R) return null;
  const W = R.labels;
  const proposal = table.rematch;
  const names = (seats) => seats.map((seat) => isolate(boot.names[seat])).join(", ");
  const sender = (type) => () => sendRematch({ type, ref: `r-${newRef().slice(2)}`.slice(0, 64) });
  const button = (type, text, testid, extra = "") =>
    el("button", { type: "button", class: `button ${extra}`.trim(), "data-testid": testid, text, onclick: sender(type) });
  const lines = [];
  if (proposal?.state === "open") {
    lines.push(el("p", { "data-testid": "rematch-proposed",
      text: proposal.proposed_by === boot.seat ? W.you_proposed : fmt(W.proposed, { name: isolate(boot.names[proposal.proposed_by]) }) }));
    lines.push(el("p", { "data-testid": "rematch-accepted", text: fmt(W.accepted, { names: names(proposal.accepted) }) }));
    if (proposal.waiting.length) lines.push(el("p", { "data-testid": "rematch-waiting", text: fmt(W.waiting, { names: names(proposal.waiting) }) }));
    if (R.offer && !proposal.accepted.includes(boot.seat)) lines.push(button("rematch", W.accept, "rematch-accept"));
    if (R.offer) lines.push(button("rematch_decline", W.decline, "rematch-decline", "secondary"));
  } else if (proposal?.state === "started") {
    lines.push(el("p", { text: W.started }), el("a", { class: "button", href: proposal.next_url, "data-testid": "rematch-go", text: W.go }));
  } else {
    if (proposal?.state === "cancelled") {
      lines.push(el("p", { "data-testid": "rematch-cancelled",
        text: proposal.reason === "declined" ? fmt(W.declined, { name: isolate(boot.names[proposal.declined_by]) }) : W.timeout }));
    }
    if (R.offer) lines.push(button("rematch", W.rematch, "rematch"));
  }
  return lines.length ? el("div", { class: "rematch", "data-testid": "rematch-panel", "aria-live": "polite" }, ...lines) : null;
}

function sendRematch(message) {
  showError("");
  send(message);
}

// ----- a game of a best-of-N is over -----------------------------------------------------------

function showGameOver(events) {
  const over = (events ?? []).findLast((event) => event.kind === "game_over");
  const match = table.frame.view.match ?? {};
  if (!over || match.winner !== null && match.winner !== undefined) return; // the match result says it
  const box = $(".game-over");
  const mine = myTeam();
  const [a, b] = sides();
  const line = mine === null ? fmt(T.game_won_by, { names: teamName(over.winner) })
    : over.winner === mine ? T.you_won_game : T.you_lost_game;
  const close = el("button", { type: "button", class: "button small", "data-testid": "close-game-over", text: T.next_game });
  close.addEventListener("click", () => { box.hidden = true; });
  const deal = over.deal ? summaryNode(over.deal, 0, "game-over-deal").slice(1) : [];
  box.replaceChildren(
    el("div", { class: "overlay-head" }, el("h2", { id: "game-over-title", text: fmt(T.game_over, { number: over.game_number + 1 }) }), close),
    el("p", { class: "game-over-line", text: line }),
    el("p", { class: "games-score", "data-testid": "games-score", text: fmt(T.games_score, { a: `${teamName(a)} ${over.games_won[a]}`, b: `${over.games_won[b]} ${teamName(b)}` }) }),
    ...deal);
  $(".deal-summary").hidden = true;
  box.hidden = false;
}

// ----- conceding and leaving (docs/protocol-extensions.md) --------------------------------------

function matchAct(type) {
  table.confirming = null;
  send({ type, ref: newRef() });
  render();
}

function conductButton(label, onClick, testid, secondary = true) {
  const button = el("button", { type: "button", class: `button small${secondary ? " secondary" : ""}`, "data-testid": testid, text: label });
  button.addEventListener("click", onClick);
  return button;
}

function renderConduct() {
  const panel = $(".conduct");
  if (!panel) return;
  const frame = table.frame;
  const seat = frame.seat;
  const offered = replaced(seat) && frame.status === "playing";
  if (offered && panel.querySelector("[data-testid=take-seat-back]")) return; // kept while bots play on
  panel.replaceChildren();
  panel.hidden = frame.status !== "playing";
  if (panel.hidden) return;
  if (offered) { // left, or away too long: the seat is theirs again for the asking
    panel.append(el("p", { class: "conduct-note", text: T.bot_has_your_seat }),
      el("p", { class: "conduct-buttons" }, conductButton(T.take_seat_back, () => matchAct("return"), "take-seat-back", false)));
    return;
  }
  const by = view().match?.concede_by ?? null;
  const partner = (seat + 2) % 4;
  const ask = (text, ...buttons) => panel.append(el("p", { class: "conduct-note", text }), el("p", { class: "conduct-buttons" }, ...buttons));
  if (table.confirming) {
    const yes = table.confirming === "leave" ? T.leave : T.concede;
    ask(table.confirming === "leave" ? T.leave_confirm : T.concede_confirm,
      conductButton(yes, () => matchAct(table.confirming), "confirm-conduct", false),
      conductButton(T.conduct_cancel, () => { table.confirming = null; renderConduct(); }, "cancel-conduct"));
  } else if (by === seat) {
    ask(T.concede_waiting, conductButton(T.concede_withdraw, () => matchAct("concede_decline"), "withdraw-concede"));
  } else if (by === partner && players() === 4) {
    ask(fmt(T.concede_asked, { name: named(partner) }),
      conductButton(T.concede_agree, () => matchAct("concede"), "agree-concede", false),
      conductButton(T.concede_refuse, () => matchAct("concede_decline"), "refuse-concede"));
  } else {
    if (by !== null) panel.append(el("p", { class: "conduct-note", text: T.they_concede_asked }));
    panel.append(el("p", { class: "conduct-buttons" },
      by === null ? conductButton(T.concede, () => { table.confirming = "concede"; renderConduct(); }, "concede") : null,
      conductButton(T.leave, () => { table.confirming = "leave"; renderConduct(); }, "leave")));
  }
}

// ----- chat (players and spectators apart; text is always set as text) ---------------------------

function addChat(lines) {
  const known = new Set(table.chat.map((line) => line.id));
  table.chat = table.chat.concat((lines ?? []).filter((line) => !known.has(line.id))).slice(-50);
  renderChat();
}

function chatLine(line) {
  const mine = line.user === boot.user;
  const who = line.seat !== null && table.frame ? seatName(line.seat) : line.name;
  const words = line.phrase ? L.chat[line.phrase] ?? line.phrase : line.text;
  return el("li", { class: `chat-line${mine ? " mine" : ""}${line.seat !== null && table.frame ? ` ${teamClass(line.seat % 2)}` : ""}` },
    el("strong", { class: "chat-who", text: who }), " ", el("span", { class: "chat-words", text: words }));
}

function renderChat() {
  const list = page.querySelector(".chat-lines");
  const shown = table.muted ? table.chat.filter((line) => line.user === boot.user) : table.chat;
  list.replaceChildren(...shown.map(chatLine));
  list.scrollTop = list.scrollHeight;
  const mute = page.querySelector(".chat-mute");
  mute.textContent = table.muted ? T.chat_muted : T.chat_mute;
  mute.setAttribute("aria-pressed", String(table.muted));
}

function showChatError(text) {
  const line = page.querySelector(".chat-error");
  if (line) line.textContent = text || "";
}

function sendChat(message) {
  showChatError("");
  send({ type: "chat", ref: `m-${newRef().slice(2, 40)}`, ...message });
}

function setUpChat() {
  const phrases = page.querySelector(".chat-phrases");
  for (const [key, label] of Object.entries(L.chat ?? {})) {
    const button = el("button", { type: "button", class: "chat-phrase", "data-phrase": key, text: label });
    button.addEventListener("click", () => sendChat({ phrase: key }));
    phrases?.append(button);
  }
  page.querySelector(".chat-form")?.addEventListener("submit", (event) => {
    event.preventDefault();
    const input = event.target.querySelector("input");
    if (!input.value.trim()) { showChatError(T.chat_empty); return; }
    if (input.value.length > 200) { showChatError(T.chat_too_long); return; }
    sendChat({ text: input.value });
    input.value = "";
  });
  page.querySelector(".chat-mute").addEventListener("click", () => {
    table.muted = !table.muted;
    localStorage.setItem("chalk-chat-muted", table.muted ? "1" : "0");
    renderChat();
  });
  renderChat();
}

// ----- the waiting room: every seat's name, for everyone ------------------------------------------

// The waiting panel (htmx, every 3 s) carries the seats' names; the felt takes them from there.
function takeNames(panel) {
  if (!panel?.dataset.names) return;
  const seats = JSON.parse(panel.dataset.names);
  boot.names = seats.map((seat) => seat.name);
  boot.bots = seats.map((seat) => seat.bot);
  render();
}

function refreshSeats() {
  window.htmx?.ajax("GET", boot.table_url, { target: "#waiting", swap: "outerHTML" });
}

document.body.addEventListener("htmx:afterSwap", () => takeNames(document.getElementById("waiting")));

// ----- the clock -----------------------------------------------------------------------------

function tick() {
  const deadline = table.frame?.deadline ? Date.parse(table.frame.deadline) : null;
  const left = deadline === null ? null : Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  for (const node of page.querySelectorAll(".countdown")) {
    node.textContent = left === null ? "" : fmt(T.seconds, { seconds: left });
    node.classList.toggle("urgent", left !== null && left <= 5);
  }
  for (const chip of page.querySelectorAll(".presence.reconnecting")) paintReconnecting(chip);
}
setInterval(tick, 250);

// While the table fills, ask now and then whether it has started (taking a seat is not broadcast).
setInterval(() => { if (table.frame?.status === "waiting") send({ type: "sync" }); }, 3000);

document.addEventListener("click", (event) => {
  const copy = event.target.closest("[data-copy]");
  if (!copy) return;
  const input = document.querySelector(copy.dataset.copy);
  input.select();
  navigator.clipboard?.writeText(input.value);
});

setOnline(true);
setUpChat();
connect();
