// A page that follows the room (the round board): it loads itself again every
// data-follow-seconds seconds while tables play, as a <meta refresh> would, but never while
// the secretary types or has a control in focus, and not while the tab is hidden (a phone in
// a pocket polls nothing). A script, not <meta http-equiv="refresh">: that one reloads under
// a screen reader's user without warning (axe: meta-refresh).
const page = document.querySelector("[data-follow-seconds]");
if (page) {
  const seconds = Number(page.dataset.followSeconds) || 30;
  const busy = () => {
    const focused = document.activeElement;
    return focused && focused !== document.body && focused.matches("input, select, textarea, button, a");
  };
  const tick = () => {
    if (document.visibilityState === "visible" && !busy()) window.location.reload();
  };
  window.setInterval(tick, seconds * 1000);
}
