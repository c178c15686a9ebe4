// Classic Saudi Baloot at the table (docs/rules/baloot_saudi.md): the face-up card, the buying
// panel's words and the line that explains the step, the doubling ladder with its lock, projects
// and baloot, and the deal summary. table.js calls these only when view.mode is "saudi_classic";
// every word comes from the server's labels (gameplay/labels.py saudi_labels), none from here.
import { el, fmt } from "./cards.js";

export function isSaudi(view) {
  return view?.mode === "saudi_classic";
}

// A deal record of this mode (the archive's replay has no live view to ask).
export function isSaudiDetail(detail) {
  return "khasara_team" in (detail ?? {});
}

// The button text of one legal action: Hokum / Sun / Ashkal, "before you", confirm or switch,
// a round-2 Hokum with its suit, the doubling calls with "closed".
export function actionLabel(action, view, ctx) {
  const S = ctx.L.saudi.calls;
  const step = view.buying?.step;
  if (action.type === "pass") return view.buying?.round === 2 && step === "open" ? S.pass_round2 : S.pass;
  if (action.type === "bid") {
    if (action.contract === "hokum" && action.suit) return fmt(S.hokum_in, { suit: ctx.cards.suitText(action.suit) });
    if (action.contract === "hokum") return step === "confirm" ? S.confirm : S.hokum;
    if (action.contract === "sun") return step === "claim" ? S.claim : step === "confirm" ? S.switch : S.sun;
    return S.ashkal;
  }
  if (S[action.type]) return action.closed ? fmt(S.closed, { call: S[action.type] }) : S[action.type];
  if (action.type === "declare") {
    const named = action.melds.map((meld) => `${ctx.L.saudi.projects[projectKind(meld, view)]} (${ctx.cards.list(meld)})`);
    return fmt(ctx.L.actions.declare, { melds: named.join(" + ") });
  }
  return null; // plays: table.js labels them
}

// S8.1: what players call a project, «سرا» rather than its cards: three in sequence a sira, four
// a fifty, five or more a hundred; four of a kind a hundred, four Aces in Sun four hundred.
export function projectKind(meld, view) {
  const ranks = new Set(meld.map((code) => code.slice(0, -1)));
  if (meld.length === 4 && ranks.size === 1) return ranks.has("A") && view.contract === "sun" ? "four_hundred" : "hundred";
  return meld.length === 3 ? "sira" : meld.length === 4 ? "fifty" : "hundred";
}

// What a seat said in the current buying or doubling.
export function lastCall(seat, view, ctx) {
  if (view.phase !== "buying" && view.phase !== "doubling") return "";
  const mine = (view.calls ?? []).filter((c) => c.seat === seat).pop();
  if (!mine) return "";
  const S = ctx.L.saudi.calls;
  if (mine.call === "hokum" && mine.suit) return fmt(S.hokum_in, { suit: ctx.cards.suitText(mine.suit) });
  return S[mine.call] ?? mine.call;
}

// Project kinds declared by a seat (public at once), and the scoring team's cards after trick 1.
export function revealedBy(seat, view, ctx) {
  const P = ctx.L.saudi.projects;
  const shown = [];
  for (const declared of view.declarations ?? []) {
    if (declared.seat === seat) shown.push(declared.projects.map((kind) => P[kind] ?? kind).join(" · "));
  }
  for (const project of view.projects ?? []) {
    if (project.seat === seat) shown.push(ctx.cards.list(project.cards));
  }
  if (view.baloot === seat) shown.push(ctx.L.saudi.text.baloot);
  return shown;
}

// The notes on the felt: face-up card, contract and buyer, level and lock.
export function notes(view, ctx) {
  const S = ctx.L.saudi;
  const nodes = [];
  if (view.contract === null && view.face_up) {
    nodes.push(el("div", { class: "trump-note face-up", "data-testid": "face-up" },
      el("span", { class: "note-label", text: S.text.face_up }), ctx.cards.img(view.face_up, "small")));
  }
  if (view.contract) {
    let text = view.contract === "sun" ? S.calls.sun : `${ctx.cards.sign(view.trump)} ${S.calls.hokum}`;
    if (view.ashkal) text += ` (${S.calls.ashkal})`;
    nodes.push(el("div", { class: "trump-note", "data-testid": "trump" },
      el("span", { class: "note-label", text: ctx.L.text.contract }), el("strong", { text }),
      el("span", { class: "note-by", text: `${S.text.buyer}: ${ctx.seatName(view.buyer)}` })));
  }
  if (view.level !== 1) {
    const call = S.calls[{ 2: "double", 3: "triple", 4: "four", gahwa: "gahwa" }[view.level]];
    nodes.push(el("div", { class: "trump-note level", "data-testid": "level" },
      el("span", { class: "note-label", text: S.text.level }), el("strong", { text: call }),
      el("span", { class: "note-by", text: view.closed ? S.text.closed : S.text.open })));
  }
  return nodes;
}

