// The replay page's keys and slider: ← and → step back and on, Home and End go to the first and
// the last position, and letting go of the slider goes to its position. They press the page's own
// links and submit its form, so the server sees the same requests as without JavaScript. Steps
// pressed while the last one is still on its way are kept and taken in turn as each arrives (the
// links pressed before the swap still pointed at the old position: quick presses were lost).
let pending = 0; // steps asked for and not yet taken: + on, - back
let loading = false;

function press(id) {
  const link = document.getElementById(id);
  if (!link || link.getAttribute("aria-disabled") === "true") {
    pending = 0;
    return false;
  }
  loading = true;
  link.click();
  return true;
}

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return;
  const target = event.target;
  // On the slider the arrows move it (and its change goes to the position); in a text box they
  // move the caret.
  if (target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
  const ends = { Home: "replay-first", End: "replay-last" };
  const steps = { ArrowLeft: -1, ArrowRight: 1 };
  if (ends[event.key]) {
    event.preventDefault();
    pending = 0;
    press(ends[event.key]);
  } else if (steps[event.key]) {
    event.preventDefault();
    if (loading) {
      pending += steps[event.key];
    } else {
      press(steps[event.key] > 0 ? "replay-next" : "replay-previous");
    }
  }
});

document.addEventListener("htmx:afterSettle", () => {
  loading = false;
  if (pending) {
    const step = Math.sign(pending);
    pending -= step;
    press(step > 0 ? "replay-next" : "replay-previous");
  }
});
document.addEventListener("htmx:responseError", () => { loading = false; pending = 0; });
document.addEventListener("htmx:sendError", () => { loading = false; pending = 0; });

document.addEventListener("change", (event) => {
  const slider = event.target.closest && event.target.closest("#replay-at");
  if (slider && slider.form) slider.form.requestSubmit();
});
