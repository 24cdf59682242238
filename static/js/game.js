// The live connection of the game, lobby and table pages (htmx's ws extension): reconnecting,
// moves over the socket, moves kept while the server cannot be reached, stale pushes dropped, and
// the lobby's forms kept through redraws. The pages' other behaviour is in page.js.

// Live pages: htmx's ws extension tries a dropped socket again after a delay drawn at random up to
// 2^n s for its n-th try (64 s at most): after a server had been down 10 s, pages came back 10-20 s
// after it. A restart is short and a game is a conversation, so keep trying often: 250-500 ms,
// then 500-1000 ms, then 750-1500 ms for good, which puts a page back within about 2 s of the
// server. Each delay is drawn from the upper half of its window: a restarted server's pages
// arrive spread over it rather than all at once, and none comes back much sooner than the others.
const RECONNECT_CAP_MS = 1500;
if (window.htmx) {
  htmx.config.wsReconnectDelay = (retries) => {
    const longest = Math.min(RECONNECT_CAP_MS, 500 * 2 ** retries);
    return longest / 2 + Math.random() * (longest / 2);
  };
}

// Live pages: say "Reconnecting…" (#connection, in base.html) while a socket that was open is
// closed and being tried again; take it away when it opens. Not on a page's first connection (it
// would flash on every page load), nor after closes the extension does not retry (the page is
// leaving, or the socket was replaced by a new one).
const RETRIED_CLOSES = [1006, 1011, 1012, 1013]; // as the ws extension decides to try again
const lastOpened = new WeakMap(); // socket element -> the WebSocket that opened last on it
const seenOpen = new WeakSet(); // every WebSocket of the page that opened
const reconnecting = new Set(); // socket elements whose socket dropped and is being tried again
function webSocketOf(event) {
  return event.detail.event && event.detail.event.target;
}
// A socket replaced by a newer one (see the answer wait below) may report its close after the new
// one has opened: that close says nothing about the page's connection now.
function replacedClose(event) {
  const socket = webSocketOf(event);
  return seenOpen.has(socket) && lastOpened.get(event.target) !== socket;
}
function isGameSocket(event) {
  return Boolean(event.target.closest && event.target.closest("[ws-connect^='/ws/game/']"));
}
document.addEventListener("htmx:wsOpen", (event) => {
  const socket = webSocketOf(event);
  seenOpen.add(socket);
  lastOpened.set(event.target, socket);
  reconnecting.delete(event.target);
  showConnection();
});
document.addEventListener("htmx:wsClose", (event) => {
  if (replacedClose(event)) return;
  const code = event.detail.event && event.detail.event.code;
  if (lastOpened.has(event.target) && event.target.isConnected && RETRIED_CLOSES.includes(code)) {
    reconnecting.add(event.target);
  }
  showConnection();
});
// One line at a time: a move waiting to be sent says more than "Reconnecting…".
function showConnection() {
  const notice = document.getElementById("connection");
  if (!notice) return;
  for (const form of stalled) if (!form.isConnected) stalled.delete(form); // answered: redrawn
  const waiting = unsent.length > 0 || stalled.size > 0;
  notice.querySelector("[data-unsent]").hidden = !waiting || notTaken;
  notice.querySelector("[data-not-taken]").hidden = !waiting || !notTaken;
  notice.querySelector("[data-reconnecting]").hidden = waiting || reconnecting.size === 0;
}

// Live games: the server pushes redrawn fragments after every move, to every open page, the
// mover's too. The mover's own answer may come first; then the push of the same move is old
// news, and applying it late would wipe a box the player has just selected. Drop pushes that are
// not newer than what the page shows (presence pushes carry no version and always apply).
document.addEventListener("htmx:wsBeforeMessage", (event) => {
  if (event.detail.message.startsWith(ANSWER)) {
    // The answer to this page's oldest move still waiting (see below; answers come in the order
    // the moves were sent): shown. The others still wait for theirs.
    const oldest = awaiting.values().next().value;
    if (oldest) awaiting.delete(oldest);
    if (event.detail.message.includes("data-too-fast")) {
      event.preventDefault();
      refusedTooFast(event.detail.message, oldest && oldest.form);
    }
    return;
  }
  const incoming = /data-version="(\d+)"/.exec(event.detail.message);
  const shown = document.querySelector("#messages [data-version]");
  if (incoming && shown && Number(incoming[1]) <= Number(shown.dataset.version)) {
    event.preventDefault();
  }
});

