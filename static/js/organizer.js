/* Organizer's desk, a little help where it saves taps. Everything works without it. */
(function () {
  "use strict";

  // Add a phase: show only the options of the chosen format (without JavaScript every option
  // shows, and the form sends only the chosen format's options).
  var form = document.getElementById("phase-form");
  if (form) {
    var select = form.querySelector("select[name=format]");
    var sync = function () {
      form.querySelectorAll("[data-formats]").forEach(function (el) {
        el.hidden = el.getAttribute("data-formats").split(" ").indexOf(select.value) === -1;
      });
    };
    select.addEventListener("change", sync);
    sync();
  }

  // The board reloads itself every data-refresh seconds (without JavaScript, a <noscript> meta
  // refresh does), but not while the organizer is typing in a field or the tab is hidden: a
  // page that reloads under the reader cannot be paused (WCAG 2.2.1, axe's meta-refresh).
  var live = document.querySelector("[data-refresh]");
  if (live) {
    var every = parseInt(live.getAttribute("data-refresh"), 10) * 1000;
    window.setInterval(function () {
      var active = document.activeElement;
      if (document.hidden || (active && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName))) return;
      window.location.reload();
    }, every);
  }

  // Print buttons on the pairings and the table sheets.
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
})();
