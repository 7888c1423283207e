// Every move seen. A table pushed after several things happened carries them as steps
// (data-steps on #table: the public log's news since the table this page shows, with each
// move's line in words; the card faces they name are in its <template class="step-faces">).
// The page plays them on the table it shows, one after another, and swaps the new table in
// only at the end: a card travels from its seat to the table and stays face up there a while
// before the bout is cleared or taken, cards drawn come from the stock. Tables that arrive
// meanwhile wait their turn, played a little faster when many wait (computers replying faster
// than the page plays); a page far behind (a tab coming back, a reconnect, a burst of dozens
// of moves) shows the newest table at once. Under "reduce motion" or with the Animations box unticked nothing
// flies, but each step is still shown long enough to be read. A move sent during the playback
// is not lost: the playback ends at once and the move is sent again from the new table.
(function () {
  "use strict";
  var FLY = 320; // ms: a card's flight
  var HOLD = 600; // ms: a card played stays in sight at least this long before the next step
  var SAY = 650; // ms: a move that moves no card, or any step when nothing flies
  var DRAW = 300; // ms: cards drawn from a pile
  var HOLD_LEAST = 500; // ms: the shortest hold, when the page hurries
  var HURRY = 6; // steps waiting beyond which the page plays them faster (three computers in a row)
  var HURRIED = 0.7; // the pace then: flights and words 30% shorter, holds never under HOLD_LEAST
  var BEHIND = 48; // steps waiting beyond which the page catches up at once
  // Where played cards lie on a table.
  var PLAYED = ".bout [data-card], .melds [data-card], [data-pile=discard] [data-card]";
  var reduced = window.matchMedia("(prefers-reduced-motion: reduce)");

  var queue = []; // tables waiting to be shown: {message, steps, faces}
  var playing = false;
  var socketElt = null;
  var landed = 0; // when the last card played landed (performance.now())
  var sentMove = false; // this page sent a move whose table has not come yet
  var timers = [];

  function flying() {
    var stored = null;
    try {
      stored = window.localStorage.getItem("animations");
    } catch (error) {
      // Storage may be off: animations stay on, as by default.
    }
    return !reduced.matches && stored !== "0";
  }

  // Tests may set window.tablePlaybackPace (0: as fast as possible); people never do.
  function pace() {
    return typeof window.tablePlaybackPace === "number" ? window.tablePlaybackPace : 1;
  }

  // A step's duration: shorter while many steps wait (computers replying faster than the page
  // plays), so that the page keeps up with a long run of moves instead of skipping it.
  function ms(duration) {
    return duration * pace() * (waiting() > HURRY ? HURRIED : 1);
  }

  // How long a card played stays in sight before the next step.
  function hold() {
    return Math.max(ms(HOLD), HOLD_LEAST * pace());
  }

  function later(callback, delay) {
    timers.push(window.setTimeout(callback, delay));
  }

  function parse(message) {
    var holder = document.createElement("template");
    holder.innerHTML = message;
    var table = holder.content.getElementById("table");
    var steps = [];
    try {
      steps = JSON.parse((table && table.getAttribute("data-steps")) || "[]");
    } catch (error) {
      steps = [];
    }
    var faces = table && table.querySelector("template.step-faces");
    return { message: message, steps: steps, faces: faces ? faces.content : null, table: table };
  }

  // -- the swap ------------------------------------------------------------------------------

  function checkedCards() {
    return Array.prototype.map.call(
      document.querySelectorAll("#table input[name=card]:checked"),
      function (box) { return box.value; }
    );
  }

  // Swap a table in as the websocket extension would have, with its events around it, and
  // keep the cards the player had selected meanwhile if the new table still offers them.
  function swap(frame) {
    var chosen = checkedCards();
    htmx.trigger(socketElt, "htmx:wsBeforeMessage", { message: frame.message, replayed: true });
    htmx.swap(socketElt, frame.message, { swapStyle: "none", swapDelay: 0, settleDelay: 0 });
    chosen.forEach(function (code) {
      var box = document.querySelector("#table input[name=card][value='" + code + "']:not(:disabled)");
      if (box && !box.checked) {
        box.checked = true;
        box.dispatchEvent(new Event("change", { bubbles: true }));
      }
    });
    htmx.trigger(socketElt, "htmx:wsAfterMessage", { message: frame.message, replayed: true });
  }

  function waiting() {
    return queue.reduce(function (sum, frame) { return sum + frame.steps.length; }, 0);
  }

  function catchUp() {
    timers.forEach(window.clearTimeout);
    timers = [];
    var frames = queue;
    queue = [];
    playing = false;
    playingTo(null);
    frames.forEach(swap);
  }

  // The version being played towards, on the page's root while a playback runs: what the
  // page shows then is that version's news (the tests read it as the page's version).
  function playingTo(frame) {
    var root = document.documentElement;
    var version = frame && frame.table && frame.table.getAttribute("data-version");
    if (version) {
      root.setAttribute("data-playing-to", version);
    } else {
      root.removeAttribute("data-playing-to");
    }
  }

  function next() {
    if (!queue.length) {
      playing = false;
      playingTo(null);
      return;
    }
    playing = true;
    playingTo(queue[0]);
    if (document.hidden || waiting() > BEHIND || !document.querySelector("#table .board")) {
      catchUp();
      return;
    }
    var frame = queue[0];
    play(frame, 0, function () {
      later(function () {
        queue.shift();
        swap(frame);
        next();
      }, keeps(frame) && !yourTurn(frame) ? 0 : Math.max(0, landed + hold() - window.performance.now()));
    });
  }

  // Whether the new table asks this page's player to act: the last card played then stays
  // in sight its whole hold first (a card the player may pick up at once, in Rummy).
  function yourTurn(frame) {
    return Boolean(frame.table && frame.table.querySelector(".me--active"));
  }

  // Whether the new table still shows every card the playback put down: if not (the game
  // ended, say), the last ones stay in sight a while before it is swapped in.
  function keeps(frame) {
    var shown = frame.table ? frame.table.querySelectorAll(PLAYED) : [];
    var codes = Array.prototype.map.call(shown, function (element) {
      return element.getAttribute("data-card");
    });
    return Array.prototype.every.call(document.querySelectorAll("#table .is-played"), function (element) {
      return codes.indexOf(element.getAttribute("data-card")) >= 0;
    });
  }

  // -- the steps -----------------------------------------------------------------------------

  function mySeat() {
    var me = document.querySelector("#table .me[data-seat]");
    return me ? Number(me.getAttribute("data-seat")) : null;
  }

  function play(frame, index, done) {
    if (index >= frame.steps.length) {
      done();
      return;
    }
    var step = frame.steps[index];
    // The mover's own cards are already on their way (the table's own motion moves them),
    // unless the same update sweeps them away: a cover that ends the bout is still shown.
    if (frame.own && step.seat === mySeat() && !sweptLater(frame, index)) {
      play(frame, index + 1, done);
      return;
    }
    frame.own = false;
    var wait = Math.max(0, landed + hold() - window.performance.now());
    later(function () {
      var took = perform(step, frame.faces);
      later(function () { play(frame, index + 1, done); }, took);
    }, wait);
  }

  function sweptLater(frame, index) {
    return frame.steps.slice(index + 1).some(function (step) { return step.op === "sweep"; });
  }

  // Do one step on the table shown; how long it takes (ms).
  function perform(step, faces) {
    caption(step);
    var moves = flying();
    var took;
    if (step.op === "play") {
      took = place(step, faces, moves);
    } else if (step.op === "meld") {
      took = meld(step, faces, moves);
    } else if (step.op === "discard") {
      took = discard(step, faces, moves);
    } else if (step.op === "sweep") {
      took = sweep(step, moves);
    } else if (step.op === "draw") {
      took = draw(step, faces, moves);
    } else {
      took = ms(SAY);
    }
    if (step.op === "play" || step.op === "meld" || step.op === "discard") {
      landed = window.performance.now() + took;
    }
    return took;
  }

  // The move being played, in words: in the table's line of the newest move, else in a line
  // of its own over the table's middle.
  function caption(step) {
    var text = step.text;
    var newest = document.querySelector("#table #last-move");
    if (newest && text && newest.getClientRects().length) {
      var prefix = newest.querySelector(".visually-hidden");
      newest.innerHTML = (prefix ? prefix.outerHTML + " " : "") + step.html;
      return;
    }
    var centre = document.querySelector("#table .centre");
    if (!centre || !text) {
      return;
    }
    var line = centre.querySelector(".playback-caption");
    if (!line) {
      line = document.createElement("p");
      line.className = "playback-caption";
      line.setAttribute("aria-hidden", "true"); // the live region tells the moves already
      centre.appendChild(line);
    }
    line.textContent = text;
  }

  function face(faces, code) {
    var found = faces && faces.querySelector('[data-face="' + code + '"] .card');
    return found ? found.cloneNode(true) : null;
  }

  // Where cards of ``seat`` come from: the hand card itself for the viewer's own, else the seat.
  function origin(seat, code) {
    var own = code && document.querySelector('#table .me[data-seat="' + seat + '"] [data-card="' + code + '"]');
    if (own) {
      own.style.visibility = "hidden";
      return own.getBoundingClientRect();
    }
    var place = document.querySelector('#table [data-seat="' + seat + '"]');
    return place ? place.getBoundingClientRect() : null;
  }

  function arrive(element, from, moves) {
    if (!moves || !from) {
      return;
    }
    var to = element.getBoundingClientRect();
    var dx = from.left + from.width / 2 - (to.left + to.width / 2);
    var dy = from.top + from.height / 2 - (to.top + to.height / 2);
    element.animate(
      [{ transform: "translate(" + dx + "px, " + dy + "px) scale(0.8)" }, { transform: "none" }],
      { duration: ms(FLY), easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" }
    );
  }

  function card(faces, code, className) {
    var picture = face(faces, code);
    if (!picture) {
      return null;
    }
    var holder = document.createElement("span");
    holder.className = className + " is-last is-played";
    holder.setAttribute("data-card", code);
    holder.appendChild(picture);
    return holder;
  }

  function settled(moves) {
    return moves ? ms(FLY) : ms(SAY);
  }

  // Durak: cards to the table, each its own pair, or a card onto the one it covers.
  function place(step, faces, moves) {
    var bout = document.querySelector("#table .bout");
    if (!bout) {
      return 0;
    }
    var empty = bout.querySelector(".bout__empty");
    if (empty) {
      empty.remove();
    }
    step.cards.forEach(function (code) {
      var from = origin(step.seat, code);
      var element;
      if (step.onto) {
        var pair = bout.querySelector('[data-card="' + step.onto + '"]');
        element = card(faces, code, "pair__defence");
        if (!pair || !element) {
          return;
        }
        pair.closest(".pair").appendChild(element);
      } else {
        element = card(faces, code, "pair__attack");
        if (!element) {
          return;
        }
        var item = document.createElement("li");
        item.className = "pair";
        item.appendChild(element);
        bout.appendChild(item);
      }
      arrive(element, from, moves);
    });
    if (step.transfer) {
      passDefence(step.seat);
    }
    return settled(moves);
  }

  // Durak: a transfer passes the defence on from ``seat`` to the next seat still playing, and
  // the arrow on the felt turns to it (with a flash), as the next table will show.
  function passDefence(seat) {
    var who = document.querySelector("#table .bout-who");
    var places = document.querySelectorAll("#table .seat[data-seat], #table .me[data-seat]");
    var playing = Array.prototype.filter.call(places, function (place) {
      return !place.classList.contains("seat--out") && !place.querySelector(".me__out");
    }).map(function (place) { return Number(place.getAttribute("data-seat")); });
    if (!who || playing.length < 2) {
      return;
    }
    playing.sort(function (a, b) { return a - b; });
    var next = playing.filter(function (number) { return number > seat; })[0];
    var defender = next === undefined ? playing[0] : next;
    var marks = who.querySelectorAll(".avatar");
    [[marks[0], seat], [marks[marks.length - 1], defender]].forEach(function (pair) {
      var mark = document.querySelector('#table [data-seat="' + pair[1] + '"] .avatar');
      if (pair[0] && mark) {
        pair[0].className = "avatar avatar--" + pair[1];
        pair[0].textContent = mark.textContent;
      }
    });
    who.classList.remove("bout-who--turned");
    void who.offsetWidth; // restart the flash
    who.classList.add("bout-who--turned");
  }

  // Rummy: a new meld, or cards laid off on one (data-meld).
  function meld(step, faces, moves) {
    var melds = document.querySelector("#table .melds");
    if (!melds) {
      return 0;
    }
    var row;
    if (step.meld !== undefined) {
      row = melds.querySelector('[data-meld="' + step.meld + '"] .meld__cards');
    }
    if (!row) {
      var empty = melds.querySelector(".melds__empty");
      if (empty) {
        empty.remove();
      }
      var item = document.createElement("li");
      var box = document.createElement("span");
      box.className = "meld";
      row = document.createElement("span");
      row.className = "meld__cards";
      box.appendChild(row);
      item.appendChild(box);
      melds.appendChild(item);
    }
    step.cards.forEach(function (code) {
      var from = origin(step.seat, code);
      var element = card(faces, code, "meld__card");
      if (element) {
        row.appendChild(element);
        arrive(element, from, moves);
      }
    });
    return settled(moves);
  }

  // Rummy: a card to the top of the discard pile.
  function discard(step, faces, moves) {
    var pile = document.querySelector("#table [data-pile=discard]");
    var code = step.cards[0];
    var element = card(faces, code, "discard__top");
    if (!pile || !element) {
      return 0;
    }
    var from = origin(step.seat, code);
    var top = pile.querySelector(".discard__top, .card--empty");
    if (top) {
      top.replaceWith(element);
    } else {
      pile.insertBefore(element, pile.firstChild);
    }
    arrive(element, from, moves);
    return settled(moves);
  }

  // Durak: the table's cards go to the discard pile or to the seat that picks them up.
  function sweep(step, moves) {
    var target = step.to === "discard"
      ? document.querySelector("#table [data-pile=discard]")
      : document.querySelector('#table [data-seat="' + step.to + '"]');
    var cards = document.querySelectorAll("#table .bout [data-card]");
    var to = target ? target.getBoundingClientRect() : null;
    cards.forEach(function (element) {
      if (!moves || !to) {
        return;
      }
      var from = element.getBoundingClientRect();
      var dx = to.left + to.width / 2 - (from.left + from.width / 2);
      var dy = to.top + to.height / 2 - (from.top + from.height / 2);
      element.animate(
        [{ transform: "none", opacity: 1 }, { transform: "translate(" + dx + "px, " + dy + "px) scale(0.6)", opacity: 0.2 }],
        { duration: ms(FLY + 80), easing: "ease-in", fill: "forwards" }
      );
    });
    var took = moves ? ms(FLY + 80) : ms(SAY);
    later(function () {
      document.querySelectorAll("#table .bout .pair").forEach(function (pair) { pair.remove(); });
    }, moves ? took : 0);
    return took;
  }

  // Cards from a pile to a seat: backs from the stock, the discard pile's top face up.
  function draw(step, faces, moves) {
    var pile = document.querySelector("#table [data-pile=" + step.from + "]");
    var seat = document.querySelector('#table [data-seat="' + step.seat + '"]');
    if (step.from === "discard" && pile) {
      var top = pile.querySelector(".discard__top");
      if (top) {
        top.style.visibility = "hidden";
      }
    }
    if (!moves || !pile || !seat) {
      return step.text ? ms(SAY) : 0;
    }
    var picture = pile.querySelector(".card") || pile;
    var from = picture.getBoundingClientRect();
    var to = seat.getBoundingClientRect();
    var count = Math.min(step.count || 1, 6);
    for (var i = 0; i < count; i++) {
      var copy = (step.cards && face(faces, step.cards[0])) || document.createElement("span");
      if (!copy.className) {
        copy.className = "card card--back";
      }
      copy.classList.add("playback-flyer");
      copy.setAttribute("aria-hidden", "true");
      copy.style.left = from.left + "px";
      copy.style.top = from.top + "px";
      copy.style.width = from.width + "px";
      copy.style.height = from.height + "px";
      document.body.appendChild(copy);
      var dx = to.left + to.width / 2 - (from.left + from.width / 2);
      var dy = to.top + to.height / 2 - (from.top + from.height / 2);
      var flight = copy.animate(
        [{ transform: "none", opacity: 1 }, { transform: "translate(" + dx + "px, " + dy + "px) scale(0.7)", opacity: 0.4 }],
        { duration: ms(DRAW), delay: ms(i * 40), easing: "ease-out", fill: "both" }
      );
      flight.onfinish = copy.remove.bind(copy);
    }
    return ms(DRAW + (count - 1) * 40);
  }

  // -- the websocket -------------------------------------------------------------------------

  // Before htmx's own listeners (capture, on the document): a table with steps to play, or
  // any table while others wait, is kept back. The server's last word before it closes the
  // socket (why, with a Reconnect button: data-reconnect) lets the waiting tables in at once,
  // before it: nothing comes after it, and a table swapped in later would clear it.
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var detail = event.detail || {};
    var message = detail.message;
    if (detail.replayed || typeof message !== "string") {
      return;
    }
    if (message.indexOf('id="table"') < 0) {
      if (message.indexOf("data-reconnect") >= 0 && (playing || queue.length)) {
        catchUp();
      }
      return;
    }
    var own = sentMove;
    sentMove = false;
    if (!playing && message.indexOf("data-steps=") < 0) {
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    socketElt = event.target;
    var frame = parse(message);
    frame.own = own;
    queue.push(frame);
    if (!playing) {
      next();
    } else if (waiting() > BEHIND) {
      catchUp();
    }
  }, true);

  document.addEventListener("htmx:wsAfterSend", function (event) {
    if (event.target.closest && event.target.closest("#table")) {
      sentMove = true;
    }
  });

  // A move sent from the table during the playback: the playback ends at once, and the same
  // control is pressed again on the new table, with the same cards selected, if it is there.
  document.addEventListener("htmx:wsConfigSend", function (event) {
    var control = event.target;
    if (!playing || !control.closest || !control.closest("#table") || !control.id) {
      return;
    }
    event.preventDefault();
    var id = control.id;
    catchUp();
    window.setTimeout(function () {
      var again = document.getElementById(id);
      if (again && !again.disabled) {
        again.click();
      }
    });
  });

  // The page's first socket says which table the page was loaded with: the moves made before
  // it opened (a computer that moved while a phone loaded the page) are played on it too. A
  // socket that reopens later is shown the newest table at once, as a page far behind.
  var openSocket = htmx.createWebSocket;
  var opened = false;
  htmx.createWebSocket = function (url) {
    var table = document.getElementById("table");
    var told = table && table.getAttribute("data-told");
    var version = table && table.getAttribute("data-version");
    if (!opened && told && version) {
      url += (url.indexOf("?") < 0 ? "?" : "&") + "shows=" + encodeURIComponent(version) +
        "&told=" + encodeURIComponent(told);
    }
    opened = true;
    return openSocket(url);
  };

  // A tab that comes back shows where the game is now.
  document.addEventListener("visibilitychange", function () {
    if (document.hidden && playing) {
      catchUp();
    }
  });
})();
