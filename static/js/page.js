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

// The profile's time zone, when empty, starts as the browser's own: the player only confirms it.
document.addEventListener("DOMContentLoaded", () => {
  const zone = document.getElementById("id_time_zone");
  if (zone && !zone.value && window.Intl) zone.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
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
