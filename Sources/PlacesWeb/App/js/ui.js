// What views share, in one place (../shared/STYLE.md, "The browser app"): the debounce of
// live refreshes, re-rendering without losing the user's focus, the confirm button of
// destructive actions, plurals, labelled form fields and field errors, and a few small
// controls. Views import these from here, never from a sibling view's file; what only one
// area uses stays in its area module (trip-common, social-common, library-util).

import { describe, h } from './dom.js';

/**
 * `fn` called once, `ms` after the last of a burst of calls (live events arrive in bursts),
 * with that last call's arguments. `.cancel()` drops a pending call.
 */
export function debounce(fn, ms = 100) {
  let timer = null;
  const wrapped = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      fn(...args);
    }, ms);
  };
  wrapped.cancel = () => clearTimeout(timer);
  return wrapped;
}

/** "3 favorites", "1 favorite": a number with its noun, singular or plural. */
export function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

// The control focused last: a button that disables itself while it works (dom.js
// `action`) drops the focus to <body>, and the list it sits in is re-rendered right after.
let lastFocus = null;
document.addEventListener('focusin', (event) => {
  lastFocus = event.target;
});

const FOCUSABLE = 'button:not([disabled]), a[href], input:not([disabled]):not(.visually-hidden), select:not([disabled]), textarea:not([disabled]), summary';

/** What names a control across a re-render: its action, test id, name, label or text. */
function controlKey(el) {
  return el.dataset.action || el.dataset.testid || el.getAttribute('name') || el.getAttribute('aria-label') || `${el.tagName}:${el.textContent}`;
}

/**
 * Replaces `container`'s children with `children` (a node, an array — nested arrays and
 * nulls allowed — or a function answering one) while keeping the user's place: the focused
 * control gets focus back as the equivalent control (same action, test id, name, label or
 * text) inside the item with the same `data-id`, with its text selection; when that control
 * is gone ("Mark read" once read) the item's first control, and when the item is gone
 * (deleted) its neighbour's. The window's and the container's scroll positions stay put.
 * Answers the milliseconds the build and the swap took.
 */
export function rerender(container, children) {
  let active = document.activeElement;
  if ((!active || active === document.body) && lastFocus && container.contains(lastFocus)) active = lastFocus;
  let key = null;
  if (active && active !== document.body && container.contains(active)) {
    const item = active.closest('[data-id]');
    const inside = item && container.contains(item) ? item : null;
    let top = active;
    while (top.parentElement && top.parentElement !== container) top = top.parentElement;
    key = {
      id: inside ? inside.dataset.id : null,
      index: [...container.children].indexOf(top),
      control: controlKey(active),
      value: active.value,
      selection: typeof active.selectionStart === 'number' ? [active.selectionStart, active.selectionEnd] : null,
    };
  }
  const x = window.scrollX;
  const y = window.scrollY;
  const scroll = container.scrollTop;
  // Timed: the synchronous build and the swap, before anything that makes the browser lay
  // the page out (reading the scroll position back, focusing).
  const started = performance.now();
  const nodes = typeof children === 'function' ? children() : children;
  container.replaceChildren(...[nodes].flat(Infinity).filter(Boolean));
  const elapsed = performance.now() - started;
  if (container.scrollTop !== scroll) container.scrollTop = scroll;
  if (key) refocus(container, key);
  if (window.scrollX !== x || window.scrollY !== y) window.scrollTo(x, y);
  return elapsed;
}

function refocus(container, key) {
  let scopes = key.id ? [...container.querySelectorAll(`[data-id="${CSS.escape(key.id)}"]`)] : [container];
  // The item is gone (deleted): its neighbour takes the focus.
  if (!scopes.length && key.index >= 0 && container.children.length) {
    scopes = [container.children[Math.min(key.index, container.children.length - 1)]];
  }
  let target = null;
  for (const scope of scopes) {
    target = [...scope.querySelectorAll(FOCUSABLE)].find((el) => controlKey(el) === key.control) || null;
    if (target) break;
  }
  if (!target && scopes.length && scopes[0] !== container) target = scopes[0].querySelector(FOCUSABLE);
  if (!target) return;
  target.focus({ preventScroll: true });
  if (key.selection && target.value === key.value) {
    try {
      target.setSelectionRange(key.selection[0], key.selection[1]);
    } catch {
      // not a text control
    }
  }
}

/**
 * Runs `fn` (sync or async), which updates nodes in place rather than replacing them, and
 * puts focus, selection and scroll back if it moved them.
 */
