// Building the page. Everything a peer, a friend or the user wrote (names, notes,
// comments, captions) goes in as text: `h` makes text nodes from strings and never sets
// `innerHTML`, so `<script>` or `<img onerror>` in a comment shows as those characters.

/**
 * h('button', {class: 'primary', onclick: fn, 'aria-label': 'Save'}, 'Save')
 * Attributes: `class`, `text`, `on<event>` (a function), `dataset` (an object), boolean
 * `true` sets an empty attribute, `false`/null/undefined leave it out; `value`, `checked`,
 * `disabled`, `selected` and `hidden` are set as properties. Children: strings, numbers,
 * nodes, arrays of them, null/false (skipped).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'innerHTML' || key === 'outerHTML') throw new Error('h: HTML is never set from strings');
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === 'class') {
      el.className = Array.isArray(value) ? value.filter(Boolean).join(' ') : value;
    } else if (key === 'text') {
      el.textContent = String(value);
    } else if (key === 'dataset') {
      for (const [name, data] of Object.entries(value)) el.dataset[name] = String(data);
    } else if (key === 'value' || key === 'checked' || key === 'disabled' || key === 'selected' || key === 'hidden') {
      el[key] = value;
    } else if (key === 'href' || key === 'src') {
      el.setAttribute(key, safeURL(String(value)));
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Links the app makes: its own hash routes and paths, https/http, blob:, data:image. */
export function safeURL(url) {
  if (/^(#|\/(?!\/)|https?:|blob:|data:image\/|geo:|mailto:)/i.test(url)) return url;
  return '#';
}

/** Replaces the children of `el`. */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** An error shown in words next to what caused it: `anchor` is the control (or form). */
export function showError(anchor, error) {
  const message = typeof error === 'string' ? error : describe(error);
  let box = anchor.nextElementSibling;
  if (!box || !box.classList.contains('field-error')) {
    box = h('p', { class: 'field-error', role: 'alert' });
    anchor.after(box);
  }
  box.textContent = message;
  if (anchor.setAttribute && 'value' in anchor) anchor.setAttribute('aria-invalid', 'true');
  return box;
}

/** Removes the errors `showError` put inside `root` (a form, a section). */
export function clearErrors(root) {
  for (const box of root.querySelectorAll('.field-error')) box.remove();
  for (const el of root.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
}

/**
 * An API error on a form: next to the input named by the problem's `field` when the
 * form has one (`name` attribute, or `data-field`), else at the form's end.
 */
export function showFormError(form, error) {
  clearErrors(form);
  const field = error && error.field;
  const input = field && (form.querySelector(`[name="${CSS.escape(field)}"]`) || form.querySelector(`[data-field="${CSS.escape(field)}"]`));
  const target = input || form.querySelector('.form-actions') || form.lastElementChild || form;
  const box = showError(target, error);
  if (input) input.focus();
  return box;
}

export function describe(error) {
  if (!error) return 'Something went wrong.';
  if (error.name === 'ApiError' || error.code) return error.message || `Failed (${error.code}).`;
  return error.message || String(error);
}

/** A short message at the top of the page (for errors with no control to stand beside). */
export function flash(message, kind = 'error') {
  const box = document.getElementById('flash');
  if (!box) return;
  box.textContent = message;
  box.className = 'flash ' + kind;
  box.hidden = false;
  clearTimeout(flash.timer);
  flash.timer = setTimeout(
    () => {
      box.hidden = true;
    },
    kind === 'error' ? 8000 : 3000,
  );
}

/** A labelled input: label text, input attributes. Answers the wrapping <label>. */
export function field(label, attrs = {}, control = 'input') {
  const id = attrs.id || 'f-' + Math.random().toString(36).slice(2, 9);
  const input = h(control, { ...attrs, id });
  return h('div', { class: 'field' }, h('label', { for: id }, label), input);
}

/** A <form> whose submit runs `handler(values, form)`; errors appear beside their field. */
export function form(attrs, children, handler) {
  const el = h('form', { ...attrs, novalidate: true }, children);
  el.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(el);
    const submit = el.querySelector('[type=submit]');
    if (submit) submit.disabled = true;
    try {
      await handler(Object.fromEntries(new FormData(el).entries()), el);
    } catch (error) {
      showFormError(el, error);
    } finally {
      if (submit) submit.disabled = false;
    }
  });
  return el;
}

/** A button that runs an async action, disabled while it runs; errors appear beside it. */
export function action(label, run, attrs = {}) {
  const button = h('button', { type: 'button', ...attrs }, label);
  button.addEventListener('click', async () => {
    button.disabled = true;
    const old = button.nextElementSibling;
    if (old && old.classList.contains('field-error')) old.remove();
    try {
      await run(button);
    } catch (error) {
      showError(button, error);
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

/** A tab strip: [{id, label}], the selected id, onSelect(id). Arrow keys move between tabs. */
export function tabs(items, selected, onSelect, label = 'Sections') {
  const list = h('div', { class: 'tabs', role: 'tablist', 'aria-label': label });
  for (const item of items) {
    const on = item.id === selected;
    const tab = h(
      'button',
      {
        type: 'button',
        role: 'tab',
        id: 'tab-' + item.id,
        'aria-selected': on ? 'true' : 'false',
        tabindex: on ? '0' : '-1',
        class: on ? 'tab active' : 'tab',
        dataset: { tab: item.id },
        onclick: () => onSelect(item.id),
      },
      item.label,
    );
    list.appendChild(tab);
  }
  list.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const all = [...list.querySelectorAll('[role=tab]')];
    const at = all.indexOf(document.activeElement);
    const next = all[(at + (event.key === 'ArrowRight' ? 1 : all.length - 1)) % all.length];
    if (next) {
      next.focus();
      next.click();
    }
  });
  return list;
}

/** An empty state line. */
export const empty = (text) => h('p', { class: 'empty' }, text);

// Formatting.
export function formatMoney(money) {
  if (!money) return '';
  const digits = currencyDigits(money.currency);
  const value = money.amountMinor / 10 ** digits;
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: money.currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
  } catch {
    return `${value.toFixed(digits)} ${money.currency}`;
  }
}

function currencyDigits(code) {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits;
  } catch {
    return 2;
  }
}

export function formatTime(iso) {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

export function formatDate(day) {
  if (!day) return '';
  const date = new Date(day + 'T12:00:00Z');
  return Number.isNaN(date.getTime()) ? day : date.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** A human id shortened for display: its first group. The full id goes in `title`. */
export function shortID(id) {
  return id ? String(id).split('-')[0] : '';
}

/** A person's name and short id, with the full id on hover. */
export function person(name, id) {
  return h('span', { class: 'person', title: id || '' }, name || shortID(id) || 'someone');
}

/** Triggers a download of an API resource (GPX, calendar, CSV) through a temporary link. */
export async function download(path, filename, accept) {
  const { get } = await import('./api.js');
  const response = await get(path, { raw: true, accept: accept || '*/*' });
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = h('a', { href: url, download: filename, hidden: true });
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