// A move sent faster than a page may send them (games/live/moves.py: a burst of 20, then 10 a
// second; taps held up by a bad connection can arrive in a bunch) is answered "too fast" and not
// applied. Its reason goes where a refused move's reason goes, in place of the message lines, and
// its form may be tapped again (the page still shows the game as it was before that move).
function refusedTooFast(message, form) {
  if (form) delete form.dataset.sent;
  const messages = document.getElementById("messages");
  if (!messages) return;
  for (const line of messages.querySelectorAll(":scope > p")) line.remove();
  messages.prepend(...framed(message));
}

// Live games: while the page's socket is open, its moves (roll, hold, score) go over it instead
// of a new HTTP request, as the same form fields in JSON: the server applies them the same way
// and answers on the socket, marked as the answer, with the same fragments. Without the socket
// (still connecting, reconnecting, or no JavaScript) the forms post as always.
const ANSWER = "<!-- answer -->";
const ANSWER_WAIT_MS = 3000;
let gameSocket = null;
const awaiting = new Set(); // moves sent over the socket and not answered yet: {form, socket}

// A move the server could not be reached for (its post failed, or its socket closed before the
// answer) is kept, said at once ("Can't reach the server…"), and sent again, once, when the
// server is back: when the socket reopens (live games), else at the next try (every RETRY_MS).
// The same form goes again with the step the page showed, so a move that had arrived after all is refused
// as stale by the server instead of applied twice; and while a form waits it is not sent anew
// (tapped again, it would be two copies on their way, one refused with its reason shown).
const POST_WAIT_MS = 8000; // a move's post with no answer by then is taken as not arrived
const RETRY_MS = 2000;
const CATCH_UP_WAIT_MS = 1000;
let unsent = []; // move forms to send again, in the order they were tapped
let notTaken = false; // another move was tapped while one waits: the page says it was not taken
let resendOnCatchUp = false;
let retryTimer = null;
const stalled = new Set(); // moves posted after their socket gave no answer, until the post ends
function moveOf(form) {
  if (!form || form.tagName !== "FORM") return null;
  const move = form.dataset.move;
  return ["roll", "hold", "score"].includes(move) ? move : null;
}
// A die's tap goes once until it is answered: the answer to an earlier move redraws the dice as
// the server had them then, this die's tap not applied yet, and the same tap again would be
// refused ("That die is not held.") once the first is.
function holdOnItsWay(form) {
  if (moveOf(form) !== "hold") return false;
  const die = form.elements.die.value;
  return [...awaiting].some(
    (entry) => moveOf(entry.form) === "hold" && entry.form.elements.die.value === die,
  );
}
function keepUnsent(form) {
  delete form.dataset.sent;
  if (unsent.length && !unsent.includes(form)) return; // one move waits at a time (see below)
  if (!unsent.includes(form)) unsent.push(form);
  form.classList.add("waiting"); // the tapped control looks pending until it goes (site.css)
  showConnection();
  if (!retryTimer) retryTimer = setTimeout(retryUnsent, RETRY_MS);
}
// Every RETRY_MS: a page without a game socket posts its waiting moves again; a live game's page
// sends them once its socket is open, which it may already be (a half-open socket was replaced
// while the move's post waited) or not yet (then the socket's opening sends them, see below).
function retryUnsent() {
  retryTimer = null;
  if (!unsent.length) return;
  const live = document.querySelector("[ws-connect^='/ws/game/']");
  if (live && (!gameSocket || resendOnCatchUp)) {
    retryTimer = setTimeout(retryUnsent, RETRY_MS);
    return;
  }
  sendUnsent();
}
// Forms a redraw has replaced are not sent: the page shows the game as it is now, a newer one
// (the move had arrived, or the game moved on from another page).
function sendUnsent() {
  const forms = unsent.filter((form) => form.isConnected);
  for (const form of forms) form.classList.remove("waiting");
  unsent = [];
  notTaken = false;
  showConnection();
  for (const form of forms) form.requestSubmit();
}

