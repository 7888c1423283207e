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
// "Copy link" buttons copy the text of the input they name.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) {
      return;
    }
    var input = document.querySelector(button.getAttribute("data-copy"));
    if (!input) {
      return;
    }
    input.select();
    var done = function () {
      button.textContent = button.getAttribute("data-copied");
    };
    if (navigator.clipboard) {
      navigator.clipboard.writeText(input.value).then(done, function () {
        document.execCommand("copy");
        done();
      });
    } else {
      document.execCommand("copy");
      done();
    }
  });
})();
