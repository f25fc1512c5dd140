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

  // Print buttons on the pairings and the table sheets.
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
})();