document.addEventListener("htmx:wsOpen", (event) => {
  if (!event.detail.socketWrapper || !isGameSocket(event)) return;
  gameSocket = event.detail.socketWrapper;
  if (unsent.length) {
    // The server sends the game as it is on connecting: send the waiting moves after it, so that
    // one that had arrived after all is seen in it rather than sent again and refused.
    resendOnCatchUp = true;
    setTimeout(() => {
      if (resendOnCatchUp) {
        resendOnCatchUp = false;
        sendUnsent();
      }
    }, CATCH_UP_WAIT_MS);
  }
});
document.addEventListener("htmx:wsBeforeMessage", (event) => {
  if (!resendOnCatchUp || !isGameSocket(event)) return;
  resendOnCatchUp = false;
  setTimeout(sendUnsent); // once the extension has swapped the catch-up in (if it was newer)
});
document.addEventListener("htmx:wsClose", (event) => {
  if (!isGameSocket(event) || replacedClose(event)) return;
  gameSocket = null;
  // Moves sent or queued on it without an answer may or may not have reached the server: keep
  // them, to send again when it is back. The extension would send the queued ones itself after
  // reconnecting, and they would go twice: drop its queue.
  if (event.detail.socketWrapper) event.detail.socketWrapper.queue.length = 0;
  // Only the oldest is kept (see keepUnsent); any later one that did arrive shows in the catch-up.
  const oldest = awaiting.values().next().value;
  awaiting.clear();
  for (const form of document.querySelectorAll("form[data-sent]")) delete form.dataset.sent;
  if (oldest) keepUnsent(oldest.form);
});
// The moves' forms carry no hx-post (play.html): htmx.process of a pushed redraw set up each hold
// and roll form and its button, 44-55% of a score push's handling on the receiving page
// (benchmarks/profile_push.py). One listener for all of them instead, here: a move's form,
// however submitted (a tap, a key of page.js, requestSubmit below), is posted with htmx as its
// hx-post did, so htmx's request events below see it as before (htmx:beforeRequest sends it over
// the socket when it is open). Without htmx the form posts as a plain form.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (event.defaultPrevented || !moveOf(form) || !window.htmx) return;
  event.preventDefault();
  // A post that fails is handled by its events (postFailed below), not by the promise.
  htmx.ajax("POST", form.getAttribute("action"), { source: form }).catch(() => {});
});
document.addEventListener("htmx:beforeRequest", (event) => {
  const form = event.detail.elt;
  const move = moveOf(form);
  if (!move) return;
  if (unsent.length) {
    // One move waits already; it is sent when the server is back (see above). A move made after
    // it is not kept too: it was chosen on a page that did not show the first one's outcome (a
    // roll after a hold would go with the holds as they were, and be refused as stale): the
    // notice says so, plainly, instead of losing the tap without a word (the same move tapped
    // again is the one kept). Once the first has gone, the page shows the game and takes taps.
    event.preventDefault();
    if (!unsent.includes(form)) notTaken = true;
    showConnection();
    return;
  }
  if (!gameSocket) return;
  event.preventDefault();
  if (stalled.delete(form)) showConnection(); // a socket is back: it goes over that instead
  // A form is sent once, as htmx does for a form's posts: a double click rolls once (the answer
  // replaces the form). Other forms go at once: two dice tapped quickly are both held.
  if (form.dataset.sent || holdOnItsWay(form)) return;
  form.dataset.sent = "1";
  const fields = { ...Object.fromEntries(new FormData(form)), move };
  const entry = { form, socket: gameSocket };
  awaiting.add(entry);
  gameSocket.send(JSON.stringify(fields), form);
  // A socket that died without closing swallows what is sent: without any answer in a few
  // seconds, reconnect it and post the move (a move that did arrive is refused as stale). The
  // server has not been reached meanwhile, which the page says until the post ends.
  setTimeout(() => {
    if (!awaiting.delete(entry)) return; // answered, or kept when the socket closed
    if (gameSocket === entry.socket) {
      gameSocket = null; // until it opens again
      entry.socket.reconnect();
    }
    delete form.dataset.sent;
    if (!form.isConnected) return;
    stalled.add(form);
    showConnection();
    form.requestSubmit();
  }, ANSWER_WAIT_MS);
});
// A post that cannot reach the server: no answer at all, no answer in time, or the proxy's "bad
// gateway" / "gateway timeout" while the server is down behind it. Not a 503: the server itself
// answers that when a move must wait (the computer's table is not ready), with its reason.
function postFailed(event) {
  const form = event.detail.elt;
  if (!moveOf(form)) return;
  const status = event.detail.xhr && event.detail.xhr.status;
  if (event.type === "htmx:responseError" && ![502, 504].includes(status)) return;
  keepUnsent(form);
}
for (const name of ["htmx:sendError", "htmx:timeout", "htmx:responseError"]) {
  document.addEventListener(name, postFailed);
}
// Before any of those: a failure keeps the form (above) in the same turn of the loop, no flicker.
document.addEventListener("htmx:afterRequest", (event) => {
  if (stalled.delete(event.detail.elt)) showConnection();
});
document.addEventListener("htmx:wsAfterMessage", showConnection); // a redraw may answer one too
document.addEventListener("htmx:configRequest", (event) => {
  if (moveOf(event.detail.elt)) event.detail.timeout = POST_WAIT_MS;
});

