// Small comforts on the game table; the game itself works from the server's HTML alone.
(function () {
  "use strict";
  // The play form is only ever sent over the websocket: never let Enter submit it as a page.
  document.addEventListener("submit", function (event) {
    if (event.target.closest("#table")) {
      event.preventDefault();
    }
  });
  // "Cancel" in a menu closes it and forgets what was chosen there.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-close-menu]");
    if (!button) {
      return;
    }
    var menu = button.closest("details");
    var form = button.closest("form");
    if (form) {
      form.reset();
    }
    if (menu) {
      menu.open = false;
      menu.querySelector("summary").focus();
    }
  });
})();
