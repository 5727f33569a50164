// The Activity tab: who created, edited, moved, deleted, shared, joined, left or viewed
// what in the trip, and when (GET …/activity, newest first, at most 500 lines), with a
// filter by kind of change.
// testids: trip-activity (the list), activity-entry (each, data-action, data-kind),
// activity-filter (select).

import { get, seg } from '../api.js';
import { h, formatTime, shortID } from '../dom.js';
import { rerender } from '../ui.js';
import { loadedPanel } from './trip-common.js';

const ICONS = { created: '➕', edited: '✏️', deleted: '🗑️', restored: '↩️', moved: '↕️', joined: '👋', shared: '🔗', unshared: '🚫', left: '🚪', viewed: '👀', equivocated: '⚠️' };
const FILTERS = [
  ['', 'Everything'],
  ['created', 'Added'],
  ['edited', 'Edited'],
  ['moved', 'Moved'],
  ['deleted', 'Deleted'],
  ['viewed', 'Viewed'],
  ['shared', 'Shared'],
  ['joined', 'Joined'],
  ['left', 'Left'],
];

export async function renderTab(container, trip) {
  let entries = [];
  const list = h('ol', { class: 'list trip-activity', 'data-testid': 'trip-activity' });
  const filter = h(
    'select',
    { 'data-testid': 'activity-filter', 'aria-label': 'Show', onchange: () => draw() },
    FILTERS.map(([value, label]) => h('option', { value }, label)),
  );
  container.append(h('div', { class: 'toolbar' }, h('h3', { class: 'trip-tab-title' }, 'Activity'), filter), list);

  function draw() {
    const shown = filter.value ? entries.filter((e) => e.action === filter.value) : entries;
    rerender(list, () =>
      shown.length
        ? shown.map((e, index) =>
            h(
              'li',
              { class: 'trip-activity-entry', 'data-testid': 'activity-entry', dataset: { action: e.action, kind: e.kind, id: e.time + ':' + index } },
              h('span', { 'aria-hidden': 'true', class: 'trip-activity-icon' }, ICONS[e.action] || '•'),
              h(
                'div',
                { class: 'grow' },
                h('div', {}, e.summary),
                h(
                  'div',
                  { class: 'muted' },
                  h('time', { datetime: e.time }, formatTime(e.time)),
                  ' · ',
                  h('span', { title: e.author }, e.authorName || shortID(e.author)),
                  e.field ? ' · ' + e.field : '',
                ),
              ),
            ),
          )
        : h('li', { class: 'empty' }, 'Nothing here yet.'),
    );
  }
  async function load() {
    entries = (await get(`/v1/itineraries/${seg(trip.id)}/activity`)).activity;
    draw();
  }
  return loadedPanel(list, load);
}
