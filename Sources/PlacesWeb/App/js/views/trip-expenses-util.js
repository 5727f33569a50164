// Helpers shared by the money, sharing and route tabs (trip-expenses*, trip-sharing*,
// trip-route*): re-rendering a part of a tab without losing the user's place, a two-step
// confirmation for destructive buttons, and the tab's own sub-route in the address bar.

import { h, showError } from '../dom.js';

/** The shared debounce (../ui.js). */
import { debounce } from '../ui.js';
export { debounce };

/**
 * Replaces the children of `container` with `nodes`, keeping the focus on the equivalent
 * control (same `data-testid`/`data-action` inside the row with the same `data-id`) and the
 * container's own scroll position. Window scrolling is kept by the browser when heights hold.
 */
export function replaceKeepingFocus(container, nodes) {
  const active = document.activeElement;
  let key = null;
  if (active && container.contains(active)) {
    const row = active.closest('[data-id]');
    key = {
      id: row && container.contains(row) ? row.dataset.id : null,
      hook: active.dataset.action || active.dataset.testid || active.getAttribute('aria-label') || active.textContent,
    };
  }
  const scroll = container.scrollTop;
  container.replaceChildren(...[nodes].flat(Infinity).filter(Boolean));
  container.scrollTop = scroll;
  if (!key) return;
  const rows = key.id ? [...container.querySelectorAll('[data-id]')].filter((el) => el.dataset.id === key.id) : [container];
  for (const row of rows) {
    for (const el of row.querySelectorAll('button, a, input, select, textarea, summary')) {
      const hook = el.dataset.action || el.dataset.testid || el.getAttribute('aria-label') || el.textContent;
      if (hook === key.hook) { el.focus({ preventScroll: true }); return; }
    }
  }
}

/**
 * A destructive button that asks once more in place: the first press turns it into
 * "Confirm: <label>" for 5 seconds, the second runs `run(button)`. Errors appear beside it.
 */
export function confirmButton(label, run, attrs = {}) {
  const button = h('button', { type: 'button', class: 'danger', ...attrs }, label);
  let armed = false;
  let timer = null;
  const disarm = () => {
    armed = false;
    button.textContent = label;
    button.removeAttribute('data-armed');
  };
  button.addEventListener('click', async () => {
    const old = button.nextElementSibling;
    if (old && old.classList.contains('field-error')) old.remove();
    if (!armed) {
      armed = true;
      button.textContent = 'Confirm: ' + label;
      button.dataset.armed = 'true';
      clearTimeout(timer);
      timer = setTimeout(disarm, 5000);
      return;
    }
    clearTimeout(timer);
    disarm();
    button.disabled = true;
    try { await run(button); } catch (error) { if (button.isConnected) showError(button, error); } finally { button.disabled = false; }
  });
  return button;
}

/** Rewrites the address to `#/itineraries/<id>/<tab>[/<sub>]` without a re-render (no hashchange). */
export function setSubRoute(tripId, tab, sub) {
  const hash = `#/itineraries/${encodeURIComponent(tripId)}/${tab}${sub ? '/' + encodeURIComponent(sub) : ''}`;
  if (location.hash !== hash) history.replaceState(history.state, '', hash);
}

/** A toggle button (`aria-pressed`) of a group; `onPress(value)` when pressed. */
export function toggle(label, value, pressed, onPress, attrs = {}) {
  return h('button', {
    type: 'button', 'aria-pressed': pressed ? 'true' : 'false', dataset: { value }, ...attrs,
    onclick: () => onPress(value),
  }, label);
}

/** Whether the user is in the middle of typing in `form` (it has focus or was changed). */
export function isBusy(form) {
  return !!form && form.isConnected && (form.dataset.dirty === 'true' || form.contains(document.activeElement));
}

/** Marks a form dirty on the first input so that live refreshes leave it alone. */
export function trackDirty(form) {
  form.addEventListener('input', () => { form.dataset.dirty = 'true'; });
  return form;
}

/** Copies text to the clipboard; answers whether it worked. */
export async function copyText(text, fallbackInput) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (fallbackInput) {
      fallbackInput.focus();
      fallbackInput.select();
      try { return document.execCommand('copy'); } catch { return false; }
    }
    return false;
  }
}
