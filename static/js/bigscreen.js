/* Live fragments for the public pages, and the rotation of the venue's big screen.
 *
 * [data-live-src]: the element's content is fetched again from that URL every
 *   data-live-every seconds (and at once with data-live-now), and whenever the live push
 *   (static/js/live.js) says it changed; while the push is connected the polling rests. A
 *   failed fetch keeps what is shown and marks the element .offline until the next one works.
 * [data-rotate]: the big screen. Its .slide sections (tables, standings) are shown side by
 *   side when both fit on the screen (at up to 80 % of the normal type size); otherwise one at
 *   a time, each for data-rotate seconds, showing every screenful of a slide before going on
 *   to the next one. A slide's [data-page] body is paged down ("y": the first row cut at the
 *   bottom comes to the top), across ("x": standings flowing in columns, two at a time) or by
 *   the pages the server cut ("p": the mesas, split evenly, one page shown at a time; a large
 *   round's answer holds one page and names the next in data-next-src, which the next fetch
 *   asks for).
 *   The bracket's slide must fit across as well as down to stand beside the mesas; its rounds
 *   share the slide's width, and its names take two lines (.sc-tall) where that fits, else
 *   one; shown alone and still too big, it is scaled down to fit whole.
 *   Pages are moved with a CSS transform, not by scrolling, so that a refresh of the content
 *   keeps the page that was on the screen.
 * No dependencies, no build step; without JavaScript the page reloads itself (meta refresh).
 */