// A pushed or answered redraw replaces the buttons it contains; keep the keyboard focus on the
// same control (same id) as htmx does for the fragments it swaps after a post.
let focusedId = null;
document.addEventListener("htmx:wsBeforeMessage", () => {
  focusedId = document.activeElement && document.activeElement.id;
});
document.addEventListener("htmx:wsAfterMessage", () => {
  const active = document.activeElement;
  if (focusedId && (!active || active === document.body || !active.isConnected)) {
    const again = document.getElementById(focusedId);
    if (again) again.focus({ preventScroll: true });
  }
  focusedId = null;
});

// The lobby: a redraw replaces the forms in the lists, and htmx looks for an answer's swaps (the
// error line, the lists) next to the form that asked: once that form is off the page they are
// dropped ("htmx:oobErrorNoTarget"), a refusal's reason with them. So before a redraw (pushed, or
// the answer to another of the page's forms) the forms still waiting for their answers are kept,
// hidden, on the page until those answers are shown; everything still applies in the order it
// arrives. Only the forms inside a part the redraw replaces: the Challenge form holds the list of
// who is online (its buttons submit it), and parked, then dropped with its answer, it took the
// list off the page, and every later redraw of it failed.
const lobbyForms = new Set();
let parking = null;
function inLobby(element) {
  return Boolean(element && element.closest && element.closest(".lobby"));
}
// The containers a frame or answer of the lobby replaces the insides of (its parts' ids).
function redrawnBy(html) {
  const frame = document.createElement("template");
  frame.innerHTML = html;
  return [...frame.content.children].map((part) => part.id && document.getElementById(part.id))
    .filter(Boolean);
}
function parkWaitingForms(except, html) {
  const redrawn = redrawnBy(html);
  for (const form of lobbyForms) {
    if (form === except || !form.isConnected || (parking && parking.contains(form))) continue;
    if (!redrawn.some((part) => part.contains(form))) continue; // it stays on the page
    if (!parking) {
      parking = document.createElement("div");
      parking.hidden = true;
      document.body.append(parking);
    }
    parking.append(form);
  }
}
document.addEventListener("htmx:beforeSend", (event) => {
  if (inLobby(event.detail.elt)) lobbyForms.add(event.detail.elt);
});
function lobbyAnswered(event) {
  if (lobbyForms.delete(event.detail.elt) && parking && parking.contains(event.detail.elt)) {
    event.detail.elt.remove();
  }
}
document.addEventListener("htmx:afterRequest", lobbyAnswered);
document.addEventListener("htmx:sendError", lobbyAnswered);
document.addEventListener("htmx:wsBeforeMessage", (event) => {
  if (lobbyForms.size && inLobby(event.target)) parkWaitingForms(null, event.detail.message);
});
document.addEventListener("htmx:beforeSwap", (event) => {
  if (lobbyForms.size > 1 && lobbyForms.has(event.detail.elt)) {
    parkWaitingForms(event.detail.elt, event.detail.serverResponse);
  }
});

