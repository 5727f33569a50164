// Shared pieces of the social views (feed, explore, friends, groups): debounced live
// refreshes that keep focus and half-typed input, people, photos that arrive late,
// audiences, and inline confirmations. Everything peer-written goes in as text via h().

import { h, shortID, formatTime } from '../dom.js';

/** The shared debounce (../ui.js). */
import { debounce } from '../ui.js';
export { debounce };

/**
 * A live refresher: `load()` fetches and re-renders; `refresh()` (debounced 100 ms)
 * runs it again, never two at once (a change during a run schedules one more), and
 * keeps the focused control, its selection and the scroll position.
 */
export function refresher(load, ms = 100) {
  let running = false;
  let again = false;
  let stopped = false;
  const run = async () => {
    if (stopped) return;
    if (running) { again = true; return; }
    running = true;
    try {
      await keepFocus(load);
    } catch (error) {
      console.warn('refresh failed', error);
    } finally {
      running = false;
      if (again && !stopped) { again = false; trigger(); }
    }
  };
  const trigger = debounce(run, ms);
  trigger.stop = () => { stopped = true; trigger.cancel(); };
  return trigger;
}

/** Runs `fn` (sync or async) and puts focus, selection and scroll back if it moved them. */
export async function keepFocus(fn) {
  const active = document.activeElement;
  const selection = active && typeof active.selectionStart === 'number'
    ? [active.selectionStart, active.selectionEnd] : null;
  const x = window.scrollX;
  const y = window.scrollY;
  const result = await fn();
  if (active && active !== document.body && document.activeElement !== active && active.isConnected) {
    active.focus({ preventScroll: true });
    if (selection) { try { active.setSelectionRange(selection[0], selection[1]); } catch { /* not a text control */ } }
  }
  if (window.scrollX !== x || window.scrollY !== y) window.scrollTo(x, y);
  return result;
}

/**
 * Puts `nodes` into `list` in this order, moving only the nodes that are out of place
 * (a node holding focus is left alone when it is already where it belongs) and
 * removing the others.
 */
export function reconcile(list, nodes) {
  const keep = new Set(nodes);
  for (const child of [...list.children]) if (!keep.has(child)) child.remove();
  nodes.forEach((node, index) => {
    const at = list.children[index];
    if (at !== node) list.insertBefore(node, at || null);
  });
}

/** True when the user is typing in a control inside `root`. */
export function typingIn(root) {
  const active = document.activeElement;
  return !!(active && root.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName));
}

/** A person's name as text, linking to their profile when they are a friend. */
export function personLink(name, id, { friend = false, me = null } = {}) {
  const label = id && me && id === me ? 'you' : (name || shortID(id) || 'someone');
  if (friend && id && id !== me) {
    return h('a', { class: 'person', href: '#/friends/' + encodeURIComponent(id), title: id }, label);
  }
  return h('span', { class: 'person', title: id || '' }, label);
}

/** A small round picture, or the name's first letter when there is none (or it has not arrived). */
export function avatar(picture, name, size = 'small') {
  const letter = (name || '?').trim().charAt(0).toUpperCase() || '?';
  const box = h('span', { class: ['avatar', 'avatar-' + size], 'aria-hidden': 'true' }, letter);
  if (picture) {
    const img = h('img', { src: '/v1/photos/' + encodeURIComponent(picture), alt: '', loading: 'lazy', decoding: 'async' });
    img.addEventListener('load', () => { box.textContent = ''; box.appendChild(img); box.classList.add('has-picture'); }, { once: true });
  }
  return box;
}

/**
 * A photo served by the daemon. Photos of a friend's post arrive after it (404 until
 * then): a missing one shows a placeholder and is asked for again a few times.
 */
export function photo(id, { alt = 'Photo', width, height, testid = 'post-photo', className = 'social-photo' } = {}) {
  const src = '/v1/photos/' + encodeURIComponent(id);
  const img = h('img', {
    src, alt, width: width || null, height: height || null, loading: 'lazy', decoding: 'async',
    class: className, dataset: { testid, id },
  });
  let tries = 0;
  img.addEventListener('error', () => {
    img.classList.add('photo-missing');
    img.title = 'This photo has not arrived yet';
    if (tries >= 6 || !img.isConnected) return;
    tries += 1;
    setTimeout(() => { if (img.isConnected) img.src = src + '?try=' + tries; }, 1500 * tries);
  });
  img.addEventListener('load', () => { img.classList.remove('photo-missing'); img.removeAttribute('title'); });
  return img;
}

const audienceWords = {
  'only-me': 'Only you',
  friends: 'Friends',
  group: 'A group',
  network: 'Everyone on the network',
};

/** Who a post or trip went to, in words (`groups` names your own groups by id). */
export function audienceLabel(audience, groups = []) {
  if (audienceWords[audience]) return audienceWords[audience];
  const group = groups.find((g) => g.id === audience);
  return group ? 'Group: ' + group.name : 'A group';
}

/** A relative time ("5 min ago") with the exact one in `title`, in a <time>. */
export function timeAgo(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return h('time', {}, iso || '');
  const seconds = Math.round((Date.now() - date.getTime()) / 1000);
  let text;
  if (seconds < 45) text = 'just now';
  else if (seconds < 3600) text = Math.round(seconds / 60) + ' min ago';
  else if (seconds < 86400) text = Math.round(seconds / 3600) + ' h ago';
  else if (seconds < 7 * 86400) text = Math.round(seconds / 86400) + ' d ago';
  else text = date.toLocaleDateString();
  return h('time', { datetime: iso, title: formatTime(iso) }, text);
}

/**
 * A button that asks again in place before a destructive action: the first click shows
 * "Confirm" and "Cancel" next to it; `run` happens on Confirm. Errors appear beside it.
 */
export function confirmButton(label, confirmLabel, run, attrs = {}) {
  const box = h('span', { class: 'confirm-box' });
  const ask = h('button', { type: 'button', class: 'danger', ...attrs }, label);
  const yes = h('button', { type: 'button', class: 'danger', dataset: { testid: (attrs.dataset && attrs.dataset.testid ? attrs.dataset.testid + '-confirm' : 'confirm') } }, confirmLabel);
  const no = h('button', { type: 'button' }, 'Cancel');
  const error = h('span', { class: 'field-error', role: 'alert', hidden: true });
  const show = (asking) => {
    ask.hidden = asking; yes.hidden = !asking; no.hidden = !asking;
  };
  show(false);
  ask.addEventListener('click', () => { error.hidden = true; show(true); yes.focus(); });
  no.addEventListener('click', () => { show(false); ask.focus(); });
  yes.addEventListener('click', async () => {
    yes.disabled = true; no.disabled = true;
    try {
      await run();
    } catch (err) {
      error.textContent = err && err.message ? err.message : String(err);
      error.hidden = false;
      show(false);
    } finally {
      yes.disabled = false; no.disabled = false;
    }
  });
  box.append(ask, yes, no, error);
  return box;
}

/** A number with its noun, singular or plural: count(2, 'like') → "2 likes". */
export function count(n, noun, plural = noun + 's') {
  return `${n} ${n === 1 ? noun : plural}`;
}

/** Country codes as flags-free names where the browser knows them ("PT" → "Portugal"). */
export function countryName(code) {
  try {
    const names = countryName.names || (countryName.names = new Intl.DisplayNames(undefined, { type: 'region' }));
    return names.of(code) || code;
  } catch {
    return code;
  }
}
