/* The table's phone (templates/tables/). Every page works without this file; it adds:
 * - the running tally of the quick entry (games, vacas) as the stones are typed: display only,
 *   the server checks the result with the rules engine when it is sent; a stone count above
 *   what a game can end with (data-max, the engine's RuleSet.max_game_stones) is marked invalid
 *   with the limit named, and a possible but rare one (above data-usual) asks "¿seguro?"
 *   before the form is sent;
 * - (the anotador's pad is static/js/anotador.js, loaded on its page only);
 * - sending: a form marked data-queue is posted through the queue kept on the phone
 *   (static/js/site.js: localStorage, resent with the same idempotency key from whichever page
 *   is open); this page says what happened and opens the receipt or shows the error;
 * - live: when static/js/live.js swaps the page's content (the other pair sent its result), the
 *   new forms get the same;
 * - offline: registers the service worker (static/js/sw.js) and keeps a first copy of this
 *   table's two pages and their files, so that a reload without connection shows the page.
 */
(function () {
  "use strict";
  var doc = document;
  var texts = {};

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
    var shownEmpty = false, wrong = 0;
    var max = +form.dataset.max;
    all(".t-game", form).forEach(function (row, index) {
      var inputs = row.querySelectorAll("input[type=number]");
      var a = number(inputs[0]), b = number(inputs[1]);
      var chosen = row.querySelector("input[type=radio]:checked");
      var ordago = row.querySelector("input[type=checkbox]").checked;
      var pick = chosen && chosen.value ? (chosen.value === "A" ? 0 : 1) : null;
      var given = a !== null || b !== null;
      var filled = given || pick !== null || ordago;
      var state = row.querySelector(".t-game-state");
      var stones = [a || 0, b || 0];
      var winner = null, problem = "";
      // the engine's reading of a game (scoring.match): what it would refuse is said here, and
      // such a game counts for nobody
      if (ordago) {
        if (given && (stones[0] >= target || stones[1] >= target)) {
          problem = fill(texts.ordago_target, { target: target });
        } else if (pick === null) problem = texts.ordago_who;
        else winner = pick;
      } else if (!given) {
        winner = pick;
      } else if (stones[0] >= target && stones[1] >= target) {
        problem = fill(texts.both, { target: target });
      } else if (stones[0] < target && stones[1] < target) {
        if (pick !== null) problem = fill(texts.short, { target: target });
      } else {
        var byStones = stones[0] >= target ? 0 : 1;
        if (max && stones[byStones] > max) {
          problem = fill(texts.too_many, { limit: max });
        } else if (pick !== null && pick !== byStones) {
          problem = fill(texts.contradicts, { p: byStones ? "B" : "A" });
        } else winner = byStones;
      }
      row.classList.remove("is-won", "is-extra", "is-wrong");
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
      } else if (problem) {
        state.textContent = problem;
        if (problem !== texts.ordago_who) {
          row.classList.add("is-wrong");
          wrong = wrong || index + 1;
        }
      } else if (winner === null) {
        state.textContent = texts.open;
      } else {
        state.textContent = fill(texts.wins, { p: winner ? "B" : "A" });
        row.classList.add("is-won");
        add(winner);
      }
    });
    if (decided === null && !shownEmpty) more(form);
    if (!out) return;
    out.hidden = false;
    out.classList.toggle("is-decided", decided !== null && !wrong);
    out.classList.toggle("is-wrong", !!wrong);
    if (wrong) {
      // a game that cannot end so decides nothing: no "partida decidida" past it
      out.textContent = fill(texts.check, { game: wrong });
    } else if (decided !== null) {
      out.textContent = fill(texts.decided, { p: decided ? "B" : "A" });
    } else {
      var line = fill(texts.games, { a: games[0], b: games[1] });
      if (vacas > 1) line += " · " + fill(texts.vacas, { a: won[0], b: won[1] });
      out.textContent = line;
    }
  }

  // --- Sending: through the queue kept on this phone (static/js/site.js) ----------------------

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

  function mine(item) {
    return window.amarrakoQueue.tableOf(item.url) === window.amarrakoQueue.tableOf(location.href);
  }

  function listen() {
    doc.addEventListener("amarrako:sending", function (event) {
      if (mine(event.detail.item)) status("sending");
    });
    doc.addEventListener("amarrako:saved", function (event) {
      if (mine(event.detail.item)) status("saved");
    });
    doc.addEventListener("amarrako:answer", function (event) {
      var item = event.detail.item, response = event.detail.response;
      if (!mine(item)) return;
      event.preventDefault();
      if (response.redirected) {
        status("sent");
        location.assign(response.url);
        return;
      }
      status("");
      all("form[data-queue] [type=submit]").forEach(function (b) { b.disabled = false; });
      response.text().then(showErrors);
    });
    if (window.amarrakoQueue.pending().some(mine)) status("saved");
  }

  function queue(form) {
    form.addEventListener("submit", function (event) {
      var question = form.id === "t-quick" ? unusual(form) : "";
      if (question && !window.confirm(question)) {
        event.preventDefault();
        return;
      }
      if (!window.fetch || !window.amarrakoQueue || !form.reportValidity()) return;
      event.preventDefault();
      var field = form.querySelector("[name=idempotency_key]");
      var body = new URLSearchParams(new FormData(form)).toString();
      // the page kept for offline use renders the same key each time: a different entry made
      // on it (the next hand) is a new write and takes a new key; the same entry stays one
      var same = window.amarrakoQueue.pending().filter(function (i) { return i.key === field.value; });
      if (same.length && same[0].body !== body) {
        field.value = field.value.split("~")[0] + "~" + Date.now().toString(36);
        body = new URLSearchParams(new FormData(form)).toString();
      }
      var key = field.value;
      var item = { key: key, url: form.action, body: body, at: Date.now() };
      window.amarrakoQueue.add(item);
      all("[type=submit]", form).forEach(function (b) { b.disabled = true; });
      window.amarrakoQueue.send();  // the oldest kept first: this one after those before it
    });
  }

  // --- Offline: the service worker keeps this table's pages and their files -------------------

  var CACHE = "amarrako-table-v1";

  // What this page already loaded, from the browser's cache and never from the network: asked
  // with the cookies it has now, or without any (the first visit's page was asked before the
  // site set its first cookie, and the page varies on cookies).
  function loaded(url) {
    function cached(credentials) {
      return fetch(url, { cache: "only-if-cached", mode: "same-origin", credentials: credentials })
        .then(function (response) {
          if (!response.ok) throw new Error(String(response.status));
          return response;
        });
    }
    return cached("same-origin").catch(function () { return cached("omit"); });
  }

  function offline() {
    var script = doc.getElementById("t-script");
    if (!script || !script.dataset.sw || !("serviceWorker" in navigator)) return;
    var running = !!navigator.serviceWorker.controller;
    navigator.serviceWorker.register(script.dataset.sw, { scope: "/" }).then(function () {
      // once the worker runs it keeps a copy of whatever it serves: nothing to fetch twice
      if (running || !window.caches) return;
      // this page and the other tab of the table, with the files they load: the worker only
      // sees what is fetched once it runs, and it did not run when this page was loaded. Each
      // once (this page is also its own tab's link), and what this page already loaded from
      // the browser's cache, as the server sent it: never downloaded again
      var here = new URL(location.pathname, location.href).href;
      var urls = [here].concat(all(".t-tabs a").map(function (a) {
        return new URL(a.pathname, location.href).href;
      }));
      all("link[rel=stylesheet]").forEach(function (l) { urls.push(l.href); });
      all("script[src]").forEach(function (s) { urls.push(s.src); });
      if (script.dataset.keep) urls.push(new URL(script.dataset.keep, location.href).href);
      urls = urls.filter(function (url, n) { return urls.indexOf(url) === n; });
      return caches.open(CACHE).then(function (cache) {
        return Promise.all(urls.map(function (url) {
          return loaded(url)
            .then(function (response) { return cache.put(url, response); })
            .catch(function () { return cache.add(url); })  // not loaded yet: the other tab
            .catch(function () { /* offline now: kept from before */ });
        }));
      });
    }).catch(function () { /* no worker (private mode, old browser): online only */ });
  }

  function start() {
    doc.documentElement.classList.add("js");
    var data = doc.getElementById("t-i18n");
    texts = data ? JSON.parse(data.textContent) : {};
    bind();
    // the live push (static/js/live.js) swapped the page's content: its new forms
    doc.addEventListener("amarrako:swapped", bind);
    if (window.amarrakoQueue) listen();
    offline();
  }

  function bind() {
    var quick = doc.getElementById("t-quick");
    if (quick) {
      quick.addEventListener("input", function () { tally(quick); });
      quick.addEventListener("change", function () { tally(quick); });
      tally(quick);
    }
    all("form[data-queue]").forEach(queue);
  }

  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", start);
  else start();
})();
