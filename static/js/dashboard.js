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

  function tick() {
    document.querySelectorAll("[data-countdown]").forEach(function (clock) {
      var left = Math.round((Date.parse(clock.getAttribute("datetime")) - Date.now()) / 1000);
      clock.textContent = left > 0 ? text(left) : clock.dataset.nowText;
    });
  }

  document.addEventListener("htmx:afterSwap", tick);
  tick();
  setInterval(tick, 1000);
})();
