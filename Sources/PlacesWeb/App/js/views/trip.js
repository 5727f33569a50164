// The trip folder, #/itineraries/:id[/:tab[/:sub]]: the header (trip-header.js) and a tab
// strip whose tab is in the URL. Each tab is a module with
//   renderTab(container, trip, ctx) → { refresh(event), cleanup() } (both optional)
// where trip = { id, itinerary (GET /v1/itineraries/{id}), canEdit, isOwner, sub,
// memberCount }. Expenses, Sharing and Route are another area's modules, loaded lazily
// (a placeholder shows if one is missing). This view owns the live updates: a `changed`,
// `shared` or `viewed` event for this trip, or a resync, re-fetches the itinerary
// (debounced 100 ms), redraws the header and calls the tab's refresh(event).
// testids: trip-view (data-id, data-tab), trip-tabs, trip-tab-<id> (each tab button:
// days, lodging, food, transport, activities, places, checklist, warnings, expenses,
// sharing, activity, route, plan, map), trip-panel, trip-tab-missing, trip-gone; and those of
// trip-header.js and each tab module.

import { get, seg } from '../api.js';
import { h, mount, tabs, describe } from '../dom.js';
import { debounce } from '../ui.js';
import { concernsTrip, closeDialogs } from './trip-common.js';
import { tripHeader } from './trip-header.js';

const TABS = [
  ['days', 'Days'],
  ['lodging', 'Lodging'],
  ['food', 'Food'],
  ['transport', 'Transportation'],
  ['activities', 'Activities'],
  ['places', 'Places'],
  ['checklist', 'Checklist'],
  ['warnings', 'Warnings'],
  ['expenses', 'Expenses'],
  ['sharing', 'Sharing'],
  ['activity', 'Activity'],
  ['route', 'Route'],
  ['plan', 'Plan'],
  ['map', 'Map'],
];
const ITEM_TABS = { lodging: 'lodging', food: 'food', transport: 'transport', activities: 'activity' };
const MODULES = {
  days: './trip-days.js',
  places: './trip-places.js',
  checklist: './trip-checklist.js',
  warnings: './trip-warnings.js',
  activity: './trip-activity.js',
  map: './trip-map.js',
  expenses: './trip-expenses.js',
  sharing: './trip-sharing.js',
  route: './trip-route.js',
  plan: './trip-plan.js',
};

let focusTabs = false; // set when the user switched tabs from the strip: the new strip gets the focus

async function loadTab(tab) {
  if (ITEM_TABS[tab]) {
    const mod = await import('./trip-items.js');
    return mod.tabFor(ITEM_TABS[tab]);
  }
  const mod = await import(MODULES[tab]);
  return mod.renderTab;
}

export async function render(main, params, ctx) {
  const tab = TABS.some(([id]) => id === params.tab) ? params.tab : 'days';
  let itinerary;
  let members = null;
  try {
    [itinerary, members] = await Promise.all([get(`/v1/itineraries/${seg(params.id)}`), get(`/v1/itineraries/${seg(params.id)}/members`).catch(() => null)]);
  } catch (error) {
    mount(
      main,
      h('h2', {}, 'Trip'),
      h(
        'p',
        { class: 'field-error', role: 'alert', 'data-testid': 'trip-gone' },
        error.code === 'not-found' ? 'This trip does not exist here (it was deleted, or you left it).' : describe(error),
      ),
      h('a', { href: '#/itineraries' }, '← Your itineraries'),
    );
    return undefined;
  }
  const trip = {
    id: itinerary.id,
    itinerary,
    canEdit: itinerary.role !== 'viewer',
    isOwner: itinerary.role === 'owner',
    sub: params.sub,
    memberCount: members ? members.count : null,
  };
  document.title = `${itinerary.name} · Places`;

  const header = tripHeader(trip, ctx);
  const strip = tabs(
    TABS.map(([id, label]) => ({ id, label })),
    tab,
    (id) => {
      focusTabs = true;
      ctx.navigate(`#/itineraries/${trip.id}/${id}`);
    },
    'Trip sections',
  );
  strip.dataset.testid = 'trip-tabs';
  for (const button of strip.querySelectorAll('[role=tab]')) {
    button.dataset.testid = 'trip-tab-' + button.dataset.tab;
    button.setAttribute('aria-controls', 'trip-panel');
  }
  const panel = h('section', { class: 'trip-panel', id: 'trip-panel', role: 'tabpanel', 'aria-labelledby': 'tab-' + tab, 'data-testid': 'trip-panel', dataset: { tab } });
  const view = h(
    'div',
    { class: 'trip-view', 'data-testid': 'trip-view', dataset: { id: trip.id, tab } },
    h('nav', { class: 'trip-back', 'aria-label': 'Breadcrumb' }, h('a', { href: '#/itineraries' }, '← Itineraries')),
    header.root,
    strip,
    panel,
  );
  mount(main, view);
  if (focusTabs) {
    focusTabs = false;
    strip.querySelector('[aria-selected=true]').focus();
  }

  let handle = null;
  let closed = false;
  let renderTab = null;
  try {
    renderTab = await loadTab(tab);
  } catch (error) {
    console.error(error);
    panel.replaceChildren(h('p', { class: 'empty', 'data-testid': 'trip-tab-missing' }, 'This part of the trip is not available in this version of the app yet.'));
  }
  if (renderTab) {
    try {
      handle = (await renderTab(panel, trip, ctx)) || null;
    } catch (error) {
      console.error(error);
      panel.replaceChildren(h('p', { class: 'field-error', role: 'alert' }, describe(error)));
    }
  }

  // Live: one refresh for a burst of events; a refresh arriving mid-refresh runs again after.
  let running = false;
  let again = null;
  async function refresh(event) {
    if (running) {
      again = event;
      return;
    }
    running = true;
    try {
      const [fresh, list] = await Promise.all([get(`/v1/itineraries/${seg(trip.id)}`), get(`/v1/itineraries/${seg(trip.id)}/members`).catch(() => null)]);
      if (closed) return;
      trip.itinerary = fresh;
      trip.canEdit = fresh.role !== 'viewer';
      trip.isOwner = fresh.role === 'owner';
      if (list) trip.memberCount = list.count;
      header.update();
      if (handle && typeof handle.refresh === 'function') await handle.refresh(event);
    } catch (error) {
      if (closed) return;
      if (error.code === 'not-found') {
        closeDialogs();
        mount(
          panel,
          h('p', { class: 'field-error', role: 'alert', 'data-testid': 'trip-gone' }, 'This trip was deleted, or you are no longer a member.'),
          h('a', { href: '#/itineraries' }, '← Your itineraries'),
        );
      }
    } finally {
      running = false;
      if (again && !closed) {
        const next = again;
        again = null;
        refresh(next);
      }
    }
  }
  let pending = null;
  const scheduled = debounce(() => {
    const event = pending;
    pending = null;
    refresh(event);
  }, 100);
  ctx.onEvent((event) => {
    if (!concernsTrip(event, trip.id)) return;
    // A resync outranks the events it replaces; otherwise the latest event is passed on.
    if (!pending || pending.type !== 'resync') pending = event;
    scheduled();
  });

  return () => {
    closed = true;
    scheduled.cancel();
    closeDialogs();
    if (handle && typeof handle.cleanup === 'function') {
      try {
        handle.cleanup();
      } catch {
        /* leaving anyway */
      }
    }
    document.title = 'Places';
  };
}
