/* The dashboard's live countdown to the next match: h:mm:ss in the page's language digits. */
(function () {
  "use strict";
  var digits = new Intl.NumberFormat(document.documentElement.lang || undefined, { minimumIntegerDigits: 2 });
  var plain = new Intl.NumberFormat(document.documentElement.lang || undefined);

  function text(seconds) {
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var s = seconds % 60;
    return plain.format(h) + ":" + digits.format(m) + ":" + digits.format(s);
  }

  // At the start the line swaps its clock for the words that say the match is starting (never a clock of zero).
  function tick() {
    document.querySelectorAll("[data-countdown]").forEach(function (clock) {
      var left = Math.round((Date.parse(clock.getAttribute("datetime")) - Date.now()) / 1000);
      var line = clock.closest("[data-countdown-line]");
      if (left > 0) {
        clock.textContent = text(left);
      } else if (line) {
        line.querySelector("[data-before]").hidden = true;
        line.querySelector("[data-after]").hidden = false;
      }
    });
  }

  document.addEventListener("htmx:afterSwap", tick);
  tick();
  setInterval(tick, 1000);
})();