// The line that explains the step of the buying or the doubling: it has a row of its own on the
// felt (table.js puts it in .felt-step), never over a seat, however long it runs in a language.
export function stepNote(view, ctx) {
  const line = stepLine(view, ctx);
  return line ? el("p", { class: "step-line", "data-testid": "step-line", text: line }) : null;
}

function stepLine(view, ctx) {
  const steps = ctx.L.saudi.steps;
  if (view.phase === "doubling") return steps.doubling;
  if (view.phase !== "buying") return "";
  const step = view.buying.step;
  if (step === "open") return view.buying.round === 2 ? steps.open2 : steps.open1;
  if (step === "window") {
    const bidder = view.buying.hokum_bidder;
    return isMine(bidder, ctx) ? steps.window_mine : fmt(steps.window, { name: ctx.seatName(bidder) });
  }
  if (step === "claim") {
    const caller = view.buying.sun_caller;
    return isMine(caller, ctx) ? steps.claim_mine : fmt(steps.claim, { name: ctx.seatName(caller) });
  }
  return steps.confirm;
}

// The reader's own seat: "You declare…", never "Tú declara…" / "أنت أعلن…" (a name "You").
function isMine(seat, ctx) {
  return seat !== undefined && seat !== null && seat === ctx.mySeat;
}

// A log line for the events the generic table does not know.
export function eventText(event, ctx) {
  const S = ctx.L.saudi;
  const name = ctx.seatName(event.seat);
  if (event.kind === "declared") {
    const projects = event.projects.map((k) => S.projects[k] ?? k).join(", ");
    return fmt(isMine(event.seat, ctx) ? S.text.you_declare : S.text.declares, { name, projects });
  }
  if (event.kind === "baloot") return isMine(event.seat, ctx) ? S.text.your_baloot : fmt(S.text.baloot_by, { name });
  if (event.kind === "call") {
    const call = event.call === "hokum" && event.suit && event.round === 2
      ? fmt(S.calls.hokum_in, { suit: ctx.cards.suitText(event.suit) }) : S.calls[event.call] ?? event.call;
    return fmt(ctx.L.text.calls, { name, call: event.closed ? fmt(S.calls.closed, { call }) : call });
  }
  return undefined; // the generic wording
}

// The deal summary rows (rules S10, S11): raw points, projects, baloot, rounding, level, result.
export function detailRows(detail, ctx) {
  const S = ctx.L.saudi;
  const rows = [];
  const result = detail.kaboot_team !== null && detail.kaboot_team !== undefined ? "kaboot"
    : detail.gahwa ? "gahwa" : detail.result;
  if (detail.contract) {
    let text = detail.contract === "sun" ? S.calls.sun : `${ctx.cards.sign(detail.trump)} ${S.calls.hokum}`;
    if (detail.ashkal) text += ` (${S.calls.ashkal})`;
    rows.push({ label: ctx.L.text.contract, text: `${text} · ${S.text.buyer}: ${ctx.seatName(detail.buyer)}` });
  }
  if (result) rows.push({ label: S.text.result, text: S.results[result] ?? result });
  if (detail.level && detail.level !== 1) {
    const call = S.calls[{ 2: "double", 3: "triple", 4: "four", gahwa: "gahwa" }[detail.level]];
    rows.push({ label: S.text.level, text: `${call} · ${detail.closed ? S.text.closed : S.text.open}` });
  }
  if (Array.isArray(detail.raw)) {
    const withLast = (detail.card_points ?? [0, 0]).map((p, team) => p + (detail.last_trick_team === team ? 10 : 0));
    rows.push({ label: S.text.raw_points, pair: withLast });
  }
  for (const project of detail.projects ?? []) {
    const pair = ["", ""];
    pair[project.seat % 2] = `${S.projects[project.kind] ?? project.kind} ${project.points}`;
    const cards = ctx.cards.list(project.cards);
    const label = isMine(project.seat, ctx) ? S.text.your_projects : S.text.projects_of;
    rows.push({ label: fmt(label, { name: ctx.seatName(project.seat), cards }), pair });
  }
  for (const baloot of detail.baloot ?? []) {
    const pair = ["", ""];
    pair[baloot.seat % 2] = "20";
    const label = isMine(baloot.seat, ctx) ? S.text.your_baloot : fmt(S.text.baloot_by, { name: ctx.seatName(baloot.seat) });
    rows.push({ label, pair });
  }
  if (detail.card_gp) rows.push({ label: S.text.card_gp, pair: detail.card_gp });
  if (detail.project_gp && (detail.project_gp[0] || detail.project_gp[1])) rows.push({ label: S.text.project_gp, pair: detail.project_gp });
  return rows.map((row) => (row.pair ? { ...row, pair: row.pair.map((v) => (v === 0 ? "0" : v)) } : row));
}
