/*
 * The anotador's "puntos por lance" form (templates/tables/_lances.html): while the person
 * types, it adds each pair's stones the way the paper does (grande and chica en paso 1, punto
 * 1, deje or envite its stones, plus the bonus) and shows the sum next to the totals. The
 * server (scoring/lances.py) checks every figure; this is only a help for the eye.
 */
(function () {
  "use strict";
  var form = document.getElementById("t-points-form");
  var out = document.getElementById("t-points-sum");
  if (!form || !out) return;

  function number(name) {
    var field = form.elements[name];
    var value = field ? parseInt(field.value, 10) : NaN;
    return isNaN(value) ? 0 : value;
  }

  function sum() {
    var totals = { A: 0, B: 0 };
    var any = false;
    form.querySelectorAll(".t-point").forEach(function (row) {
      var lance = row.getAttribute("data-point");
      var to = form.elements["lp_" + lance + "_to"].value;
      if (to !== "A" && to !== "B") return;
      any = true;
      var how = form.elements["lp_" + lance + "_how"].value;
      if (how === "ordago") return;
      var stones = number("lp_" + lance + "_stones");
      if (how === "paso") {
        stones = lance === "grande" || lance === "chica" ? 1 : 0;
      }
      var last = form.elements.lp_last ? form.elements.lp_last.value : "juego";
      var bonus = number("lp_" + lance + "_bonus");
      if (lance === "juego" && last === "punto") bonus = 1;
      totals[to] += stones + bonus;
    });
    out.textContent = any
      ? out.getAttribute("data-template").replace("{a}", totals.A).replace("{b}", totals.B)
      : "";
  }

  form.addEventListener("input", sum);
  form.addEventListener("change", sum);
  sum();
})();
