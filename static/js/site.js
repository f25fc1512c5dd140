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

  function send(item, delay) {
    if (busy[item.key]) return;
    busy[item.key] = true;
    clearTimeout(timers[item.key]);
    tell("sending", { item: item });
    fetch(item.url, {
      method: "POST",
      body: item.body,
      credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded" }
    }).then(function (response) {
      if (response.status >= 500) throw new Error("server " + response.status);
      busy[item.key] = false;
      forget(item.key);
      if (!tell("answer", { item: item, response: response })) return;
      var box = doc.getElementById("queue-status");
      var data = box ? box.dataset : {};
      if (response.redirected) notice(data.sent, response.url, data.see);
      else notice(data.refused, tableOf(item.url), data.open);
    }).catch(function () {
      busy[item.key] = false;
      tell("saved", { item: item });
      var wait = Math.min((delay || 1000) * 2, 30000);
      timers[item.key] = setTimeout(function () { send(item, wait); }, wait);
    });
  }

  function resend() {
    pending().forEach(function (item) { send(item); });
  }

  window.amarrakoQueue = {
    pending: pending, add: add, send: send, tableOf: tableOf
  };
  window.addEventListener("online", resend);
  // after the page's own scripts (table.js listens to the answers)
  if (doc.readyState === "complete") resend();
  else window.addEventListener("load", resend);
})();