// Live games: a pushed redraw swapped in here rather than by the ws extension. Its parts are
// containers whose insides are replaced (hx-swap-oob="innerHTML", as htmx would) and rows of the
// card that come in a <template data-rows> (an HTML parser drops a <tr> outside a table), each
// replacing the row of the same id: a score's push to the other pages carries only the rows it
// changed (games/services.py, scored_parts). The extension's own swap cannot take those rows,
// and for each part it parses the frame into a new document, clones it, and fires two events per
// element it removes: a score's push of the whole game area took 8-12 ms on the receiving page,
// of which a roll's two small parts already took about 4 (docs/benchmarks.md, session 14). The
// new content that has htmx attributes is made htmx's (htmx.process, see needsHtmx) and the page
// hears htmx:wsAfterMessage as after the extension's swap. The answers to this page's own moves
// come the same way, and so does the chat's log. A frame with anything else is left to htmx, as
// are the other pages' sockets. The page says it swaps rows (rows=1 on its socket's address,
// play.html): a page still running an older game.js is pushed the whole game area instead. A
// frame with a part the page does not have is not applied (its message line would claim a
// version the page does not show): the page reconnects and is sent the whole game as it is.
function swappable(node) {
  if (node.tagName === "TEMPLATE") return node.hasAttribute("data-rows");
  return node.getAttribute("hx-swap-oob") === "innerHTML" && Boolean(node.id);
}
// The frame's parts, parsed into an inert template (no new document, as the extension makes).
function framed(message) {
  const frame = document.createElement("template");
  frame.innerHTML = message;
  return [...frame.content.children];
}
// Each swap: a row that replaces the one of its id, or a container whose insides are replaced.
function swapsOf(parts) {
  return parts.flatMap((part) =>
    part.tagName === "TEMPLATE"
      ? [...part.content.children].map((row) => ({ target: document.getElementById(row.id), row }))
      : [{ target: document.getElementById(part.id), inside: part }]);
}
function applySwaps(swaps) {
  const swapped = [];
  for (const { target, row, inside } of swaps) {
    if (row) {
      target.replaceWith(row);
      swapped.push(row);
    } else {
      target.replaceChildren(...inside.childNodes);
      swapped.push(target);
    }
  }
  return swapped;
}
// What htmx.process would set up: elements with a request (hx-get, ...), a trigger, an extension,
// or a socket of the ws extension. Not the moves' forms (see moveOf), and not the site's plain
// forms, which htmx only watches for the button that submits them, for its own requests. Not
// hx-on either: the site does not use it (htmx cannot run it without eval, which base.html's
// htmx-config and the site's Content Security Policy turn off). A score's push to the player
// whose turn it becomes has none of these (their dice and roll form, the card's rows): without
// the forms' htmx.process its frame -> DOM p50 went 3.7-5.1 -> 1.9-2.2 ms (docs/benchmarks.md).
const HTMX_WIRED = ["get", "post", "put", "patch", "delete"].map((verb) => `[hx-${verb}]`)
  .concat(["[hx-trigger]", "[hx-ext]", "[hx-boost]", "[ws-connect]", "[ws-send]"]).join(", ");
