/* The table's phone (templates/tables/). Every page works without this file; it adds:
 * - the running tally of the quick entry (games, vacas) as the stones are typed: display only,
 *   the server checks the result with the rules engine when it is sent; a stone count above
 *   what a game can end with (data-max, the engine's RuleSet.max_game_stones) is marked invalid
 *   with the limit named, and a possible but rare one (above data-usual) asks "¿seguro?"
 *   before the form is sent;
 * - the anotador's buttons (paso, envido, N más, quiero, no quiero, órdago per pair), which
 *   write the bets of the active lance into its text field, the one the server reads;
 * - the offline queue: a form marked data-queue is posted with fetch; when there is no
 *   connection the post is kept in localStorage and sent again (online event, retries with
 *   backoff) with the same body, so the same idempotency key: a retry never records twice.
 */
(function () {
  "use strict";
  var doc = document;
  var STORE = "amarrako:pending";
  var texts = {};
  var timers = {};
  var busy = {};

  function all(selector, root) {
    return Array.prototype.slice.call((root || doc).querySelectorAll(selector));
  }

  function fill(text, values) {
    return String(text || "").replace(/\{(\w+)\}/g, function (_, name) {
      return values[name] === undefined ? "" : values[name];
    });
  }

  // --- Quick entry: the running tally (display only) -----------------------------------------

  function number(input) {
    var value = input ? input.value.trim() : "";
    return value === "" ? null : parseInt(value, 10);
  }

  // Every row filled and the partida still open: one more row, a copy of the last one.
  function more(form) {
    var rows = all(".t-game", form);
    var last = rows[rows.length - 1];
    var n = rows.length + 1;
    var row = last.cloneNode(true);
    all("input", row).forEach(function (input) {
      input.name = input.name.replace(/^g\d+_/, "g" + n + "_");
      if (input.type === "number") input.value = "";
      else input.checked = input.type === "radio" && input.value === "";
      if (input.hasAttribute("aria-label")) {
        input.setAttribute("aria-label", input.getAttribute("aria-label").replace(/\d+$/, n));
      }
    });
    var head = row.querySelector(".t-game-head strong");
    head.textContent = head.textContent.replace(/\d+/, n);
    row.querySelector(".t-game-state").textContent = "";
    row.hidden = false;
    last.parentNode.appendChild(row);
  }

  // Each stones input past the engine's limit says so (the browser shows it on submit).
  function limits(form) {
    var max = +form.dataset.max;
    all(".t-game", form).forEach(function (row, index) {
      all("input[type=number]", row).forEach(function (input) {
        var value = number(input);
        input.setCustomValidity(
          max && value !== null && value > max
            ? fill(texts.limit, {
              game: index + 1, value: value, target: form.dataset.target, limit: max
            })
            : ""
        );
      });
    });
  }

  // The first game whose winner is far past the target (possible, but rare): its question.
  function unusual(form) {
    var usual = +form.dataset.usual;
    var rows = all(".t-game", form);
    for (var i = 0; i < rows.length; i += 1) {
      var inputs = rows[i].querySelectorAll("input[type=number]");
      var high = Math.max(number(inputs[0]) || 0, number(inputs[1]) || 0);
      if (usual && high > usual) {
        return fill(texts.unusual, { game: i + 1, value: high, target: form.dataset.target });
      }
    }
    return "";
  }

  function tally(form) {
    limits(form);
    var target = +form.dataset.target, perVaca = +form.dataset.gpv, vacas = +form.dataset.vacas;
    var games = [0, 0], won = [0, 0], decided = null;
    var out = doc.getElementById("t-tally");

    function add(team) {
      games[team] += 1;
      if (games[team] >= perVaca) {
        won[team] += 1;
        games = [0, 0];
        if (won[team] >= vacas) decided = team;
      }
    }

    (form.dataset.penalties || "").split(",").forEach(function (w) {
      if (w) add(w === "A" ? 0 : 1);
    });
    var shownEmpty = false;
    all(".t-game", form).forEach(function (row) {
      var inputs = row.querySelectorAll("input[type=number]");
      var a = number(inputs[0]), b = number(inputs[1]);
      var chosen = row.querySelector("input[type=radio]:checked");
      var ordago = row.querySelector("input[type=checkbox]").checked;
      var pick = chosen ? chosen.value : "";
      var filled = a !== null || b !== null || pick !== "" || ordago;
      var state = row.querySelector(".t-game-state");
      var winner = null;
      if (pick) winner = pick === "A" ? 0 : 1;
      else if (!ordago && (a || 0) >= target && (b || 0) < target) winner = 0;
      else if (!ordago && (b || 0) >= target && (a || 0) < target) winner = 1;
      row.classList.remove("is-won", "is-extra");
      if (!filled) {
        state.textContent = "";
        row.hidden = decided !== null || shownEmpty;
        shownEmpty = true;
        return;
      }
      row.hidden = false;
      if (decided !== null) {
        state.textContent = texts.extra;
        row.classList.add("is-extra");
      } else if (winner === null) {
        // never "sin terminar" for a game that is over: say what is missing or wrong instead
        if (ordago) state.textContent = texts.ordago_who;
        else if ((a || 0) >= target && (b || 0) >= target) {
          state.textContent = fill(texts.both, { target: target });
        } else state.textContent = texts.open;
      } else {
        state.textContent = fill(texts.wins, { p: winner ? "B" : "A" });
        row.classList.add("is-won");
        add(winner);
      }
    });
    if (decided === null && !shownEmpty) more(form);
    if (!out) return;
    out.hidden = false;
    out.classList.toggle("is-decided", decided !== null);
    if (decided !== null) {
      out.textContent = fill(texts.decided, { p: decided ? "B" : "A" });
    } else {
      var line = fill(texts.games, { a: games[0], b: games[1] });
      if (vacas > 1) line += " · " + fill(texts.vacas, { a: won[0], b: won[1] });
      out.textContent = line;
    }
  }

  // --- Anotador: the buttons that say the bets ------------------------------------------------

  function pad(template) {
    var form = doc.getElementById("t-hand");
    var lances = all(".t-lance", form);
    if (!lances.length) return;
    var min = +template.dataset.min || 2;
    var stones = min;
    var el = template.content.firstElementChild.cloneNode(true);
    var active = null;

    function show() {
      all(".t-n", el).forEach(function (n) { n.textContent = stones; });
    }

    function activate(lance) {
      active = lance;
      lances.forEach(function (l) { l.classList.toggle("is-active", l === lance); });
      var seq = lance.querySelector(".t-seq");
      seq.parentNode.insertBefore(el, seq.nextSibling);
    }

    function say(words) {
      var seq = active.querySelector(".t-seq");
      var now = seq.value.trim().replace(/,\s*$/, "");
      seq.value = now ? now + ", " + words : words;
    }

    // The pad moves to a lance when its bets or its name are touched, not its winner or the
    // declarations (those are filled at the end of the hand, and the pad would jump around).
    lances.forEach(function (lance) {
      function touch(event) {
        var t = event.target;
        var here = t === lance || t.closest("legend, .t-seq, .t-seq-label");
        if (active !== lance && here && !el.contains(t)) activate(lance);
      }
      lance.addEventListener("focusin", touch);
      lance.addEventListener("click", touch);
    });
    el.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) return;
      event.preventDefault();
      var act = button.dataset.act;
      var seq = active.querySelector(".t-seq");
      if (act === "minus") stones = Math.max(1, stones - 1);
      else if (act === "plus") stones = Math.min(99, stones + 1);
      else if (act === "back") seq.value = seq.value.split(",").slice(0, -1).join(",").trim();
      else {
        var pair = button.closest("[data-pair]").dataset.pair;
        var words = act;
        if (act === "envido" && stones !== min) words = "envido " + stones;
        if (act === "más") words = stones + " más";
        say(pair + ": " + words);
        var next = lances[lances.indexOf(active) + 1];
        if ((act === "quiero" || act === "no quiero") && next) activate(next);
      }
      show();
    });
    show();
    activate(lances[0]);
  }

  function punto(form) {
    var selects = all(".t-juego", form);
    var name = form.querySelector(".t-last-name");
    function update() {
      var nobody = selects.every(function (s) { return s.value === "none"; });
      all(".t-punto", form).forEach(function (input) {
        input.hidden = !nobody;
        if (!nobody) input.value = "";
      });
      if (name) name.textContent = nobody ? texts.punto : texts.juego;
    }
    selects.forEach(function (s) { s.addEventListener("change", update); });
    update();
  }

  // --- The offline queue --------------------------------------------------------------------

  function pending() {
    try {
      return JSON.parse(localStorage.getItem(STORE)) || [];
    } catch (e) {
      return [];
    }
  }

  function keep(list) {
    try {
      localStorage.setItem(STORE, JSON.stringify(list));
    } catch (e) { /* private mode: the retries in this page still run */ }
  }

  function forget(key) {
    keep(pending().filter(function (item) { return item.key !== key; }));
  }

  function status(kind) {
    var box = doc.getElementById("t-status");
    if (!box) return;
    box.hidden = !kind;
    box.textContent = kind ? texts[kind] : "";
    box.classList.toggle("is-sent", kind === "sent");
  }

  function showErrors(html) {
    var found = new DOMParser().parseFromString(html, "text/html").getElementById("table-errors");
    var here = doc.getElementById("table-errors");
    if (found && here) {
      here.innerHTML = found.innerHTML;
      here.scrollIntoView({ block: "center" });
    } else {
      doc.open();
      doc.write(html);
      doc.close();
    }
  }

  function send(item, delay) {
    if (busy[item.key]) return;
    busy[item.key] = true;
    clearTimeout(timers[item.key]);
    status("sending");
    fetch(item.url, {
      method: "POST",
      body: item.body,
      credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded" }
    }).then(function (response) {
      if (response.status >= 500) throw new Error("server " + response.status);
      busy[item.key] = false;
      forget(item.key);
      if (response.redirected) {
        status("sent");
        location.assign(response.url);
        return null;
      }
      status("");
      all("form[data-queue] [type=submit]").forEach(function (b) { b.disabled = false; });
      return response.text().then(showErrors);
    }).catch(function () {
      busy[item.key] = false;
      status("saved");
      var wait = Math.min((delay || 1000) * 2, 30000);
      timers[item.key] = setTimeout(function () { send(item, wait); }, wait);
    });
  }

  function queue(form) {
    form.addEventListener("submit", function (event) {
      var question = form.id === "t-quick" ? unusual(form) : "";
      if (question && !window.confirm(question)) {
        event.preventDefault();
        return;
      }
      if (!window.fetch || !form.reportValidity()) return;
      event.preventDefault();
      var body = new URLSearchParams(new FormData(form)).toString();
      var key = form.querySelector("[name=idempotency_key]").value;
      var item = { key: key, url: form.action, body: body, at: Date.now() };
      keep(pending().filter(function (i) { return i.key !== key; }).concat([item]));
      all("[type=submit]", form).forEach(function (b) { b.disabled = true; });
      send(item);
    });
  }

  function resume() {
    var here = location.pathname.split("/").slice(0, 3).join("/") + "/";
    pending().forEach(function (item) {
      if (new URL(item.url, location.href).pathname.indexOf(here) === 0) send(item);
    });
  }

  function start() {
    doc.documentElement.classList.add("js");
    var data = doc.getElementById("t-i18n");
    texts = data ? JSON.parse(data.textContent) : {};
    var quick = doc.getElementById("t-quick");
    if (quick) {
      quick.addEventListener("input", function () { tally(quick); });
      quick.addEventListener("change", function () { tally(quick); });
      tally(quick);
    }
    var template = doc.getElementById("t-pad");
    if (template) pad(template);
    var hand = doc.getElementById("t-hand");
    if (hand) punto(hand);
    all("form[data-queue]").forEach(queue);
    window.addEventListener("online", resume);
    resume();
  }

  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", start);
  else start();
})();
