// What the site's pages do in the browser besides their live connection (game.js): the game
// page's keys and focus, the countdowns, following a pushed link, sharing a table's link, never
// showing a live page from the back-forward cache, and the phone card's sticky names row.
// Nothing here is needed to play: without JavaScript every control is a plain link or form.

// Keyboard shortcuts for the game page: 1-5 (1-6 with six dice) hold or release a die, R (or Space when no control
// has focus) rolls. They press the same buttons a pointer would, so the server sees the same posts.
// Up and Down move the focus between the boxes the player can score (their pick links, and the
// chosen box's Score button): Enter on a box shows its Score button, focused (autofocus), and
// Enter again scores; R rolls the next turn wherever the focus is, and the focus lands on Roll
// when the next turn's Roll button comes (below). Tabbing there took 19-27 presses a turn (issue 16).
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  const typing = target.closest && target.closest("input, textarea, select, [contenteditable]");
  if (typing) return;
  if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    if (moveAmongBoxes(target, event.key === "ArrowDown" ? 1 : -1)) event.preventDefault();
    return;
  }
  if (event.repeat) return;
  let button = null;
  if (event.key >= "1" && event.key <= "6") {  // a die the game has not: no button, no press
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

// After a score made from the keyboard the focus lands on the next Roll button. The answer swaps
// the score's form out (so htmx's events on it never reach the document), and in other games the
// Roll button comes later (the computer's played-back turn, a socket push). So the wish is kept
// until a Roll button is there and enabled, then the focus goes to it, checked after every swap
// and push; htmx restores the focus of a swapped element a little after its swap, so the Roll
// keeps it for that one settle too. Any other key, click or tap cancels the wish.
let rollFocusWanted = false;
document.addEventListener("keydown", (event) => {
  const score = event.key === "Enter" && event.target.closest && event.target.closest("button.score");
  rollFocusWanted = Boolean(score);
}, true);
document.addEventListener("pointerdown", () => { rollFocusWanted = false; }, true);
function landFocusOnRoll() {
  if (!rollFocusWanted) return;
  const roll = document.getElementById("roll-button");
  if (!roll || roll.disabled || !roll.isConnected) return;
  roll.focus();
  if (document.activeElement === roll) {
    requestAnimationFrame(() => {
      if (document.activeElement === document.body && roll.isConnected) roll.focus();
      rollFocusWanted = false;
    });
  }
}
for (const name of ["htmx:afterSettle", "htmx:oobAfterSwap", "htmx:load", "htmx:wsAfterMessage"]) {
  document.addEventListener(name, landFocusOnRoll);
}

// The end of a game: "Game over", the result and the buttons are at the top of the page, and on a
// phone the player who scored the last box is down at the card, where nothing they could see
// changed (issue 29). When the end comes to a page that showed the game in play (the answer to the
// last score, the computer's last turn played back, a push), the focus goes to its heading, which
// brings it into view (and a screen reader reads it). A page opened on a finished game, and later
// redraws of it (a rematch asked), leave the focus alone. Without JavaScript the last score's
// answer opens the page at its top, where the end is.
let endShown = Boolean(document.getElementById("game-over"));
function showTheEnd() {
  const heading = document.getElementById("game-over");
  if (heading && !endShown) heading.focus();
  endShown = Boolean(heading);
}
for (const name of ["htmx:afterSettle", "htmx:load", "htmx:wsAfterMessage"]) {
  document.addEventListener(name, showTheEnd);
}

// The boxes in the card's order; from elsewhere on the page Down goes to the first, Up to the last.
// Returns whether there was a box to go to (else the arrow scrolls the page as usual).
function moveAmongBoxes(from, step) {
  const boxes = [...document.querySelectorAll("#card a.pick, #card button.score")];
  if (!boxes.length) return false;
  const at = boxes.indexOf(from.closest ? from.closest("a.pick, button.score") : null);
  const next = at < 0 ? (step > 0 ? 0 : boxes.length - 1) : (at + step + boxes.length) % boxes.length;
  boxes[next].focus();
  return true;
}

// Online games: count down the turn timer and an away player's grace period; when it ends, hide the countdown and
// show what replaces it: a line saying the time is up, the buttons that let the others go on
// without them (the server checks the time again when they are pressed). The lobby counts down
// its challenges the same way, and counts up the wait for a ranked opponent. Seconds are
// rounded up, as a countdown reads: "0:01" until the end, which hides it in the same tick ("0:00"
// had stayed on screen).
function tickDeadlines() {
  const now = Date.now();
  for (const element of document.querySelectorAll("[data-deadline]")) {
    const left = Math.max(0, Math.ceil((Date.parse(element.dataset.deadline) - now) / 1000));
    // m:ss, or h:mm:ss from an hour on (a turn at your own pace has a day), as the server writes it.
    const hours = Math.floor(left / 3600);
    const minutes = Math.floor((left % 3600) / 60);
    const seconds = String(left % 60).padStart(2, "0");
    element.textContent = hours
      ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}`
      : `${minutes}:${seconds}`;
  }
  for (const element of document.querySelectorAll("[data-after-deadline][hidden]")) {
    if (Date.parse(element.dataset.afterDeadline) <= now) element.hidden = false;
  }
  // What is over when its time comes (a countdown, a lobby challenge's answers, "declined" lines).
  for (const element of document.querySelectorAll("[data-until]:not([hidden])")) {
    if (Date.parse(element.dataset.until) <= now) element.hidden = true;
  }
  // Count-ups: the lobby's wait for a ranked opponent, in seconds rounded down ("0:12").
  for (const element of document.querySelectorAll("[data-since]")) {
    const waited = Math.max(0, Math.floor((now - Date.parse(element.dataset.since)) / 1000));
    element.textContent = `${Math.floor(waited / 60)}:${String(waited % 60).padStart(2, "0")}`;
  }
}
setInterval(tickDeadlines, 1000);

// A game started for this player (challenge accepted, table started, rematch): the server pushes
// a link into #navigate; follow it, once. Every later change to the page (a countdown's tick each
// second, the lobby's pushed parts) would otherwise start the navigation again, cancelling the one
// under way: on a busy server the game page never arrived and the lobby stayed.
const followNavigate = new MutationObserver(() => {
  const link = document.querySelector("#navigate [data-navigate]");
  if (!link) return;
  followNavigate.disconnect();
  window.location.assign(link.href);
});
followNavigate.observe(document.documentElement, { childList: true, subtree: true });

// A private table's link: the share sheet where the browser has one (phones), else a copy to the
// clipboard. Without JavaScript the link stays in its box to copy by hand.
const shareButton = document.getElementById("share-link");
if (shareButton) {
  const canShare = Boolean(navigator.share);
  if (canShare || navigator.clipboard) {
    if (canShare) shareButton.textContent = shareButton.dataset.shareWord;
    shareButton.hidden = false;
  }
  shareButton.addEventListener("click", async () => {
    const status = document.getElementById("share-status");
    if (canShare) {
      try {
        await navigator.share({ url: shareButton.dataset.share });
      } catch (error) {
        // The player closed the share sheet: nothing to say.
      }
      return;
    }
    try {
      await navigator.clipboard.writeText(shareButton.dataset.share);
      status.textContent = shareButton.dataset.copied;
    } catch (error) {
      document.getElementById("table-link").select();
    }
  });
}

// A page that shows live state (a game, the lobby, a table) brought back by the back button from
// the browser's back-forward cache would show an old position with live controls: load it anew.
window.addEventListener("pageshow", (event) => {
  if (event.persisted && document.querySelector("#game, .lobby, .table-page")) {
    window.location.reload();
  }
});

// Phones: the dice panel is sticky at the top of the window and the card's names row sticks just
// under it (site.css): keep --dice-height to the panel's height, which changes with the turn, the
// hint and the language. A redraw of the whole game replaces the panel: watch the new one.
const gameArea = document.getElementById("game");
if (gameArea && window.ResizeObserver) {
  let watched = null;
  const sizes = new ResizeObserver(() => {
    const panel = document.getElementById("dice");
    if (panel !== watched) {
      if (watched) sizes.unobserve(watched);
      if (panel) sizes.observe(panel);
      watched = panel;
    }
    const height = panel ? panel.offsetHeight : 0;
    document.documentElement.style.setProperty("--dice-height", `${height}px`);
  });
  sizes.observe(gameArea);
}

// Install on a phone (core/install.py): the service worker keeps the static files and shows the
// offline page when the network is gone. Nothing of the game runs in it.
if ("serviceWorker" in navigator) {
  const worker = document.querySelector('meta[name="service-worker"]');
  if (worker) navigator.serviceWorker.register(worker.content).catch(() => {});
}
