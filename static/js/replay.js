// The replay page's keys and slider: ← and → step back and on, Home and End go to the first and
// the last position, and letting go of the slider goes to its position. They press the page's own
// links and submit its form, so the server sees the same requests as without JavaScript.
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return;
  const target = event.target;
  // On the slider the arrows move it (and its change goes to the position); in a text box they
  // move the caret.
  if (target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
  const links = {
    ArrowLeft: "replay-previous", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last",
  };
  const link = links[event.key] && document.getElementById(links[event.key]);
  if (!link || link.getAttribute("aria-disabled") === "true") return;
  event.preventDefault();
  link.click();
});

document.addEventListener("change", (event) => {
  const slider = event.target.closest && event.target.closest("#replay-at");
  if (slider && slider.form) slider.form.requestSubmit();
});
