/* The live push: a page with a #live element (templates/base.html) opens its stream
 * (Server-Sent Events, tournaments/web/live.py) and, when something it shows changes:
 * - the elements with [data-live-src] (the TV, the home page) fetch their fragment again
 *   (static/js/bigscreen.js listens for "amarrako:live-refresh");
 * - any other page fetches itself again and swaps its <main> (the table's phone: the other pair
 *   sent its result, so the confirm screen; the organizer's board; the standings, the bracket),
 *   not while the reader is typing in it (then once they leave the field). The table's page
 *   swaps only when its match's status changed (data-live-state), not at each hand.
 * Each event carries its tournament's sequence number: a stream that drops (a phone that slept,
 * the Wi-Fi, a node restarted) is reopened from the last one seen and sent what it missed, or
 * a "reset" when that is too old (the page fetches itself again).
 * While the stream is open window.amarrakoLive.connected is true, and the pages' own polling
 * (bigscreen.js, organizer.js) rests; when it fails they poll again, and the stream is tried
 * again later. Without JavaScript, or without this file, the pages reload as they always did.
 */
(function () {
  "use strict";
  var box = document.getElementById("live");
  if (!box || !window.EventSource || !window.fetch) return;

  var state = { connected: false };
  window.amarrakoLive = state;
  var stream = box.getAttribute("data-live-stream");
  var seen = box.getAttribute("data-live-seq") || "";
  var status = box.getAttribute("data-live-state") || "";
  var crossOrigin = new URL(stream, location.href).origin !== location.origin;
  var source = null;
  var retry = 5000;
  var dropped = false;
  var timer = null;
  var waiting = false;

  function typing(root) {
    var active = document.activeElement;
    return active && root.contains(active) && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName);
  }

  function swapMain() {
    var main = document.querySelector("main");
    if (!main) return;
    if (typing(main)) {
      if (!waiting) {
        waiting = true;
        main.addEventListener("focusout", function again() {
          main.removeEventListener("focusout", again);
          waiting = false;
          window.setTimeout(refresh, 50);
        });
      }
      return;
    }
    // a public page answers its <main> alone, rendered once per event for all its screens
    // (config/live_pages.py); other pages ignore the header
    fetch(location.href, {
      cache: "no-store",
      credentials: "same-origin",
      headers: { "X-Amarrako-Live": "1" },
    })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        var fresh = page.querySelector("main");
        var here = document.querySelector("main");
        if (!fresh || !here || typing(here)) return;
        here.innerHTML = fresh.innerHTML;
        var next = page.getElementById("live");
        if (next) status = next.getAttribute("data-live-state") || status;
        document.dispatchEvent(new CustomEvent("amarrako:swapped"));
      })
      .catch(function () { /* the next event, or the page's reload, tries again */ });
  }

  function refresh() {
    var parts = document.querySelectorAll("[data-live-src]");
    if (parts.length) {
      Array.prototype.forEach.call(parts, function (el) {
        el.dispatchEvent(new CustomEvent("amarrako:live-refresh"));
      });
    } else {
      swapMain();
    }
  }

  // A burst of events (a result, then its standings) makes one fetch. The screens of a public
  // page, maybe thousands, spread their fetches over most of a second so that the web server
  // does not get them all in one millisecond; a table's phones (data-live-state) are few.
  var spread = status ? 200 : 700;
  function soon() {
    if (timer) return;
    timer = window.setTimeout(function () {
      timer = null;
      refresh();
    }, 100 + Math.random() * spread);
  }

  function message(event) {
    if (event.lastEventId) seen = event.lastEventId;
    var data;
    try {
      data = JSON.parse(event.data);
    } catch (e) {
      return;
    }
    if (data.kind !== "reset" && status && data.status) {
      if (data.status === status) return; // the table's page: a hand, not a new screen
      status = data.status;
    }
    soon();
  }

  function open() {
    var url = stream + (seen !== "" ? (stream.indexOf("?") < 0 ? "?" : "&") + "since=" + seen : "");
    source = new EventSource(url, { withCredentials: crossOrigin });
    source.onopen = function () {
      state.connected = true;
      retry = 5000;
      box.setAttribute("data-live-connected", "");
      if (dropped) soon(); // whatever the polling missed in between
      dropped = false;
    };
    source.onmessage = message;
    source.onerror = function () {
      state.connected = false;
      dropped = true;
      box.removeAttribute("data-live-connected");
      if (source.readyState === EventSource.CLOSED) {
        // refused (503: no Redis; 404, 403) or gone: the page polls, the stream is tried later
        source.close();
        window.setTimeout(open, retry);
        retry = Math.min(retry * 2, 60000);
      }
    };
  }

  open();
})();