function needsHtmx(element) {
  return element.matches(HTMX_WIRED) || element.querySelector(HTMX_WIRED) !== null;
}
function swapRedraw(event) {
  if (event.defaultPrevented || !isGameSocket(event)) return;
  const parts = framed(event.detail.message);
  if (!parts.length || !parts.every(swappable)) return;
  event.preventDefault();
  const swaps = swapsOf(parts);
  if (swaps.some(({ target }) => !target)) {
    event.detail.socketWrapper.reconnect();
    return;
  }
  const swapped = applySwaps(swaps);
  for (const element of swapped) if (needsHtmx(element)) htmx.process(element);
  const autofocus = swapped.map((element) => element.querySelector("[autofocus]")).find(Boolean);
  if (autofocus) autofocus.focus();
  htmx.trigger(event.target, "htmx:wsAfterMessage", event.detail);
}
document.addEventListener("htmx:wsBeforeMessage", swapRedraw);

// The chat: a line's answer swaps the log and the error line, never the box (chat/views.py), so
// what is typed right after Enter stays. The box is emptied as a line is sent; a line sent while
// another is on its way waits its turn (hx-sync="this:queue all" on the form), and htmx reads a
// form's fields only when it sends: so each line's text is kept here from its Enter until then.
// A refused line, or one that never reached the server, comes back into the box to be mended or
// sent again, if nothing was typed there since.
const chatLines = new WeakMap();
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.matches(".chat-say[hx-post]")) return;
  if (!chatLines.has(form)) chatLines.set(form, []);
  chatLines.get(form).push(form.elements.text.value);
  form.elements.text.value = "";
}, true); // before htmx hears it
document.addEventListener("htmx:configRequest", (event) => {
  const lines = chatLines.get(event.detail.elt);
  if (!lines || !lines.length) return;
  event.detail.parameters.text = lines.shift();
  event.detail.errors = []; // the box's own "required": it is empty by now, the line is not
});
document.addEventListener("htmx:afterRequest", (event) => {
  const form = event.detail.elt;
  const status = event.detail.xhr.status; // 0: it never reached the server (no network)
  if (!chatLines.has(form) || (status > 0 && status < 400)) return;
  const box = form.elements.text;
  if (box && !box.value) box.value = event.detail.requestConfig.parameters.text || "";
});

// Screen readers (issue 29): one short summary per move, said once. The message line (#messages)
// tells, in the presenters' words, what the last move did, or the other players' moves since the
// player's own, one line each, a line more with each of their moves. A redraw brings it anew,
// often in a new game area, where a screen reader says nothing (a live region must be on the
// page before it changes), and with the lines it had said already. So the page's one live region
// is #announce (play.html), which no redraw replaces: each time the message line shows another
// version of the game, it is given the lines the page had not shown before (at least the last).
// Not on loading (the page is read as a whole), not a refusal (its alert says it).
let saidVersion = null;
let shownLines = [];
function announceNews() {
  const region = document.getElementById("announce");
  const marker = document.querySelector("#messages [data-version]");
  if (!region || !marker || marker.dataset.version === saidVersion) return;
  const loading = saidVersion === null;
  saidVersion = marker.dataset.version;
  const lines = [...document.querySelectorAll("#messages > p:not(.error)")]
    .map((line) => line.textContent.trim());
  if (!lines.length) return;
  let fresh = 0;
  while (fresh < lines.length - 1 && lines[fresh] === shownLines[fresh]) fresh += 1;
  shownLines = lines;
  if (loading) return;
  // New paragraphs rather than new text in the old one: a move that says what the one before
  // said ("Holding 3." after a release and a hold) is said again.
  region.replaceChildren(...lines.slice(fresh).map((line) => {
    const said = document.createElement("p");
    said.textContent = line;
    return said;
  }));
}
announceNews();
// After an answer: htmx:afterRequest, which htmx fires on the page when the form that asked was
// redrawn away (its swap events fire on that form, off the page, and reach no listener here).
document.addEventListener("htmx:afterRequest", announceNews);
document.addEventListener("htmx:afterSwap", announceNews);
document.addEventListener("htmx:wsAfterMessage", announceNews);
