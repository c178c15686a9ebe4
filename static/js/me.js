/* The player's own socket (/ws/me/): one per tab, reconnecting with back-off.
   - "notifications": updates the unread count in the navigation;
   - "table_opened": a table this player sits at has started, so the tab goes there, with the
     title flashing and, when the profile allows it, a sound and a browser notification. */
(function () {
  "use strict";
  var box = document.getElementById("me-alert");
  if (!box || !("WebSocket" in window)) return;
  var GO_AFTER_MS = 1500;
  var FLAG = "chalk-table-opened";
  var socket = null;
  var retry = 1000;
  var leaving = false;

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + box.dataset.ws);
    socket.onopen = function () { retry = 1000; document.documentElement.dataset.meSocket = "open"; };
    socket.onmessage = function (event) { handle(JSON.parse(event.data)); };
    socket.onclose = function (event) {
      // 4403: signed out; 4429: too many tabs. Neither gets better by retrying.
      if (leaving || event.code === 4403 || event.code === 4429) return;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 30000);
    };
  }

  function handle(frame) {
    if (frame.type === "notifications") showCount(frame.count);
    else if (frame.type === "table_opened") tableOpened(frame);
  }

  function showCount(count) {
    document.querySelectorAll("[data-notification-count]").forEach(function (badge) {
      badge.hidden = !count;
      badge.querySelector("[data-count]").textContent = String(count);
    });
  }

  function tableOpened(frame) {
    if (location.pathname === frame.url) return;
    sessionStorage.setItem(FLAG, frame.url);
    box.querySelector("[data-me-link]").href = frame.url;
    box.hidden = false;
    flashTitle();
    if (box.dataset.alerts) { beep(); notifyBrowser(frame.url); }
    // Never pull a player away from a table where they are playing: the banner's link waits.
    if (!playingHere()) setTimeout(function () { location.assign(frame.url); }, GO_AFTER_MS);
  }

  function playingHere() {
    var table = window.chalkTable;
    return Boolean(table && table.frame && table.frame.seat !== null && table.frame.status === "playing");
  }

  function flashTitle() {
    var original = document.title;
    var lit = false;
    var timer = setInterval(function () {
      lit = !lit;
      document.title = lit ? "● " + box.dataset.title : original;
    }, 600);
    return function stop() { clearInterval(timer); document.title = original; };
  }

  function beep() {
    try {
      var Context = window.AudioContext || window.webkitAudioContext;
      var audio = new Context();
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      tone.frequency.value = 880;
      gain.gain.value = 0.15;
      tone.connect(gain);
      gain.connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.3);
    } catch (ignored) { /* no sound where the browser forbids it */ }
  }

  function notifyBrowser(url) {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    var note = new Notification(box.dataset.title, { body: box.dataset.body, tag: url });
    note.onclick = function () { window.focus(); location.assign(url); };
  }

  // Arrived at the table in a background tab: keep flashing until the player looks.
  function flashOnArrival() {
    if (sessionStorage.getItem(FLAG) !== location.pathname) return;
    sessionStorage.removeItem(FLAG);
    if (!document.hidden) return;
    var stop = flashTitle();
    document.addEventListener("visibilitychange", function once() {
      if (document.hidden) return;
      stop();
      document.removeEventListener("visibilitychange", once);
    });
  }

  // The profile's opt-in asks the browser for permission to show notifications.
  function askPermissionOnOptIn() {
    var optIn = document.querySelector("input[name=table_alerts]");
    if (!optIn || !("Notification" in window)) return;
    optIn.addEventListener("change", function () {
      if (optIn.checked && Notification.permission === "default") Notification.requestPermission();
    });
  }

  window.addEventListener("pagehide", function () { leaving = true; if (socket) socket.close(1000); });
  flashOnArrival();
  askPermissionOnOptIn();
  connect();
})();
