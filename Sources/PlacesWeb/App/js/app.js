// The shell: the hash router, the navigation, the login gate and the live-event
// plumbing. Each view is a module under views/ exporting
//   render(main, params, ctx) -> optional cleanup function
// where `ctx` is { status, navigate(hash), onEvent(fn), refreshStatus() }. A view's
// `onEvent` subscriptions end when the user leaves it.

import { get } from './api.js';
import { h, mount, flash, describe } from './dom.js';
import * as events from './events.js';
import * as syncStatus from './sync-status.js';

// [pattern, module, nav section]. `:name` captures one path segment.
const routes = [
  ['login', 'identity.js', null],
  ['home', 'dashboard.js', 'home'],
  ['profile', 'profile.js', 'profile'],
  ['discover', 'discover.js', 'discover'],
  ['favorites', 'favorites.js', 'favorites'],
  ['itineraries', 'itineraries.js', 'itineraries'],
  ['itineraries/:id', 'trip.js', 'itineraries'],
  ['itineraries/:id/:tab', 'trip.js', 'itineraries'],
  ['itineraries/:id/:tab/:sub', 'trip.js', 'itineraries'],
  ['join', 'join.js', 'itineraries'],
  ['map', 'map.js', 'map'],
  ['map/friend/:friend', 'map.js', 'map'],
  ['feed', 'feed.js', 'feed'],
  ['explore', 'explore.js', 'explore'],
  ['explore/:id', 'explore-trip.js', 'explore'],
  ['saved', 'explore.js', 'explore'],
  ['friends', 'friends.js', 'friends'],
  ['friends/:id', 'friend.js', 'friends'],
  ['groups', 'groups.js', 'friends'],
  ['notifications', 'notifications.js', 'notifications'],
  ['messages', 'messages.js', 'messages'],
  ['messages/:id', 'messages.js', 'messages'],
  ['out', 'out.js', 'out'],
  ['peers', 'peers.js', 'peers'],
];

const nav = [
  ['home', 'Home'],
  ['itineraries', 'Itineraries'],
  ['discover', 'Discover'],
  ['favorites', 'Favorites'],
  ['map', 'Map'],
  ['feed', 'Feed'],
  ['explore', 'Explore'],
  ['friends', 'Friends'],
  ['messages', 'Messages'],
  ['out', 'Out now'],
  ['notifications', 'Notifications'],
  ['peers', 'Peers'],
  ['profile', 'Profile'],
];

const main = document.getElementById('main');
let status = null;
let cleanup = null;
let viewSubscriptions = [];
let renderSeq = 0;

export function navigate(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function match(path) {
  const parts = path.split('/').filter(Boolean);
  for (const [pattern, module, section] of routes) {
    const keys = pattern.split('/');
    if (keys.length !== parts.length) continue;
    const params = {};
    let ok = true;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i].startsWith(':')) params[keys[i].slice(1)] = decodeURIComponent(parts[i]);
      else if (keys[i] !== parts[i]) {
        ok = false;
        break;
      }
    }
    if (ok) return { module, section, params, pattern };
  }
  return null;
}

export async function refreshStatus() {
  status = await get('/v1/status');
  syncStatus.setIdentity(status.id);
  renderNav();
  return status;
}

function renderNav() {
  const el = document.getElementById('nav');
  if (!status || !status.loggedIn) {
    mount(el);
    return;
  }
  const current = (match(currentPath()) || {}).section;
  mount(
    el,
    h(
      'ul',
      {},
      nav.map(([id, label]) =>
        h(
          'li',
          {},
          h(
            'a',
            { href: '#/' + id, 'aria-current': id === current ? 'page' : false, dataset: { nav: id } },
            label,
            id === 'notifications' ? h('span', { class: 'badge', id: 'unread', 'data-testid': 'notifications-badge', hidden: true }) : null,
            id === 'messages' ? h('span', { class: 'badge', id: 'unread-messages', 'data-testid': 'messages-unread', hidden: true }) : null,
          ),
        ),
      ),
    ),
  );
  refreshUnread();
}

/** The Messages badge: unread messages over every conversation not muted. */
async function refreshUnreadMessages() {
  const badge = document.getElementById('unread-messages');
  if (!badge) return;
  try {
    const list = await get('/v1/conversations');
    const count = list.conversations.filter((c) => !c.muted).reduce((sum, c) => sum + c.unread, 0);
    badge.textContent = count ? String(count) : '';
    badge.hidden = !count;
  } catch {
    badge.hidden = true;
  }
}

export async function refreshUnread() {
  refreshUnreadMessages();
  const badge = document.getElementById('unread');
  if (!badge) return;
  try {
    const list = await get('/v1/notifications?limit=1');
    const count = list.unread;
    badge.textContent = count ? String(count) : '';
    badge.hidden = !count;
  } catch {
    badge.hidden = true;
  }
}

function currentPath() {
  const hash = location.hash.replace(/^#\/?/, '');
  return hash.split('?')[0] || 'home';
}

export function hashQuery() {
  const at = location.hash.indexOf('?');
  return new URLSearchParams(at >= 0 ? location.hash.slice(at + 1) : '');
}

async function route() {
  const seq = ++renderSeq;
  if (cleanup) {
    try {
      cleanup();
    } catch {
      /* a view's cleanup must not stop navigation */
    }
    cleanup = null;
  }
  for (const unsubscribe of viewSubscriptions) unsubscribe();
  viewSubscriptions = [];
  let found = match(currentPath());
  // The view's module loads while the status does (one round trip, not two, before the
  // first paint); a logged-out visitor's login view replaces it below.
  if (found) import('./views/' + found.module).catch(() => null);
  if (!status) {
    try {
      await refreshStatus();
    } catch (error) {
      mount(main, h('p', { class: 'field-error' }, describe(error)));
      return;
    }
  }
  if (!status.loggedIn && (!found || found.module !== 'identity.js')) {
    found = match('login');
  }
  if (!found) {
    mount(main, h('h2', {}, 'Not found'), h('p', {}, 'There is no page at this address. '), h('a', { href: '#/itineraries' }, 'Your itineraries'));
    return;
  }
  renderNav();
  const ctx = {
    status,
    params: found.params,
    query: hashQuery(),
    navigate,
    refreshStatus,
    refreshUnread,
    onEvent(fn) {
      const off = events.subscribe(fn);
      viewSubscriptions.push(off);
      return off;
    },
  };
  try {
    const view = await import('./views/' + found.module); // the same module record as `early`
    if (seq !== renderSeq) return;
    main.replaceChildren();
    const result = await view.render(main, found.params, ctx);
    if (seq !== renderSeq) {
      if (typeof result === 'function') result();
      return;
    }
    cleanup = typeof result === 'function' ? result : null;
    document.body.dataset.view = found.module.replace('.js', '');
    main.dataset.ready = 'true';
  } catch (error) {
    if (seq !== renderSeq) return;
    console.error(error);
    mount(main, h('p', { class: 'field-error', role: 'alert' }, describe(error)));
  }
}

events.subscribe((event) => {
  syncStatus.onEvent(event);
  if (event.type === 'login' || event.type === 'logout') {
    status = null;
    route();
  }
  if (event.type === 'notification') refreshUnread();
  if (event.type === 'message') refreshUnreadMessages();
});
window.addEventListener('places:logged-out', () => {
  if (status && status.loggedIn) {
    status = null;
    route();
  }
});
window.addEventListener('hashchange', () => {
  main.dataset.ready = 'false';
  route();
});
window.addEventListener('unhandledrejection', (event) => flash(describe(event.reason)));

if (!location.hash) history.replaceState(null, '', '#/home');
events.start();
route();
