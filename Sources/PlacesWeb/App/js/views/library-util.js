// Helpers shared by the library area's views (identity, profile, discover, favorites,
// places, peers, notifications): debounced live refresh, keeping focus across a list's
// re-render, uploads with progress, and the name folding discover uses to tell places apart.

import { ApiError, csrfToken } from '../api.js';

/** The shared debounce (../ui.js). */
import { debounce } from '../ui.js';
export { debounce };

// The control focused last: a button that disables itself while it works (dom.js
// `action`) drops the focus to <body>, and the list it sits in is re-rendered right after.
let lastFocus = null;
document.addEventListener('focusin', (event) => { lastFocus = event.target; });

const FOCUSABLE = 'button:not([disabled]), a[href], input:not([disabled]):not(.visually-hidden), select:not([disabled]), textarea:not([disabled])';

/**
 * Re-renders `container` with `children` (an array, or a function answering one) while
 * keeping the focused control: the element with the same `data-testid` inside the item with
 * the same `data-id` gets focus back (or, when that control is gone — "Mark read" once
 * read — the item's first control). The window's scroll position stays put.
 */
export function rerender(container, children) {
  let active = document.activeElement;
  if ((!active || active === document.body) && lastFocus && container.contains(lastFocus)) active = lastFocus;
  let key = null;
  if (active && active !== document.body && container.contains(active)) {
    const item = active.closest('[data-id]');
    const inside = item && container.contains(item) ? item : null;
    let top = inside;
    while (top && top.parentElement !== container) top = top.parentElement;
    key = { id: inside ? inside.dataset.id : null, index: top ? [...container.children].indexOf(top) : -1, testid: active.dataset.testid, tag: active.tagName };
  }
  const nodes = typeof children === 'function' ? children() : children;
  container.replaceChildren(...[].concat(nodes).filter(Boolean));
  if (key) {
    let scope = key.id ? container.querySelector(`[data-id="${CSS.escape(key.id)}"]`) : container;
    // The item is gone (deleted): its neighbour takes the focus.
    if (!scope && key.index >= 0 && container.children.length) scope = container.children[Math.min(key.index, container.children.length - 1)];
    let again = scope && (key.testid ? scope.querySelector(`[data-testid="${CSS.escape(key.testid)}"]`) : scope.querySelector(key.tag));
    if (!again && scope && scope !== container) again = scope.querySelector(FOCUSABLE);
    if (again) again.focus({ preventScroll: true });
  }
}

/** True while the user is typing in a control inside `root`. */
export function isEditing(root) {
  const active = document.activeElement;
  return !!(active && root.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName));
}

/**
 * Sends a file as the raw request body with XMLHttpRequest so the upload's progress can
 * be shown (fetch has no upload progress). Answers the parsed JSON; throws ApiError.
 */
export function upload(path, file, { contentType, onProgress } = {}) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Content-Type', contentType || file.type || 'application/octet-stream');
    xhr.setRequestHeader('X-Places-CSRF', csrfToken());
    if (onProgress) {
      xhr.upload.addEventListener('progress', (event) => { if (event.lengthComputable) onProgress(event.loaded, event.total); });
    }
    xhr.addEventListener('load', () => {
      let body = null;
      try { body = xhr.responseText ? JSON.parse(xhr.responseText) : null; } catch { body = null; }
      if (xhr.status >= 200 && xhr.status < 300) { resolve(body); return; }
      const problem = body && typeof body === 'object' ? body : { title: xhr.statusText, detail: xhr.responseText };
      const error = new ApiError(xhr.status, problem);
      if (xhr.status === 401 && error.code === 'logged-out') window.dispatchEvent(new CustomEvent('places:logged-out'));
      reject(error);
    });
    xhr.addEventListener('error', () => reject(new ApiError(0, { code: 'unreachable', detail: 'The upload failed: the Places app server cannot be reached.' })));
    xhr.send(file);
  });
}

/** A place's name folded as the daemon folds it: no case, accents or punctuation. */
export function fold(name) {
  return String(name || '').normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** Great-circle distance in metres. */
export function distanceMeters(lat1, lon1, lat2, lon2) {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** "3 favorites", "1 favorite". */
export function plural(count, one, many = one + 's') {
  return `${count} ${count === 1 ? one : many}`;
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

/**
 * A GET for background polling, without the page's progress bar (api.js shows it for every
 * request). Answers the JSON, or null when the request fails.
 */
export async function quietGet(path) {
  try {
    const response = await fetch(path, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}
