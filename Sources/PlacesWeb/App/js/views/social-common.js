// Shared pieces of the social views (feed, explore, friends, groups): debounced live
// refreshes that keep focus and half-typed input, people and audiences. What every view
// shares is in ../ui.js; photos (that arrive late) are in ../photos.js. Everything peer-written goes in as
// text via h().

import { h, shortID, formatTime } from '../dom.js';

import { debounce, keepFocus } from '../ui.js';

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
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      await keepFocus(load);
    } catch (error) {
      console.warn('refresh failed', error);
    } finally {
      running = false;
      if (again && !stopped) {
        again = false;
        trigger();
      }
    }
  };
  const trigger = debounce(run, ms);
  trigger.stop = () => {
    stopped = true;
    trigger.cancel();
  };
  return trigger;
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

/** A person's name as text, linking to their profile when they are a friend. */
export function personLink(name, id, { friend = false, me = null } = {}) {
  const label = id && me && id === me ? 'you' : name || shortID(id) || 'someone';
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
    img.addEventListener(
      'load',
      () => {
        box.textContent = '';
        box.appendChild(img);
        box.classList.add('has-picture');
      },
      { once: true },
    );
  }
  return box;
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

/** Country codes as flags-free names where the browser knows them ("PT" → "Portugal"). */
export function countryName(code) {
  try {
    if (!countryName.names) countryName.names = new Intl.DisplayNames(undefined, { type: 'region' });
    return countryName.names.of(code) || code;
  } catch {
    return code;
  }
}