export async function keepFocus(fn) {
  const active = document.activeElement;
  const selection = active && typeof active.selectionStart === 'number' ? [active.selectionStart, active.selectionEnd] : null;
  const x = window.scrollX;
  const y = window.scrollY;
  const result = await fn();
  if (active && active !== document.body && document.activeElement !== active && active.isConnected) {
    active.focus({ preventScroll: true });
    if (selection) {
      try {
        active.setSelectionRange(selection[0], selection[1]);
      } catch {
        // not a text control
      }
    }
  }
  if (window.scrollX !== x || window.scrollY !== y) window.scrollTo(x, y);
  return result;
}

/** True while the user is typing in a control inside `root`. */
export function isEditing(root) {
  const active = document.activeElement;
  return !!(active && root.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName));
}

/** Whether the user is in the middle of typing in `form` (it has focus or was changed). */
export function isBusy(form) {
  return !!form && form.isConnected && (form.dataset.dirty === 'true' || form.contains(document.activeElement));
}

/** Marks a form dirty on the first input so that live refreshes leave it alone. */
export function trackDirty(form) {
  form.addEventListener('input', () => {
    form.dataset.dirty = 'true';
  });
  return form;
}

/**
 * The button of a destructive action, which asks again in place: the first press shows
 * `question` (if any), a `confirmLabel` button and a `cancelLabel` one beside it, and
 * focuses the first; `run(button)` happens on confirm, and an error appears beside it.
 * The confirm button's test id is the button's plus `-confirm` (`confirm` without one), the
 * cancel button's plus `-cancel`. `onAsk(asking)` hears the question open and close (a view
 * that re-renders its list live keeps the item meanwhile). Other `attrs` go on the button.
 */
export function confirmButton(label, run, options = {}) {
  const { confirmLabel = `Confirm: ${label}`, question = '', cancelLabel = 'Cancel', onAsk = null, ...attrs } = options;
  const testid = (attrs.dataset && attrs.dataset.testid) || attrs['data-testid'] || null;
  const box = h('span', { class: 'confirm-box' });
  const ask = h('button', { type: 'button', class: 'danger', ...attrs }, label);
  const text = question ? h('span', { class: 'confirm-question' }, question) : null;
  const yes = h('button', { type: 'button', class: 'danger', dataset: { testid: testid ? `${testid}-confirm` : 'confirm' } }, confirmLabel);
  const no = h('button', { type: 'button', dataset: { testid: testid ? `${testid}-cancel` : 'confirm-cancel' } }, cancelLabel);
  const error = h('span', { class: 'field-error', role: 'alert', hidden: true });
  const show = (asking) => {
    ask.hidden = asking;
    yes.hidden = !asking;
    no.hidden = !asking;
    if (text) text.hidden = !asking;
    if (onAsk) onAsk(asking);
  };
  ask.hidden = false;
  yes.hidden = true;
  no.hidden = true;
  if (text) text.hidden = true;
  ask.addEventListener('click', () => {
    error.hidden = true;
    show(true);
    yes.focus();
  });
  no.addEventListener('click', () => {
    show(false);
    ask.focus();
  });
  yes.addEventListener('click', async () => {
    yes.disabled = true;
    no.disabled = true;
    try {
      await run(yes);
      if (box.isConnected) show(false);
    } catch (err) {
      error.textContent = describe(err);
      error.hidden = false;
      show(false);
    } finally {
      yes.disabled = false;
      no.disabled = false;
    }
  });
  box.append(...[ask, text, yes, no, error].filter(Boolean));
  return box;
}

let fieldId = 0;
/** A labelled control. `hint` is a short line under the label. */
export function labelled(label, control, hint) {
  if (!control.id) control.id = `field-${++fieldId}`;
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), hint ? h('span', { class: 'muted' }, hint) : null, control);
}

/** An error on a named form field, shown by dom.js `showFormError` beside it. */
export function fieldError(field, message) {
  const error = new Error(message);
  error.field = field;
  return error;
}

/** A toggle button (`aria-pressed`) of a group; `onPress(value)` when pressed. */
export function toggle(label, value, pressed, onPress, attrs = {}) {
  return h(
    'button',
    {
      type: 'button',
      'aria-pressed': pressed ? 'true' : 'false',
      dataset: { value },
      ...attrs,
      onclick: () => onPress(value),
    },
    label,
  );
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
      try {
        return document.execCommand('copy');
      } catch {
        return false;
      }
    }
    return false;
  }
}

/** Coordinates in words, five decimals. */
export function coordinates(latitude, longitude) {
  return `${Number(latitude).toFixed(5)}, ${Number(longitude).toFixed(5)}`;
}

/** Bytes in words (for upload sizes). */
export function bytes(count) {
  if (count < 1024) return `${count} B`;
  if (count < 1024 * 1024) return `${(count / 1024).toFixed(0)} KB`;
  return `${(count / 1024 / 1024).toFixed(1)} MB`;
}
