// Every page: the language menu changes the language as soon as one is chosen (its button
// is for browsers without JavaScript). No inline handlers: the Content-Security-Policy
// allows scripts from our own files only.
(function () {
  "use strict";
  var select = document.getElementById("lang-select");
  if (!select) return;
  var button = select.form.querySelector(".lang-submit");
  if (button) button.hidden = true;
  select.addEventListener("change", function () {
    select.form.submit();
  });
})();
