/* The anotador's pad (templates/tables/hands.html; loaded before static/js/table.js, which
 * sends the form). The page works without it: the bets are typed then. What it adds:
 * - per lance a pad that shows only what can be said next (an opening envido or órdago, then
 *   the other side's quiero, no quiero, N más, órdago), by side (a pair, or a trio at a table
 *   of six): a bet of a usual size is one tap (Envido 3, 4, 5, 10 to open; 3, 4, 5, 10 más to
 *   answer; − and + set any other), and wherever an órdago can be said, "Órdago · quiero" and
 *   "Órdago · no quiero" are the órdago and the other side's answer in one tap; it writes it
 *   into the lance's text
 *   field, the one the server reads (with the pasos before an opening bet, so that its pair
 *   also follows from the speaking order);
 * - per player a chip for pares and juego;
 * - what is already known, shown without deciding for the server: a lance nobody or only one
 *   pair holds is not played (no pad, no winner); a refused envite needs no winner; a winner
 *   the declarations give (duples over medias; 31, 32 and 40 over any other juego; equal ones
 *   to the nearer to mano; the best punto when all four are written) is filled in and can be
 *   changed; the lances after an accepted órdago close, and the winners of the lances before it
 *   are not asked (the órdago ends the game; only a deje before it counts, and needs none).
 *   No winner is chosen before a tap.
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

  function number(input) {
    var value = input ? input.value.trim() : "";
    return value === "" ? null : parseInt(value, 10);
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
    // the first lance's chip rows list every seat (four, or six at a table of trios)
    var seats = all(".t-player", doc.querySelector(".t-lance[data-lance='pares']") || doc).length;
    var teams = order.slice(0, seats || 4).map(function (p) { return p.dataset.team; });
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
      // an órdago accepted in a later lance ends the game: what came before it counts only if
      // it was a deje (no winner needed), so no winner is asked there (001, docs/rules.md)
      var ordagoAt = -1;
      lances.some(function (lance, index) {
        var said = betting(lance.querySelector(".t-seq").value);
        if (said.ordago && said.ended === "quiero") ordagoAt = index;
        return ordagoAt >= 0;
      });
      lances.forEach(function (lance, index) {
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
        var moot = played && bets.ended !== "no" && index < ordagoAt;
        var needed = played && bets.ended !== "no" && !moot;
        win.disabled = !needed;
        win.querySelector(".t-seg").hidden = !needed;
        win.classList.toggle("is-asked", needed && !win.querySelector("input:checked"));
        if (moot) {
          note.textContent = texts.before_ordago;
        } else if (!needed) {
          note.textContent = played && bets.bettor ? fill(texts.refused, { p: bets.bettor }) : "";
        } else if (derived) {
          if (derivedBefore[name] !== derived) {
            win.querySelector("input[value='" + derived + "']").checked = true;
            win.classList.remove("is-asked");
          }
          note.textContent = texts.derived;
        } else {
          // what the declarations said no longer holds: the answer is the table's again
          var filled = win.querySelector("input:checked");
          if (derivedBefore[name] && filled && filled.value === derivedBefore[name]) {
            filled.checked = false;
            win.classList.add("is-asked");
          }
          note.textContent = "";
        }
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
        var raise = !closed && !bets.ordago && (answering || unnamed);
        var show = {
          envido: !closed && open,
          "más": raise,
          // a bet of a usual size in one tap: an envido to open, a raise to answer
          amount: (!closed && open) || raise,
          quiero: !closed && (answering || unnamed),
          "no quiero": !closed && (answering || unnamed),
          "órdago": !closed && !bets.ordago && (open || answering || unnamed),
          // the bet and the other side's answer in one tap, wherever an órdago can be said
          "órdago quiero": !closed && !bets.ordago && (open || answering),
          "órdago no": !closed && !bets.ordago && (open || answering)
        };
        all("button", col).forEach(function (b) { b.hidden = !show[b.dataset.act]; });
        col.classList.toggle("is-opening", open);
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
          var other = pair === "A" ? "B" : "A";
          var words = act;
          if (act === "envido" && stones !== min) words = "envido " + stones;
          if (act === "más") words = stones + " más";
          if (act === "amount") {
            var n = button.dataset.n;
            words = betting(seq.value).any ? n + " más" : "envido " + n;
          }
          if (act === "órdago quiero") words = "órdago, " + other + ": quiero";
          if (act === "órdago no") words = "órdago, " + other + ": no quiero";
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

  function start() {
    var data = doc.getElementById("t-i18n");
    texts = data ? JSON.parse(data.textContent) : {};
    var hand = doc.getElementById("t-hand");
    var template = doc.getElementById("t-pad");
    if (hand && template) anotador(hand, template);
  }

  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", start);
  else start();
})();
