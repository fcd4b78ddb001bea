// The round clock (tournament/clock.py, templates/includes/round_clock.html): counts down
// to the end time the page carries, each second, in the browser, so a page kept by a cache
// stays right; red in the last five minutes. A paused clock stands still.
(function () {
  "use strict";
  var WARNING = 5 * 60;

  function text(seconds) {
    var s = Math.max(0, seconds);
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    var mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(r).padStart(2, "0");
  }

  function left(clock) {
    if (clock.dataset.clockPaused) {
      return parseInt(clock.dataset.clockLeft, 10);
    }
    var ends = Date.parse(clock.dataset.clockEnds);
    return isNaN(ends) ? null : Math.floor((ends - Date.now()) / 1000);
  }

  function tick() {
    document.querySelectorAll("[data-clock-ends]").forEach(function (clock) {
      var seconds = left(clock);
      var shown = clock.querySelector(".clock-left");
      if (seconds === null || isNaN(seconds) || !shown) {
        return;
      }
      shown.textContent = seconds <= 0 ? clock.dataset.upText : text(seconds);
      clock.classList.toggle("clock-warning", seconds <= WARNING);
      clock.classList.toggle("clock-up", seconds <= 0);
    });
  }

  tick();
  setInterval(tick, 1000);
  document.addEventListener("htmx:afterSwap", tick);
})();
