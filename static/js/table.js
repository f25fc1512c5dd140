/* The table's phone (templates/tables/). Every page works without this file; it adds:
 * - the running tally of the quick entry (games, vacas) as the stones are typed: display only,
 *   the server checks the result with the rules engine when it is sent; a stone count above
 *   what a game can end with (data-max, the engine's RuleSet.max_game_stones) is marked invalid
 *   with the limit named, and a possible but rare one (above data-usual) asks "¿seguro?"
 *   before the form is sent;
 * - the anotador in a few taps: per lance a pad that shows only what can be said next (an
 *   opening envido or órdago, then the other pair's quiero, no quiero, N más, órdago) and writes
 *   it into the lance's text field, the one the server reads (with the pasos before an opening
 *   bet, so its pair also follows from the speaking order); per player a chip for pares and
 *   juego. From the chips and the bets it shows what is already known, never deciding for the
 *   server: a lance nobody or only one pair holds is not played (no pad, no winner), a refused
 *   envite needs no winner, a winner the declarations give (duples over medias; 31, 32 and 40
 *   over any other juego; equal ones to the nearer to mano) is filled in and can be changed,
 *   and the lances after an accepted órdago close. No winner is chosen before a tap;
 * - sending: a form marked data-queue is posted through the queue kept on the phone
 *   (static/js/site.js: localStorage, resent with the same idempotency key from whichever page
 *   is open); this page says what happened and opens the receipt or shows the error;
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

  // --- Anotador: one pad per lance, its winner, what the declarations already say -----------

  var PARES_RANK = { none: 0, par: 1, medias: 2, duples: 3 };
  // 33 to 37 ("other") is below 40 and its exact order unknown: it decides nothing by itself
  var JUEGO_RANK = { none: 0, other: 1, "40": 6, "32": 7, "31": 8, "31 real": 9 };
  var PAIR = /^\s*([AaBb])\s*:\s*(.*)$/;

  // How the betting written in a lance's field stands: who bet last, what is open, how it ended.
  function betting(text) {
    var state = { bettor: null, ordago: false, ended: null, any: false };
    text.split(",").forEach(function (said) {
      said = said.trim();
      if (!said) return;
      var named = PAIR.exec(said);
      var pair = named ? named[1].toUpperCase() : null;
      var word = (named ? named[2] : said).trim().toLowerCase();
      if (word === "paso" || word === "pass") return;
      state.any = true;
      if (word === "quiero") state.ended = "quiero";
      else if (word === "no quiero") state.ended = "no";
      else {
        state.bettor = pair;
        state.ordago = state.ordago || /^(órdago|ordago)$/.test(word);
      }
    });
    return state;
  }

  function chosen(group, name) {
    var input = group.querySelector("input[name^='" + name + "']:checked");
    return input ? input.value : "none";
  }

  // Who holds pares (or juego) and what that decides, from the chips: {teams, best, derived}.
  function holding(lance, kind) {
    var players = all(".t-player", lance);
    var rank = kind === "pares" ? PARES_RANK : JUEGO_RANK;
    var teams = {}, bestByTeam = { A: 0, B: 0 }, top = 0, topTeam = null;
    players.forEach(function (p) {
      var r = rank[chosen(p, kind)] || 0;
      if (!r) return;
      var team = p.dataset.team;
      teams[team] = true;
      bestByTeam[team] = Math.max(bestByTeam[team], r);
      if (r > top) { top = r; topTeam = team; }  // a tie goes to the nearer to mano: the first
    });
    var derived = null;
    if (teams.A && teams.B) {
      if (kind === "pares" && bestByTeam.A !== bestByTeam.B) {
        derived = bestByTeam.A > bestByTeam.B ? "A" : "B";
      }
      if (kind === "juego" && top > JUEGO_RANK.other) derived = topTeam;
    }
    return { teams: teams, derived: derived };
  }

  // Punto, when all four were written: the best, the nearer to mano on a tie.
  function puntoWinner(lance) {
    var best = null, team = null;
    var inputs = all(".t-punto", lance);
    for (var i = 0; i < inputs.length; i += 1) {
      var value = number(inputs[i]);
      if (value === null) return null;
      if (best === null || value > best) {
        best = value;
        team = inputs[i].closest("[data-team]").dataset.team;
      }
    }
    return team;
  }

  // The seats that speak in a lance, in order from mano, and the pasos before a pair's first
  // word: written out before an opening bet, so the bet's pair follows from the order too.
  function openingPasos(lance, pair) {
    var name = lance.dataset.lance;
    var players = all(".t-player", lance);
    var order = players.length ? players : all(".t-player", doc.getElementById("t-hand"));
    var teams = order.slice(0, 4).map(function (p) { return p.dataset.team; });
    if (name === "pares" || (name === "juego" && !lance.classList.contains("is-punto"))) {
      teams = players.filter(function (p) { return chosen(p, name) !== "none"; })
        .map(function (p) { return p.dataset.team; });
    }
    var index = teams.indexOf(pair);
    return index > 0 ? index : 0;
  }

  function withPasos(lance) {
    var seq = lance.querySelector(".t-seq");
    var first = seq.value.split(",")[0].trim();
    var named = PAIR.exec(first);
    if (!named || /^(paso|pass)$/i.test(named[2].trim())) return;
    var pasos = openingPasos(lance, named[1].toUpperCase());
    var words = [];
    for (var i = 0; i < pasos; i += 1) words.push("paso");
    if (words.length) seq.value = words.concat([seq.value.trim()]).join(", ");
  }

  function anotador(form, template) {
    var lances = all(".t-lance", form);
    var min = +template.dataset.min || 2;
    var derivedBefore = {};

    function refresh() {
      var over = false;
      lances.forEach(function (lance) {
        var name = lance.dataset.lance;
        var pad = lance.querySelector(".t-pad");
        var seq = lance.querySelector(".t-seq");
        var win = lance.querySelector(".t-win");
        var note = lance.querySelector(".t-win-note");
        var held = lance.querySelector(".t-held");
        lance.disabled = over;
        lance.classList.toggle("is-over", over);
        lance.querySelector(".t-over").hidden = !over;
        if (over) {
          pad.hidden = true;
          return;
        }
        var bets = betting(seq.value);
        var played = true, derived = null, why = "";
        if (name === "pares" || name === "juego") {
          var h = holding(lance, name);
          var punto = name === "juego" && !h.teams.A && !h.teams.B;
          if (name === "juego") {
            lance.classList.toggle("is-punto", punto);
            lance.querySelector(".t-last-name").textContent = punto ? texts.punto : texts.juego;
            lance.querySelector(".t-if-juego").hidden = punto;
            lance.querySelector(".t-if-punto").hidden = !punto;
            var box = lance.querySelector(".t-punto-box");
            box.hidden = !punto;
            if (!punto) all(".t-punto", box).forEach(function (i) { i.value = ""; });
          }
          if (punto) derived = puntoWinner(lance);
          else if (!h.teams.A && !h.teams.B) {
            played = false;
            why = texts.nobody_pares;
          } else if (!h.teams.A || !h.teams.B) {
            played = false;
            why = fill(texts.only, { p: h.teams.A ? "A" : "B" });
          } else derived = h.derived;
          held.textContent = why;
        }
        pad.hidden = !played;
        seq.hidden = !played;
        lance.querySelector(".t-seq-label").hidden = !played;
        // the winner: not asked when the lance was not played or refused; said when known
        var needed = played && bets.ended !== "no";
        win.disabled = !needed;
        win.querySelector(".t-seg").hidden = !needed;
        win.classList.toggle("is-asked", needed && !win.querySelector("input:checked"));
        if (!needed) {
          note.textContent = played && bets.bettor ? fill(texts.refused, { p: bets.bettor }) : "";
        } else if (derived) {
          if (derivedBefore[name] !== derived) {
            win.querySelector("input[value='" + derived + "']").checked = true;
            win.classList.remove("is-asked");
          }
          note.textContent = texts.derived;
        } else note.textContent = "";
        derivedBefore[name] = derived;
        drawPad(lance, bets, played);
        if (bets.ordago && bets.ended === "quiero") over = true;
      });
    }

    // Only the words that can be said now: an opening bet, or the other pair's answer.
    function drawPad(lance, bets, played) {
      var pad = lance.querySelector(".t-pad");
      if (!played) return;
      all(".t-pad-col", pad).forEach(function (col) {
        var pair = col.dataset.pair;
        var answering = bets.bettor !== null && bets.bettor !== pair;
        var unnamed = bets.any && bets.bettor === null;
        var open = !bets.any;
        var closed = bets.ended !== null;
        var show = {
          envido: !closed && open,
          "más": !closed && !bets.ordago && (answering || unnamed),
          quiero: !closed && (answering || unnamed),
          "no quiero": !closed && (answering || unnamed),
          "órdago": !closed && !bets.ordago && (open || answering || unnamed)
        };
        all("button", col).forEach(function (b) { b.hidden = !show[b.dataset.act]; });
        col.classList.toggle("is-waiting", !closed && !open && !answering && !unnamed);
      });
      pad.classList.toggle("is-closed", bets.ended !== null);
      var state = pad.querySelector(".t-pad-state");
      if (bets.ordago && bets.ended === "quiero") state.textContent = texts.ordago_end;
      else if (bets.ended === "quiero") state.textContent = texts.wanted;
      else if (bets.ended === "no") state.textContent = "";
      else state.textContent = bets.any ? texts.answer : "";
    }

    lances.forEach(function (lance) {
      var stones = min;
      var pad = template.content.firstElementChild.cloneNode(true);
      var seq = lance.querySelector(".t-seq");
      seq.parentNode.insertBefore(pad, seq.nextSibling);
      seq.readOnly = true;
      function show() {
        all(".t-n", pad).forEach(function (n) { n.textContent = stones; });
      }
      pad.addEventListener("click", function (event) {
        var button = event.target.closest("button");
        if (!button) return;
        event.preventDefault();
        var act = button.dataset.act;
        if (act === "minus") stones = Math.max(1, stones - 1);
        else if (act === "plus") stones = Math.min(99, stones + 1);
        else if (act === "back") {
          seq.value = seq.value.split(",").slice(0, -1).join(",").trim();
        } else {
          var pair = button.closest("[data-pair]").dataset.pair;
          var words = act;
          if (act === "envido" && stones !== min) words = "envido " + stones;
          if (act === "más") words = stones + " más";
          var now = seq.value.trim().replace(/,\s*$/, "");
          seq.value = (now ? now + ", " : "") + pair + ": " + words;
          stones = min;
        }
        show();
        refresh();
      });
      show();
    });
    form.addEventListener("change", refresh);
    form.addEventListener("input", refresh);
    form.addEventListener("submit", function () {
      lances.forEach(function (lance) { if (!lance.disabled) withPasos(lance); });
    }, true);
    refresh();
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
      var body = new URLSearchParams(new FormData(form)).toString();
      var key = form.querySelector("[name=idempotency_key]").value;
      var item = { key: key, url: form.action, body: body, at: Date.now() };
      window.amarrakoQueue.add(item);
      all("[type=submit]", form).forEach(function (b) { b.disabled = true; });
      window.amarrakoQueue.send(item);
    });
  }

  // --- Offline: the service worker keeps this table's pages and their files -------------------

  var CACHE = "amarrako-table-v1";

  function offline() {
    var script = doc.getElementById("t-script");
    if (!script || !script.dataset.sw || !("serviceWorker" in navigator)) return;
    navigator.serviceWorker.register(script.dataset.sw, { scope: "/" }).then(function () {
      if (!window.caches) return;
      // this page and the other tab of the table, with the files they load: the worker only
      // sees what is fetched once it runs, and it did not run when this page was loaded
      var urls = [location.pathname].concat(all(".t-tabs a").map(function (a) {
        return a.pathname;
      }));
      all("link[rel=stylesheet]").forEach(function (l) { urls.push(l.href); });
      all("script[src]").forEach(function (s) { urls.push(s.src); });
      return caches.open(CACHE).then(function (cache) {
        return Promise.all(urls.map(function (url) {
          return cache.add(url).catch(function () { /* offline now: kept from before */ });
        }));
      });
    }).catch(function () { /* no worker (private mode, old browser): online only */ });
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
    var hand = doc.getElementById("t-hand");
    var template = doc.getElementById("t-pad");
    if (hand && template) anotador(hand, template);
    if (window.amarrakoQueue) listen();
    all("form[data-queue]").forEach(queue);
    offline();
  }

  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", start);
  else start();
})();