(function () {
  "use strict";

  // Smallest type first read from across the bar: 80 % of the screen's normal size.
  var SCALES = [1, 0.9, 0.8];

  function Rotation(root) {
    var seconds = parseInt(root.getAttribute("data-rotate"), 10) || 12;
    var index = 0; // the slide shown when rotating
    var at = []; // the page each slide is on
    var alone = false; // one slide on the screen at a time (or only one)

    function slides() {
      return Array.prototype.slice.call(root.querySelectorAll(".slide"));
    }

    function body(slide) {
      return slide.querySelector("[data-page]");
    }

    function overflows(slide) {
      // a bracket is as wide as its rounds: it must fit across too
      var wide = slide.classList.contains("sc-bracket") && slide.scrollWidth > slide.clientWidth + 2;
      return wide || slide.scrollHeight > slide.clientHeight + 2;
    }

    // Where each page of a slide starts, in pixels along its paging direction.
    function pages(slide) {
      var el = body(slide);
      if (!el) return [0];
      var starts = [0];
      if (el.getAttribute("data-page") === "p") {
        // pages cut by the server, evenly (tournaments/web/screen_pages.py): one at a time
        for (var p = 1; p < el.children.length; p++) starts.push(p);
        return starts;
      }
      if (el.getAttribute("data-page") === "x") {
        var gap = parseFloat(getComputedStyle(el).columnGap) || 0;
        var step = el.clientWidth + gap;
        for (var x = step; x < el.scrollWidth - 2; x += step) starts.push(x);
        return starts;
      }
      var items = el.children;
      if (!items.length) return starts;
      var room = slide.clientHeight - el.offsetTop;
      var origin = items[0].offsetTop; // offsets are layout positions: transforms do not count
      var start = 0;
      Array.prototype.forEach.call(items, function (item) {
        var top = item.offsetTop - origin;
        if (top > start && top + item.offsetHeight - start > room + 1) {
          start = top;
          starts.push(start);
        }
      });
      return starts;
    }

    function move(slide, offset) {
      var el = body(slide);
      if (!el) return;
      if (el.getAttribute("data-page") === "p") {
        Array.prototype.forEach.call(el.children, function (page, n) {
          page.hidden = n !== offset;
        });
        var number = slide.querySelector("[data-page-number]");
        var first = parseInt(el.getAttribute("data-first"), 10) || 1; // a large round's window
        if (number) number.textContent = String(offset + first);
        return;
      }
      var axis = el.getAttribute("data-page") === "x" ? "X" : "Y";
      el.style.transform = offset ? "translate" + axis + "(" + -offset + "px)" : "";
    }

    // The next page of slide i; false (and back to its first page) when there is none.
    function turn(slide, i) {
      var starts = pages(slide);
      if ((at[i] || 0) + 1 < starts.length) {
        at[i] = (at[i] || 0) + 1;
        move(slide, starts[at[i]]);
        return true;
      }
      at[i] = 0;
      move(slide, 0);
      return false;
    }

    function brackets(list) {
      return list.filter(function (slide) { return slide.classList.contains("sc-bracket"); });
    }

    function tall(list, on) {
      brackets(list).forEach(function (slide) { slide.classList.toggle("sc-tall", on); });
    }

    function scaleOf(slide, block) {
      var title = slide.querySelector("h2");
      var width = slide.clientWidth;
      var height = slide.clientHeight - (title ? title.offsetHeight : 0);
      return Math.min(1, width / block.scrollWidth, height / block.scrollHeight);
    }

    // A bracket too big for its slide (a double elimination, 32 pairs) is scaled down to fit
    // it whole, across and down: the TV has no scrolling. Shown alone, its names take two
    // lines (.sc-tall) when that still fits at full size, one line otherwise.
    function fit(slide) {
      var block = slide.querySelector(".bracket-block");
      if (!block) return;
      block.style.transform = "";
      block.style.width = "";
      if (!slide.offsetParent) return; // not shown now: measured when it is
      if (alone) {
        slide.classList.add("sc-tall");
        if (scaleOf(slide, block) < 1) slide.classList.remove("sc-tall");
      }
      var scale = scaleOf(slide, block);
      if (scale < 1) {
        // scaled down for its height, it may be as wide as the slide at that scale: its rounds
        // take the room (names whole) instead of leaving the right of the screen empty
        block.style.width = slide.clientWidth / scale + "px";
        scale = scaleOf(slide, block);
        block.style.transformOrigin = "0 0";
        block.style.transform = "scale(" + scale + ")";
      }
    }

    function show(list) {
      list.forEach(function (slide, i) {
        slide.classList.toggle("active", i === index);
      });
      list.forEach(fit);
    }

    this.layout = function () {
      var list = slides();
      list.forEach(function (slide) {
        move(slide, 0);
        var block = slide.querySelector(".bracket-block");
        if (block) block.style.transform = block.style.width = "";
      });
      root.classList.remove("rotating");
      var fits = list.length < 2;
      // Side by side if it fits, with type a little smaller if need be; else one at a time.
      // A bracket beside the mesas gives its names two lines if that fits, else one.
      [true, false].forEach(function (twoLines) {
        if (fits) return;
        tall(list, twoLines);
        for (var i = 0; i < SCALES.length && !fits; i++) {
          root.style.setProperty("--scale", SCALES[i]);
          fits = !list.some(overflows);
        }
      });
      if (!fits || list.length < 2) root.style.setProperty("--scale", 1);
      alone = !fits || list.length < 2;
      root.classList.toggle("rotating", !fits);
      if (index >= list.length) index = 0;
      show(list);
      list.forEach(function (slide, n) {
        var starts = pages(slide);
        at[n] = Math.min(at[n] || 0, starts.length - 1);
        move(slide, starts[at[n]]);
      });
    };

    this.step = function () {
      var list = slides();
      if (!list.length) return;
      if (!root.classList.contains("rotating")) {
        list.forEach(turn); // everything is on the screen, unless a lone slide is long
        return;
      }
      if (!turn(list[index], index)) {
        index = (index + 1) % list.length;
        show(list);
      }
    };

    var self = this;
    window.addEventListener("resize", function () { self.layout(); });
    setInterval(function () { self.step(); }, seconds * 1000);
    this.layout();
  }

  function live(el) {
    var rotation = el.hasAttribute("data-rotate") ? new Rotation(el) : null;
    var url = el.getAttribute("data-live-src");
    var every = parseInt(el.getAttribute("data-live-every"), 10) || 0;
    var busy = false;

    // A large round's mesas come a page an answer: the answer names the next one to ask for.
    var paged = false;
    function follow() {
      var next = el.querySelector("[data-next-src]");
      paged = !!next;
      if (next) url = next.getAttribute("data-next-src");
    }

    // pushed: fetched because the live push said so (the server answers every screen woken
    // by one event from one render, config/live_pages.py)
    function load(pushed) {
      if (busy) return;
      busy = true;
      var headers = pushed === true ? { "X-Amarrako-Live": "1" } : {};
      fetch(url, { cache: "no-store", credentials: "same-origin", headers: headers })
        .then(function (response) {
          if (!response.ok) throw new Error(String(response.status));
          return response.text();
        })
        .then(function (html) {
          el.innerHTML = html;
          el.classList.remove("offline");
          follow();
          if (rotation) rotation.layout();
        })
        .catch(function () {
          el.classList.add("offline");
        })
        .then(function () {
          busy = false;
        });
    }

    follow();
    if (el.hasAttribute("data-live-now")) load();
    // the live push (static/js/live.js) says when something changed; the polling below is its
    // fallback, resting while the stream is open
    el.addEventListener("amarrako:live-refresh", function () { load(true); });
    if (every > 0) {
      setInterval(function () {
        var pushed = window.amarrakoLive && window.amarrakoLive.connected;
        // a paged screen keeps turning its pages while the push is open
        if (!document.hidden && (!pushed || paged)) load();
      }, every * 1000);
    }
  }

  Array.prototype.forEach.call(document.querySelectorAll("[data-live-src]"), live);
})();
