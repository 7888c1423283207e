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
// Keyboard play: every swap of the table replaces the element that had the focus, which would
// drop the focus to <body>. Before a swap, remember the focused control (its id; the hand card's
// place), and after it focus the same control again, or else the first that is usable now in the
// focus order hand, table, actions (then the follow-ups, then the line that says whose turn it is).
(function () {
  "use strict";
  var FALLBACKS = [
    "#table input[name=card]",
    "#table .is-target",
    "#table .actions button",
    "#table .follow-ups button",
    "#table #reveal",
    "#table #turn",
  ];
  // The control the player last chose in the table; kept while the focus rests on a fallback.
  var wanted = null;
  var cardIndex = -1;
  var restore = false;

  function usable(element) {
    return element && !element.disabled && element.getClientRects().length > 0;
  }

  document.addEventListener("htmx:wsBeforeMessage", function () {
    var table = document.getElementById("table");
    var active = document.activeElement;
    restore = Boolean(table && active && table.contains(active));
    if (!restore || active.id === "turn" || !active.id) {
      return;
    }
    wanted = active.id;
    var cards = Array.prototype.slice.call(table.querySelectorAll("input[name=card]"));
    cardIndex = cards.indexOf(active);
  });

  // Whether it was this player's turn on the last table shown: when the turn comes (or the
  // page opens on it) and the focus rests nowhere in particular, it goes to the first usable
  // control, so that a keyboard or switch user starts where the move is.
  var yourTurn = false;
  // A finger or a mouse needs no focus ring: the turn's first control is focused only for a
  // player who uses the keyboard (a touch screen starts without one).
  var byPointer = window.matchMedia("(pointer: coarse)").matches;
  document.addEventListener("pointerdown", function () { byPointer = true; }, true);
  document.addEventListener("keydown", function () { byPointer = false; }, true);

  function firstUsable() {
    for (var i = 0; i < FALLBACKS.length; i++) {
      var found = Array.prototype.find.call(document.querySelectorAll(FALLBACKS[i]), usable);
      if (found) {
        return found;
      }
    }
    return null;
  }

  document.addEventListener("htmx:wsAfterMessage", function () {
    var table = document.getElementById("table");
    var turnNow = Boolean(table && table.querySelector(".turn--yours"));
    var turnCame = turnNow && !yourTurn;
    yourTurn = turnNow;
    var idle = !document.activeElement || document.activeElement === document.body;
    if (turnCame && idle && !restore && !byPointer) {
      var first = firstUsable();
      if (first) {
        first.focus({ preventScroll: true });
      }
      return;
    }
    if (!restore || !table || table.contains(document.activeElement)) {
      return;
    }
    var target = wanted && document.getElementById(wanted);
    if (!usable(target) && cardIndex >= 0) {
      var cards = table.querySelectorAll("input[name=card]:not(:disabled)");
      target = cards[Math.min(cardIndex, cards.length - 1)];
    }
    for (var i = 0; !usable(target) && i < FALLBACKS.length; i++) {
      target = Array.prototype.find.call(document.querySelectorAll(FALLBACKS[i]), usable);
    }
    if (target) {
      target.focus();
    }
  });
})();
// The four-colour deck (diamonds blue, clubs green): a class on <html>, remembered here.
(function () {
  "use strict";
  var KEY = "four-colour";
  var stored = null;
  try {
    stored = window.localStorage.getItem(KEY);
  } catch (error) {
    // Storage may be off: the choice then lasts as long as the page.
  }
  document.documentElement.classList.toggle("four-colour", stored === "1");
  var box = document.querySelector("[data-four-colour]");
  if (box) {
    box.checked = stored === "1";
  }
  document.addEventListener("change", function (event) {
    if (!event.target.matches("[data-four-colour]")) {
      return;
    }
    var on = event.target.checked;
    document.documentElement.classList.toggle("four-colour", on);
    try {
      window.localStorage.setItem(KEY, on ? "1" : "0");
    } catch (error) {
      // Storage may be off: see above.
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
    var label = button.getAttribute("data-label") || button.textContent;
    button.setAttribute("data-label", label);
    var done = function () {
      button.textContent = button.getAttribute("data-copied");
      window.clearTimeout(button.copiedTimer);
      button.copiedTimer = window.setTimeout(function () {
        button.textContent = label;
      }, 2000);
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
// The websocket extension reconnects by itself only after abnormal closes (1006, 1011-1013).
// A table must also come back after a clean close (a server restart, Daphne's daily close); a
// refusal (4403: not yours, 4404: gone) is final, and after 4008 (too many messages) or 4429
// (too many sockets) the server's message offers a Reconnect button, which reloads the page.
// After a final close the table is greyed out and made inert: its buttons would send nothing,
// and a table that still said "Your turn" would look alive beside the message saying why not.
(function () {
  "use strict";
  var FINAL = [4008, 4403, 4404, 4429];

  function closeTable() {
    document.querySelectorAll("#table, #phrase-menu").forEach(function (element) {
      element.inert = true;
      element.classList.add("is-closed");
    });
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-reconnect]")) {
      window.location.reload();
    }
  });
  var SELF_HEALING = [1006, 1011, 1012, 1013];
  var attempts = 0;
  document.addEventListener("htmx:wsOpen", function () {
    attempts = 0;
  });
  document.addEventListener("htmx:wsClose", function (event) {
    var code = event.detail.event.code;
    if (FINAL.indexOf(code) >= 0) {
      closeTable();
      return;
    }
    if (SELF_HEALING.indexOf(code) >= 0) {
      return;
    }
    attempts += 1;
    var delay = Math.min(1000 * Math.pow(2, attempts - 1), 30000);
    setTimeout(function () {
      event.detail.socketWrapper.reconnect();
    }, delay);
  });
})();
// Cards that move. Before a table is swapped, remember where every card (data-card), seat
// (data-seat) and pile (data-pile) is; after it, each card that was already on screen slides
// from its old place to its new one, a card new to the table comes from the seat that played it
// (data-from), and a card new to the hand comes from the stock. Off under "reduce motion" and
// with the table's "Animations" box unticked (remembered in this browser).
(function () {
  "use strict";
  var KEY = "animations";
  var DURATION = 350;
  var reduced = window.matchMedia("(prefers-reduced-motion: reduce)");

  function stored() {
    try {
      return window.localStorage.getItem(KEY);
    } catch (error) {
      return null; // Storage may be off: animations stay on, as by default.
    }
  }

  function enabled() {
    return !reduced.matches && stored() !== "0";
  }

  function places(selector, attribute) {
    var found = {};
    document.querySelectorAll("#table " + selector).forEach(function (element) {
      found[element.getAttribute(attribute)] = element.getBoundingClientRect();
    });
    return found;
  }

  var before = null;
  document.addEventListener("htmx:wsBeforeMessage", function () {
    before = enabled()
      ? {
          cards: places("[data-card]", "data-card"),
          seats: places("[data-seat]", "data-seat"),
          piles: places("[data-pile]", "data-pile"),
          bout: Array.prototype.map.call(
            document.querySelectorAll("#table .bout [data-card]"),
            function (element) {
              var picture = element.querySelector(".card") || element;
              return { code: element.getAttribute("data-card"), box: picture.getBoundingClientRect() };
            }
          ),
        }
      : null;
  });

  // The cards of a bout that ended go where they went: to the discard pile, or to the hand of
  // the seat that picked them up. What flies there is a card back: the cards are in a hand or
  // the pile now, and the page keeps no picture of a card where it is no longer seen.
  function sendAway(old) {
    var board = document.querySelector("#table [data-gone-to]");
    if (!board) {
      return;
    }
    var goneTo = board.getAttribute("data-gone-to");
    var to = goneTo === "discard" ? old.piles.discard : old.seats[goneTo.replace("seat-", "")];
    var target = goneTo === "discard"
      ? document.querySelector("#table [data-pile=discard]")
      : document.querySelector('#table [data-seat="' + goneTo.replace("seat-", "") + '"]');
    if (target) {
      to = target.getBoundingClientRect();
    }
    if (!to) {
      return;
    }
    old.bout.forEach(function (card) {
      if (document.querySelector('#table .bout [data-card="' + card.code + '"]')) {
        return;
      }
      var copy = document.createElement("span");
      copy.className = "card card--back";
      copy.setAttribute("aria-hidden", "true");
      copy.style.width = card.box.width + "px";
      copy.style.height = card.box.height + "px";
      copy.style.cssText += ";position:fixed;margin:0;pointer-events:none;z-index:20;" +
        "left:" + card.box.left + "px;top:" + card.box.top + "px;";
      document.body.appendChild(copy);
      var dx = to.left - card.box.left;
      var dy = to.top - card.box.top;
      var flight = copy.animate(
        [{ transform: "none", opacity: 1 }, { transform: "translate(" + dx + "px, " + dy + "px) scale(0.6)", opacity: 0.2 }],
        { duration: DURATION + 100, easing: "ease-in" }
      );
      flight.onfinish = function () {
        copy.remove();
      };
    });
  }

  document.addEventListener("htmx:wsAfterMessage", function () {
    var old = before;
    before = null;
    if (!old) {
      return;
    }
    sendAway(old);
    document.querySelectorAll("#table [data-card]").forEach(function (element) {
      var code = element.getAttribute("data-card");
      var from = old.cards[code];
      if (!from && element.hasAttribute("data-from")) {
        from = old.seats[element.getAttribute("data-from")];
      }
      if (!from && element.closest(".hand")) {
        from = old.piles.stock;
      }
      if (!from) {
        return;
      }
      var to = element.getBoundingClientRect();
      var dx = from.left - to.left;
      var dy = from.top - to.top;
      if (Math.abs(dx) < 2 && Math.abs(dy) < 2) {
        return;
      }
      element.animate(
        [{ transform: "translate(" + dx + "px, " + dy + "px)" }, { transform: "none" }],
        { duration: DURATION, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" }
      );
    });
  });

  var box = document.querySelector("[data-animations]");
  if (box) {
    box.checked = stored() !== "0";
    box.addEventListener("change", function () {
      try {
        window.localStorage.setItem(KEY, box.checked ? "1" : "0");
      } catch (error) {
        // Storage may be off: the choice then lasts as long as the page.
      }
    });
  }
})();
// Sound, off unless the player ticks the table's "Sound" box (remembered in this browser): a
// snap when a card is played to the table, a sweep when a bout is picked up, a flick when cards
// come to your hand. The files load only once sound is on.
(function () {
  "use strict";
  var KEY = "sound";
  var box = document.querySelector("[data-sound]");
  if (!box) {
    return;
  }
  var sounds = {};

  function on() {
    try {
      return window.localStorage.getItem(KEY) === "1";
    } catch (error) {
      return box.checked; // Storage may be off: the box's state then lasts as long as the page.
    }
  }

  function play(name) {
    if (!sounds[name]) {
      sounds[name] = new Audio(box.getAttribute("data-" + name));
    }
    sounds[name].currentTime = 0;
    var playing = sounds[name].play();
    if (playing && playing.catch) {
      playing.catch(function () {}); // a browser may refuse sound before the first tap
    }
  }

  function codes(selector) {
    return Array.prototype.map.call(document.querySelectorAll(selector), function (element) {
      return element.getAttribute("data-card");
    });
  }

  var before = null;
  document.addEventListener("htmx:wsBeforeMessage", function () {
    before = on() ? { hand: codes("#table .hand [data-card]"), table: codes("#table .is-last") } : null;
  });

  document.addEventListener("htmx:wsAfterMessage", function () {
    var old = before;
    before = null;
    if (!old) {
      return;
    }
    var news = function (list, known) {
      return list.some(function (code) { return known.indexOf(code) < 0; });
    };
    var goneTo = document.querySelector("#table [data-gone-to]");
    if (goneTo && goneTo.getAttribute("data-gone-to").indexOf("seat-") === 0) {
      play("take");
    } else if (news(codes("#table .is-last"), old.table)) {
      play("play");
    } else if (news(codes("#table .hand [data-card]"), old.hand)) {
      play("deal");
    }
  });

  box.checked = on();
  box.addEventListener("change", function () {
    try {
      window.localStorage.setItem(KEY, box.checked ? "1" : "0");
    } catch (error) {
      // Storage may be off: see above.
    }
    if (box.checked) {
      play("play"); // the player hears what they turned on, in the tap that allows sound
    }
  });
})();
// Selecting cards. The play form carries the seat's legal moves (data-moves, their notations)
// and, for each hand card that none of them takes, why it cannot be played now (data-why, the
// engine's reason in words). A tap on a card that cannot join the cards already selected (no
// move takes them all) starts a new selection with it; a tap on a card that no move takes
// leaves the selection as it was and says why, over the line that says whose turn it is, so
// that nothing moves. The table's targets light up for what the selection can do: the attack
// cards a selected card beats, the melds it can be laid off on.
(function () {
  "use strict";
  var CARD = /^[2-9TJQKA][cdhs]$/;
  var SHOWN_FOR = 5000;
  var timer = null;

  function moves(form) {
    try {
      return JSON.parse(form.getAttribute("data-moves") || "[]").map(function (notation) {
        var words = notation.split(" ");
        return { notation: notation, cards: words.filter(function (word) { return CARD.test(word); }) };
      });
    } catch (error) {
      return [];
    }
  }

  function why(form, card) {
    try {
      return JSON.parse(form.getAttribute("data-why") || "{}")[card] || "";
    } catch (error) {
      return "";
    }
  }

  function takes(move, cards) {
    return cards.every(function (card) {
      return move.cards.indexOf(card) >= 0;
    });
  }

  function selected(form) {
    return Array.prototype.map.call(form.querySelectorAll("input[name=card]:checked"), function (box) {
      return box.value;
    });
  }

  function light(form) {
    var chosen = selected(form);
    var legal = moves(form);
    form.querySelectorAll("[data-card].is-target, [data-move-prefix]").forEach(function (target) {
      var lit = false;
      if (chosen.length) {
        var prefix = target.getAttribute("data-move-prefix");
        var card = target.getAttribute("data-card");
        lit = legal.some(function (move) {
          return prefix
            ? move.notation.indexOf(prefix + " ") === 0 && takes(move, chosen)
            : takes(move, chosen.concat([card]));
        });
      }
      target.classList.toggle("is-lit", lit);
    });
  }

  // The reason is laid over the turn line (#turn), which keeps its height, with the turn
  // clock of that line (if any) still counting at its start; it goes after a few seconds, at
  // the next tap or with the next table.
  function say(text) {
    window.clearTimeout(timer);
    var turn = document.getElementById("turn");
    var note = document.getElementById("card-why");
    if (!text || !turn) {
      if (note) {
        note.remove();
      }
      return;
    }
    if (!note) {
      note = document.createElement("span");
      note.id = "card-why";
      note.className = "card-why"; // read out: the turn line is a live region
    }
    note.textContent = "";
    var clock = turn.querySelector(".clock");
    if (clock) {
      // A copy of the turn clock, which the clocks' script keeps counting down like it.
      var copy = clock.cloneNode(true);
      ["id", "role", "aria-label", "data-then"].forEach(function (name) {
        copy.removeAttribute(name);
      });
      copy.setAttribute("aria-hidden", "true");
      note.appendChild(copy);
    }
    note.appendChild(document.createTextNode(text));
    note.classList.toggle("card-why--long", text.length > 80);
    turn.appendChild(note);
    timer = window.setTimeout(function () {
      say("");
    }, SHOWN_FOR);
  }

  function refused(card) {
    if (card) {
      card.classList.remove("is-refused");
      void card.offsetWidth; // a second tap shakes it again
      card.classList.add("is-refused");
    }
  }

  document.addEventListener("change", function (event) {
    var box = event.target;
    var form = box.closest && box.closest("#play");
    if (!form || box.name !== "card") {
      return;
    }
    say("");
    if (box.checked) {
      var legal = moves(form);
      var alone = legal.some(function (move) {
        return takes(move, [box.value]);
      });
      var joins = legal.some(function (move) {
        return takes(move, selected(form));
      });
      if (!alone) {
        box.checked = false;
        say(why(form, box.value));
        refused(box.closest(".hand-card"));
      } else if (!joins) {
        form.querySelectorAll("input[name=card]:checked").forEach(function (other) {
          other.checked = other === box;
        });
      }
    }
    light(form);
  });
})();
// A refused move's reason sits just above your hand, wherever the hand is on screen, so that it
// covers neither the cards nor the buttons under them (the stylesheet's place is the fallback).
(function () {
  "use strict";
  document.addEventListener("htmx:wsAfterMessage", function () {
    var error = document.querySelector("#flash .flash__error");
    var hand = document.querySelector("#table .me");
    if (!error || !hand) {
      return;
    }
    var top = hand.getBoundingClientRect().top;
    if (top > 0 && top < window.innerHeight) {
      error.style.bottom = window.innerHeight - top + 6 + "px";
    }
  });
})();
// Turn clocks. A clock (data-deadline: the server's time, in ms, when it runs out) counts down
// in m:ss, corrected by how far this device's clock is from the server's (data-server-now on
// the page, when it was rendered), and never shows more than its length (data-length, in ms):
// the page learns the server's time a moment late, and a new turn's deadline then looks that
// much further away. Under ten seconds it turns urgent; a clock that asks for it
// (data-then="sync") asks the server for the table once it has run out.
(function () {
  "use strict";
  var page = document.querySelector("[data-server-now]");
  var skew = page ? Number(page.getAttribute("data-server-now")) - Date.now() : 0;
  function text(ms) {
    var seconds = Math.max(0, Math.ceil(ms / 1000));
    var rest = seconds % 60;
    return Math.floor(seconds / 60) + ":" + (rest < 10 ? "0" : "") + rest;
  }
  function tick() {
    var now = Date.now() + skew;
    document.querySelectorAll(".clock[data-deadline]").forEach(function (clock) {
      var left = Number(clock.getAttribute("data-deadline")) - now;
      if (clock.hasAttribute("data-length")) {
        left = Math.min(left, Number(clock.getAttribute("data-length")));
      }
      var shown = text(left);
      if (clock.textContent !== shown) {
        clock.textContent = shown;
      }
      clock.classList.toggle("clock--low", left < 10000);
      if (left <= 0 && clock.getAttribute("data-then") === "sync" && !clock.synced) {
        clock.synced = true;
        var sync = document.getElementById("sync");
        if (sync) {
          sync.click();
        }
      }
    });
  }
  document.addEventListener("htmx:wsAfterMessage", tick);
  tick();
  window.setInterval(tick, 250);
})();
// Quick phrases. Each one arrives in #phrases; it is placed by the seat that said it (its
// data-seat on the table) and goes after a few seconds. "Table messages" unticked hides them
// all (remembered in this browser); a phrase sent closes its menu.
(function () {
  "use strict";
  var SHOWN_FOR = 4000;
  var box = document.querySelector("[data-show-phrases]");
  var list = document.getElementById("phrases");
  if (!list) {
    return;
  }
  function apply() {
    var shown = window.localStorage.getItem("phrases") !== "off";
    if (box) {
      box.checked = shown;
    }
    list.hidden = !shown;
  }
  if (box) {
    box.addEventListener("change", function () {
      window.localStorage.setItem("phrases", box.checked ? "on" : "off");
      apply();
    });
  }
  apply();
  function place(phrase) {
    var seat = document.querySelector('#table [data-seat="' + phrase.getAttribute("data-from-seat") + '"]');
    if (seat) {
      var rect = seat.getBoundingClientRect();
      phrase.style.top = Math.max(4, rect.top - 8) + "px";
      phrase.style.left = Math.max(4, Math.min(rect.left + 12, window.innerWidth - 220)) + "px";
      phrase.classList.add("phrase--placed");
    }
    window.setTimeout(function () {
      phrase.remove();
    }, SHOWN_FOR);
  }
  document.addEventListener("htmx:wsAfterMessage", function () {
    list.querySelectorAll(".phrase:not([data-placed])").forEach(function (phrase) {
      phrase.setAttribute("data-placed", "");
      place(phrase);
    });
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest(".phrase-button");
    if (button) {
      var menu = button.closest("details");
      window.setTimeout(function () {
        menu.open = false;
      }, 0);
    }
  });
})();
// The invite link folds away once the last free seat is taken while the page is open (it
// was unfolded for a room still waiting): on a phone it would keep the cards off the screen.
(function () {
  "use strict";
  var fold = document.querySelector(".invite__fold");
  if (!fold) {
    return;
  }
  var waiting = fold.open;
  document.addEventListener("htmx:wsAfterMessage", function () {
    var full = !document.querySelector("#table .room-seat--free");
    if (waiting && full) {
      fold.open = false;
    }
    waiting = !full;
  });
})();
// Hint: the button says it is thinking until the hint arrives with the next table, and the
// cards of the hinted move are marked in the hand.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("#table [data-busy]");
    if (button && !button.disabled) {
      button.setAttribute("aria-busy", "true");
      window.setTimeout(function () {
        button.textContent = button.dataset.busy;
        button.disabled = true;
      });
    }
  });
  function markHinted() {
    var hint = document.getElementById("hint");
    var cards = hint ? hint.dataset.hintCards.split(" ") : [];
    document.querySelectorAll("#table .hand-card[data-card]").forEach(function (card) {
      card.classList.toggle("is-hinted", cards.indexOf(card.dataset.card) >= 0);
    });
  }
  document.addEventListener("htmx:wsAfterMessage", markHinted);
  document.addEventListener("DOMContentLoaded", markHinted);
})();
// A panel the player folded open (the score sheet) stays open when the table is swapped.
(function () {
  "use strict";
  var open = [];
  document.addEventListener("htmx:wsBeforeMessage", function () {
    open = Array.prototype.map.call(
      document.querySelectorAll("#table details[id].score-sheet[open]"),
      function (element) { return element.id; }
    );
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    open.forEach(function (id) {
      var element = document.getElementById(id);
      if (element) {
        element.open = true;
      }
    });
  });
})();
