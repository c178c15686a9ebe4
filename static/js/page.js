/* Behaviour every Chalk page shares, kept out of the templates so the Content-Security-Policy
   needs no inline script: forms that ask before they submit, and copy buttons. */
"use strict";

// <form data-confirm="Question?">: submitted only when the person says yes.
document.addEventListener("submit", (event) => {
  const form = event.target.closest("form[data-confirm]");
  if (form && !window.confirm(form.dataset.confirm)) event.preventDefault();
});

// <button data-copy-field> beside an <input class="feed-url">: copies its value, then says so.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-copy-field]");
  if (!button) return;
  const field = button.parentNode.querySelector("input");
  if (navigator.clipboard) navigator.clipboard.writeText(field.value);
  button.textContent = button.dataset.done;
});

document.addEventListener("focusin", (event) => {
  if (event.target.matches("input.feed-url")) event.target.select();
});

// The browser's time zone: sign-up sends it with the new account, and every signed-in page tells
// the server when it changed (once per browser, user and zone: a cookie remembers what was said).
// The server keeps it until the player picks a zone in the profile. An empty zone box (the
// profile of an account made elsewhere) starts as the browser's own.
document.addEventListener("DOMContentLoaded", () => {
  const browserZone = window.Intl ? Intl.DateTimeFormat().resolvedOptions().timeZone || "" : "";
  if (!browserZone) return;
  const zone = document.getElementById("id_time_zone");
  if (zone && !zone.value) zone.value = browserZone;
  for (const field of document.querySelectorAll("input[type=hidden][name=browser_zone]")) field.value = browserZone;
  const report = document.body.dataset.zoneReport;
  const said = `${document.body.dataset.user}|${browserZone}`;
  const cookie = document.cookie.split("; ").find((part) => part.startsWith("chalk_zone="));
  if (!report || (cookie && decodeURIComponent(cookie.slice("chalk_zone=".length)) === said)) return;
  const token = document.querySelector("input[name=csrfmiddlewaretoken]")?.value
    || JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];
  fetch(report, {method: "POST", headers: {"X-CSRFToken": token}, body: new URLSearchParams({zone: browserZone})})
    .then((response) => {
      if (response.ok) document.cookie = `chalk_zone=${encodeURIComponent(said)}; path=/; max-age=31536000; SameSite=Lax`;
    });
});

// The phone's Menu button unfolds the navigation in place (the link's #target is the fallback).
document.addEventListener("click", (event) => {
  const toggle = event.target.closest(".nav-toggle");
  if (!toggle) return;
  event.preventDefault();
  const nav = toggle.closest(".site-nav");
  const open = nav.classList.toggle("open");
  toggle.setAttribute("aria-expanded", String(open));
  if (open) nav.querySelector("ul a, ul button")?.focus();
});

// One kind of digit on an Arabic page (config/digits.py rewrote the server's text): text the
// page's scripts write later (the table, the replay, countdowns) is rewritten the same way.
(() => {
  const root = document.documentElement;
  const chosen = document.querySelector('meta[name="chalk-digits"]')?.content;
  if (!root.lang.startsWith("ar") || !chosen) return;
  const eastern = chosen === "eastern";
  const from = eastern ? /[0-9]/g : /[\u0660-\u0669\u06f0-\u06f9]/g;
  const swap = eastern ? (d) => String.fromCharCode(0x0660 + Number(d))
    : (d) => String((d.charCodeAt(0) - (d.charCodeAt(0) >= 0x06f0 ? 0x06f0 : 0x0660)));
  const skipped = (node) => node.parentElement?.closest("script, style, textarea");
  const fix = (node) => {
    if (node.nodeType !== Node.TEXT_NODE || skipped(node)) return;
    from.lastIndex = 0;
    if (!from.test(node.data)) return;
    node.data = node.data.replace(from, swap);
  };
  const walk = (top) => {
    if (top.nodeType === Node.TEXT_NODE) { fix(top); return; }
    const texts = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
    while (texts.nextNode()) fix(texts.currentNode);
  };
  new MutationObserver((changes) => {
    for (const change of changes) {
      if (change.type === "characterData") fix(change.target);
      else change.addedNodes.forEach(walk);
    }
  }).observe(root, { childList: true, characterData: true, subtree: true });
  document.addEventListener("DOMContentLoaded", () => walk(document.body));
})();
