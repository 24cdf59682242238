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
