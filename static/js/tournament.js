// A tournament's page (its socket is htmx's ws extension; reconnecting is game.js's): keep the
// newest pushed redraw, mark the player's own row, and follow "your game starts now" with the
// tab's your-turn signals (turn.js). The "new tournament" form: send the browser's time zone with
// a start time. Without JavaScript the page works as plain forms and links.

// Redraws rendered by two server processes may arrive out of order: each says when its standings
// were read (data-drawn); one older than what the page shows is dropped.
const DRAWN = /data-drawn="([0-9.]+)"/;
document.addEventListener("htmx:wsBeforeMessage", (event) => {
  const drawn = DRAWN.exec(event.detail.message);
  const shown = document.querySelector("#standings[data-drawn]");
  if (drawn && shown && Number(drawn[1]) < Number(shown.dataset.drawn)) event.preventDefault();
});

// The player's own row in the standings: the pushed standings are the same for every page.
function markMine() {
  const marker = document.querySelector("[data-my-entry]");
  const mine = marker ? marker.dataset.myEntry : "";
  for (const row of document.querySelectorAll("#standings tr[data-entry]")) {
    row.classList.toggle("mine", Boolean(mine) && row.dataset.entry === mine);
  }
}
for (const name of ["htmx:wsAfterMessage", "htmx:afterSettle"]) {
  document.addEventListener(name, markMine);
}

// Paired: the server pushes a link into #t-your-game. In a tab being looked at, go to the game at
// once; in a hidden one, give the your-turn signals (title, icon, and the notification and sound
// the player turned on) and go when the tab is looked at again.
const yourGame = document.getElementById("t-your-game");
if (yourGame) {
  let going = false;
  const go = (link) => {
    if (going) return;
    going = true;
    window.location.assign(link.href);
  };
  new MutationObserver(() => {
    const link = yourGame.querySelector("[data-your-game]");
    if (!link || going) return;
    if (!document.hidden) {
      go(link);
      return;
    }
    if (window.yourTurn) window.yourTurn.signal();
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) go(link);
    });
  }).observe(yourGame, { childList: true, subtree: true });
}

// The "new tournament" form: a start time is typed in the browser's own time; the server is told
// that time's offset from UTC (daylight saving included), else it reads the time as UTC.
const newForm = document.getElementById("new-tournament");
if (newForm) {
  newForm.addEventListener("submit", () => {
    const when = newForm.elements.starts_at;
    const offset = newForm.elements.offset;
    if (when && offset && when.value) offset.value = new Date(when.value).getTimezoneOffset();
  });
  const note = document.getElementById("utc-note");
  if (note) note.hidden = true; // the time typed is the browser's own
}
