// Seeds by hand (templates/tournaments/seeds.html): drag a pair by its handle, with a mouse, a pen
// or a finger (pointer events), and every number box then says its row's place. The number boxes
// stay the way without a pointer: typing a number changes nothing else.
(function () {
  "use strict";
  function renumber(list) {
    list.querySelectorAll(".seed-row").forEach(function (row, index) {
      row.querySelector("input[data-seed]").value = String(index + 1);
    });
  }
  function rowAt(list, x, y, dragged) {
    var hit = document.elementFromPoint(x, y);
    var row = hit && hit.closest(".seed-row");
    return row && row !== dragged && row.parentNode === list ? row : null;
  }
  function start(event) {
    var handle = event.target.closest(".drag-handle");
    if (!handle || (event.pointerType === "mouse" && event.button !== 0)) return;
    var row = handle.closest(".seed-row"), list = row.parentNode;
    event.preventDefault();
    row.classList.add("dragging");
    // Listened on the window, not the handle: moving the row in the page drops a pointer capture.
    function move(e) {
      if (e.pointerId !== event.pointerId) return;
      var over = rowAt(list, e.clientX, e.clientY, row);
      if (!over) return;
      var box = over.getBoundingClientRect();
      list.insertBefore(row, e.clientY > box.top + box.height / 2 ? over.nextSibling : over);
    }
    function end() {
      row.classList.remove("dragging");
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", end);
      window.removeEventListener("pointercancel", end);
      renumber(list);
    }
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", end);
    window.addEventListener("pointercancel", end);
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".seed-list").forEach(function (list) {
      list.addEventListener("pointerdown", start);
      list.classList.add("can-drag");
    });
  });
})();
