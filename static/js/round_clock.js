// The round's clock (templates/league/includes/round_clock.html, and the live board's
// templates/league/publishing/live_board.html): counts down from the seconds the server gave as
// the page was made (its own clock, not the phone's, decides), and at zero shows what the rules
// say happens. Nothing is ended here: the scorekeeper enters the end. It needs no network: a
// screen that lost it goes on counting.

/** Count ``clock`` down until it leaves the page (the live board swaps in a new one). */
export function countDown(clock) {
  const left = clock.querySelector("[data-left]");
  const up = clock.querySelector("[data-time-up]");
  if (!left || !up) return;
  const ends = performance.now() + Number(clock.dataset.secondsLeft) * 1000;
  const tick = () => {
    if (!clock.isConnected) return;
    const seconds = Math.max(0, Math.round((ends - performance.now()) / 1000));
    left.textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
    if (seconds === 0) {
      left.closest("p").hidden = true;
      up.hidden = false;
      return;
    }
    setTimeout(tick, 1000);
  };
  tick();
}

document.querySelectorAll("[data-round-clock][data-seconds-left]").forEach(countDown);
