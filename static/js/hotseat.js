// The pass-and-play form: shows as many name fields as the players chosen. Without this
// script every field shows and the server uses only the first names, as many as there are
// players.
(function () {
  "use strict";

  function showNames(form) {
    var players = form.querySelector("select[name=players]");
    if (!players) {
      return;
    }
    var count = parseInt(players.value, 10);
    form.querySelectorAll("[data-name-field]").forEach(function (label, index) {
      var shown = index < count;
      label.hidden = !shown;
      label.querySelector("input").disabled = !shown;
    });
    var hint = form.querySelector("[data-names-hint]");
    if (hint) {
      hint.hidden = true;
    }
  }

  document.querySelectorAll("form.hotseat-form").forEach(function (form) {
    showNames(form);
    form.addEventListener("change", function (event) {
      if (event.target.name === "players") {
        showNames(form);
      }
    });
  });
})();
