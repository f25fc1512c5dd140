/* Every page of the site (templates/base.html loads it).
 * - The language menu changes the language as soon as one is chosen (its button is for
 *   browsers without JavaScript). No inline handlers: the Content-Security-Policy allows
 *   scripts from our own files only.
 * - The resender of results kept on this phone: a table's form (static/js/table.js) posted
 *   without connection is kept in localStorage, which outlives a reload and a closed browser,
 *   and whichever page of the site is open sends it again as soon as the connection is back
 *   (at load, on the "online" event, and with retries that wait longer each time), with the
 *   same body, so the same idempotency key: a retry never records twice. The table's page
 *   handles the answer itself (it opens the receipt or shows the error); any other page says
 *   in one line what happened, with a link.
 * - Several results kept (hands of the anotador entered one after another without connection)
 *   go one at a time, oldest first, each exactly once: the page that answered one gives the
 *   table's new version, and the next kept on top of the same version is sent with it.
 */
(function () {
  "use strict";
  var doc = document;
  var STORE = "amarrako:pending";
  var timers = {};
  var busy = {};

  // --- The language menu -----------------------------------------------------------------------

  var select = doc.getElementById("lang-select");
  if (select) {
    var button = select.form.querySelector(".lang-submit");
    if (button) button.hidden = true;
    select.addEventListener("change", function () {
      select.form.submit();
    });
  }

  // --- The queue of results kept on this phone ---------------------------------------------------

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
    } catch (e) { /* private mode: the retries of this page still run */ }
  }

  function forget(key) {
    keep(pending().filter(function (item) { return item.key !== key; }));
  }

  function add(item) {
    keep(pending().filter(function (i) { return i.key !== item.key; }).concat([item]));
  }

  // Tell the page; a page that handles it calls preventDefault() (the table's page does).
  function tell(name, detail) {
    var event = new CustomEvent("amarrako:" + name, { detail: detail, cancelable: true });
    return doc.dispatchEvent(event);
  }

  function notice(text, href, linkText) {
    var box = doc.getElementById("queue-status");
    if (!box || !text) return;
    box.textContent = text + " ";
    if (href) {
      var link = doc.createElement("a");
      link.href = href;
      link.textContent = linkText;
      box.appendChild(link);
    }
    box.hidden = false;
  }

  function tableOf(url) {
    return new URL(url, location.href).pathname.split("/").slice(0, 3).join("/") + "/";
  }

  function versionOf(body) {
    return new URLSearchParams(body).get("version");
  }

  // The page a write was answered with gives the table's version now: the items queued after
  // it on the same page (same table, same version) were written on top of it, so they go with
  // that version, or the server would refuse them as stale.
  function carry(item, html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var field = page.querySelector("form[data-queue] [name=version]");
    var before = versionOf(item.body);
    if (!field || before === null) return;
    keep(pending().map(function (other) {
      if (other.key === item.key || tableOf(other.url) !== tableOf(item.url)) return other;
      if (versionOf(other.body) !== before) return other;
      var params = new URLSearchParams(other.body);
      params.set("version", field.value);
      return { key: other.key, url: other.url, body: params.toString(), at: other.at };
    }));
  }

  // One item at a time, oldest first: each of a table's hands builds on the one before.
  function send(item, delay) {
    if (busy[item.key]) return;
    busy[item.key] = true;
    clearTimeout(timers[item.key]);
    tell("sending", { item: item });
    var answered;
    fetch(item.url, {
      method: "POST",
      body: item.body,
      credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded" }
    }).then(function (response) {
      if (response.status >= 500) throw new Error("server " + response.status);
      answered = response;
      return response.redirected ? response.clone().text() : "";
    }).then(function (html) {
      var response = answered;
      if (html) carry(item, html);
      busy[item.key] = false;
      forget(item.key);
      var rest = pending().length;
      if (!tell("answer", { item: item, response: response, rest: rest })) return;
      var box = doc.getElementById("queue-status");
      var data = box ? box.dataset : {};
      if (response.redirected) notice(data.sent, response.url, data.see);
      else notice(data.refused, tableOf(item.url), data.open);
      resend();
    }).catch(function () {
      busy[item.key] = false;
      if (answered) return;  // answered, then the page went away: the next page goes on
      tell("saved", { item: item });
      var wait = Math.min((delay || 1000) * 2, 30000);
      timers[item.key] = setTimeout(function () { resend(wait); }, wait);
    });
  }

  function resend(delay) {
    var list = pending().sort(function (a, b) { return a.at - b.at; });
    if (list.length) send(list[0], delay);
  }

  window.amarrakoQueue = {
    pending: pending, add: add, send: resend, tableOf: tableOf
  };
  window.addEventListener("online", resend);
  // after the page's own scripts (table.js listens to the answers)
  if (doc.readyState === "complete") resend();
  else window.addEventListener("load", resend);
})();
