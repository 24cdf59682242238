// Keyboard shortcuts for the game page: 1-5 hold or release a die, R (or Space when no control
// has focus) rolls. They press the same buttons a pointer would, so the server sees the same posts.
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
  const target = event.target;
  const typing = target.closest && target.closest("input, textarea, select, [contenteditable]");
  if (typing) return;
  let button = null;
  if (event.key >= "1" && event.key <= "5") {
    button = document.getElementById(`die-${Number(event.key) - 1}`);
  } else if (event.key === "r" || event.key === "R") {
    button = document.getElementById("roll-button");
  } else if (event.key === " ") {
    // Space on a focused button presses that button, as everywhere else.
    if (target.closest && target.closest("button, a, summary")) return;
    button = document.getElementById("roll-button");
  }
  if (button && !button.disabled) {
    event.preventDefault();
    button.click();
  }
});

// Online games: count down an away player's grace period; when it ends, show the buttons that
// let the others go on without them (the server checks the time again when they are pressed).
function tickDeadlines() {
  const now = Date.now();
  for (const element of document.querySelectorAll("[data-deadline]")) {
    const left = Math.max(0, Math.round((Date.parse(element.dataset.deadline) - now) / 1000));
    const minutes = Math.floor(left / 60);
    const seconds = String(left % 60).padStart(2, "0");
    element.textContent = `${minutes}:${seconds}`;
  }
  for (const element of document.querySelectorAll("[data-after-deadline][hidden]")) {
    if (Date.parse(element.dataset.afterDeadline) <= now) element.hidden = false;
  }
}
setInterval(tickDeadlines, 1000);

// A game started for this player (challenge accepted, table started, rematch): the server pushes
// a link into #navigate; follow it.
new MutationObserver(() => {
  const link = document.querySelector("#navigate [data-navigate]");
  if (link) window.location.assign(link.href);
}).observe(document.documentElement, { childList: true, subtree: true });

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

// Live games: the server pushes redrawn fragments after every move, to every open page, the
// mover's too. The mover's own answer may come first; then the push of the same move is old
// news, and applying it late would wipe a box the player has just selected. Drop pushes that are
// not newer than what the page shows (presence pushes carry no version and always apply).
document.addEventListener("htmx:wsBeforeMessage", (event) => {
  if (event.detail.message.startsWith(ANSWER)) {
    answered = performance.now(); // the answer to this page's own move (see below): shown
    return;
  }
  const incoming = /data-version="(\d+)"/.exec(event.detail.message);
  const shown = document.querySelector("#messages [data-version]");
  if (incoming && shown && Number(incoming[1]) <= Number(shown.dataset.version)) {
    event.preventDefault();
  }
});

// Live games: while the page's socket is open, its moves (roll, hold, score) go over it instead
// of a new HTTP request, as the same form fields in JSON: the server applies them the same way
// and answers on the socket, marked as the answer, with the same fragments. Without the socket
// (still connecting, reconnecting, or no JavaScript) the forms post as always.
const ANSWER = "<!-- answer -->";
const ANSWER_WAIT_MS = 3000;
let gameSocket = null;
let answered = 0; // when the latest answer to this page's moves arrived
document.addEventListener("htmx:wsOpen", (event) => {
  if (event.detail.socketWrapper && event.target.closest("[ws-connect^='/ws/game/']")) {
    gameSocket = event.detail.socketWrapper;
  }
});
document.addEventListener("htmx:wsClose", (event) => {
  gameSocket = null;
  // Moves queued while the socket was closing would be sent again after it reconnects: the
  // page posts them instead (see below), so drop them.
  if (event.detail.socketWrapper) event.detail.socketWrapper.queue.length = 0;
});
document.addEventListener("htmx:beforeRequest", (event) => {
  const form = event.detail.elt;
  const move = /\/(roll|hold|score)\/$/.exec(form.getAttribute("hx-post") || "");
  if (!gameSocket || !move || form.tagName !== "FORM") return;
  event.preventDefault();
  // A form is sent once, as htmx does for a form's posts: a double click rolls once (the answer
  // replaces the form). Other forms go at once: two dice tapped quickly are both held.
  if (form.dataset.sent) return;
  form.dataset.sent = "1";
  const fields = { ...Object.fromEntries(new FormData(form)), move: move[1] };
  gameSocket.send(JSON.stringify(fields), form);
  // A socket that died without closing swallows what is sent: without any answer in a few
  // seconds, reconnect it and post the move (a move that did arrive is refused as stale).
  const socket = gameSocket;
  const sentAt = performance.now();
  setTimeout(() => {
    if (answered > sentAt) return;
    if (gameSocket === socket) {
      gameSocket = null; // until it opens again
      socket.reconnect();
    }
    if (form.isConnected) {
      delete form.dataset.sent;
      form.requestSubmit();
    }
  }, ANSWER_WAIT_MS);
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
// arrives.
const lobbyForms = new Set();
let parking = null;
function inLobby(element) {
  return Boolean(element && element.closest && element.closest(".lobby"));
}
function parkWaitingForms(except) {
  for (const form of lobbyForms) {
    if (form === except || !form.isConnected || (parking && parking.contains(form))) continue;
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
  if (lobbyForms.size && inLobby(event.target)) parkWaitingForms(null);
});
document.addEventListener("htmx:beforeSwap", (event) => {
  if (lobbyForms.size > 1 && lobbyForms.has(event.detail.elt)) parkWaitingForms(event.detail.elt);
});
