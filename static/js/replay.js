// The replay page: arrow keys step through the game, Home and End jump to the deal and to the
// end, the space bar (or the Play button) plays a move a second until the end.
(function () {
  "use strict";
  var timer = null;
  // htmx wires up the links of a new position only once it has settled, a moment after the
  // swap: clicked before then, a link loads the whole page, which the swap's history entry can
  // cut short, and the key is lost. A key pressed meanwhile waits for the position.
  var settling = false;
  var waiting = null;

  function click(id) {
    if (settling) {
      waiting = id;
      return;
    }
    var link = document.getElementById(id);
    if (link) {
      link.click();
    }
  }

  function atEnd() {
    var position = document.getElementById("replay-position");
    return position && position.dataset.step === position.dataset.steps;
  }

  function showPlaying() {
    var button = document.getElementById("replay-play");
    if (button) {
      button.textContent = timer ? button.dataset.pause : button.dataset.play;
      button.setAttribute("aria-pressed", timer ? "true" : "false");
    }
  }

  function pause() {
    clearInterval(timer);
    timer = null;
    showPlaying();
  }

  function play() {
    if (atEnd()) {
      click("replay-first");
    }
    timer = setInterval(function () {
      if (atEnd()) {
        pause();
      } else {
        click("replay-next");
      }
    }, 1000);
    showPlaying();
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest("#replay-play")) {
      timer ? pause() : play();
    }
  });
  document.addEventListener("htmx:beforeSwap", function () {
    settling = true;
  });
  // Sent by the new position itself once it is wired up (the swapped-out one is no longer in
  // the document to pass on the later events).
  document.addEventListener("htmx:load", function () {
    settling = false;
    if (waiting) {
      var id = waiting;
      waiting = null;
      click(id);
    }
  });
  document.addEventListener("htmx:afterSwap", showPlaying);
  document.addEventListener("keydown", function (event) {
    if (!document.getElementById("replay-position") || event.target.closest("input, select, textarea")) {
      return;
    }
    var keys = { ArrowLeft: "replay-previous", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last" };
    if (keys[event.key]) {
      event.preventDefault();
      pause();
      click(keys[event.key]);
    } else if (event.key === " ") {
      event.preventDefault();
      timer ? pause() : play();
    }
  });
})();
