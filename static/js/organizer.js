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

  // Check-in without a reload: a form[data-fragment] is sent with fetch, and every element of
  // the answer (the counts, the row or the whole roll) takes the place of the element of the
  // page with the same id. The button is busy meanwhile; on an error (or no connection) the
  // form is sent the ordinary way, so the page says what went wrong.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute || !form.hasAttribute("data-fragment") || !window.fetch) return;
    event.preventDefault();
    if (form.getAttribute("aria-busy") === "true") return;
    form.setAttribute("aria-busy", "true");
    var button = form.querySelector("button");
    if (button) button.disabled = true;
    fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      credentials: "same-origin",
      headers: { "X-Fragment": "1" },
    })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        var holder = document.createElement("template");
        holder.innerHTML = html;
        // a copy: each piece leaves holder.content as it is moved into the page
        Array.prototype.slice.call(holder.content.children).forEach(function (piece) {
          var old = piece.id && document.getElementById(piece.id);
          if (old) old.replaceWith(piece);
        });
        var row = form.closest("[id]");
        var again = row && document.getElementById(row.id);
        var next = again && again.querySelector("form[data-fragment] button");
        if (next && document.activeElement === document.body) next.focus();
      })
      .catch(function () {
        form.removeAttribute("data-fragment");
        form.submit();
      });
  });

  // The board reloads itself every data-refresh seconds (without JavaScript, a <noscript> meta
  // refresh does), but not while the organizer is typing in a field or the tab is hidden: a
  // page that reloads under the reader cannot be paused (WCAG 2.2.1, axe's meta-refresh).
  // While the live push is connected (static/js/live.js swaps the board as it changes) the
  // reload rests: it is the push's fallback.
  var live = document.querySelector("[data-refresh]");
  if (live) {
    var every = parseInt(live.getAttribute("data-refresh"), 10) * 1000;
    window.setInterval(function () {
      var active = document.activeElement;
      if (document.hidden || (active && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName))) return;
      if (window.amarrakoLive && window.amarrakoLive.connected) return; // pushed: live.js
      window.location.reload();
    }, every);
  }

  // Print buttons on the pairings and the table sheets.
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
})();
