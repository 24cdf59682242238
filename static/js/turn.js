// Your turn (online games; play.html loads this file on them only): when a push makes it this player's turn while the tab is hidden, the
// title says so and the tab's icon shows a mark, until the tab is looked at again; a notification
// and a short sound too, if the player turned them on (#turn-alerts; kept in this browser).
// A tournament's page gives the same signals when its player's game starts (tournament.js calls
// window.yourTurn.signal()); it has no #game to watch.
const turnAlerts = document.getElementById("turn-alerts");
if (turnAlerts) {
  const notifyBox = document.getElementById("turn-notify");
  const soundBox = document.getElementById("turn-sound");
  const status = document.getElementById("turn-alerts-status");
  const icon = document.querySelector('link[rel="icon"]');
  const plainIcon = icon ? icon.href : "";
  const prefix = turnAlerts.dataset.title + " ";
  let audio = null;
  turnAlerts.hidden = false;
  notifyBox.checked = localStorage.getItem("turn-notify") === "1" && window.Notification
    && Notification.permission === "granted";
  soundBox.checked = localStorage.getItem("turn-sound") === "1";
  if (!window.Notification) notifyBox.closest("label").hidden = true;
  notifyBox.addEventListener("change", async () => {
    status.textContent = "";
    if (notifyBox.checked && Notification.permission !== "granted") {
      const answer = await Notification.requestPermission();  // asked only on this click
      if (answer !== "granted") {
        notifyBox.checked = false;
        status.textContent = turnAlerts.dataset.blocked;
      }
    }
    localStorage.setItem("turn-notify", notifyBox.checked ? "1" : "0");
  });
  soundBox.addEventListener("change", () => {
    localStorage.setItem("turn-sound", soundBox.checked ? "1" : "0");
    if (soundBox.checked) beep();  // a click lets the page play sound, and lets the player hear it
  });
  function beep() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = 880;
    volume.gain.setValueAtTime(0.15, audio.currentTime);
    volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(volume).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  }
  window.yourTurn = { signal: () => signal(), clear: () => clearSignal() };
  const yours = () => Boolean(document.querySelector('#status [data-your-turn="1"]'));
  let wasYours = yours();
  function signal() {
    if (!document.title.startsWith(prefix)) document.title = prefix + document.title;
    if (icon) icon.href = turnAlerts.dataset.icon;
    document.documentElement.dataset.turnSignalled = "1";
    if (notifyBox.checked && Notification.permission === "granted") {
      new Notification(turnAlerts.dataset.title, {
        body: turnAlerts.dataset.body, icon: turnAlerts.dataset.icon, tag: "your-turn",
      });
    }
    if (soundBox.checked) beep();
  }
  function clearSignal() {
    if (document.title.startsWith(prefix)) document.title = document.title.slice(prefix.length);
    if (icon) icon.href = plainIcon;
    delete document.documentElement.dataset.turnSignalled;
  }
  const game = document.getElementById("game");
  if (game) {
    new MutationObserver(() => {
      const now = yours();
      if (now && !wasYours && document.hidden) signal();
      if (!now) clearSignal();
      wasYours = now;
    }).observe(game, { childList: true, subtree: true });
  }
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) clearSignal();
  });
}
