// The Warnings tab: what is wrong with the trip (GET …/warnings), each saying what to fix,
// with links to the items it names (they open in the Days tab, highlighted).
// testids: trip-warnings (the list), trip-warning (each, data-code), trip-warnings-none.

import { get, seg } from '../api.js';
import { h } from '../dom.js';
import { rerender } from '../ui.js';
import { loadedPanel } from './trip-common.js';

const LABELS = {
  'lodging-overlap': 'Two stays overlap',
  'night-without-lodging': 'A night without lodging',
  'time-overlap': 'Times overlap',
  'outside-trip': 'Outside the trip’s dates',
  'transport-late': 'Transport arrives late',
  'tight-connection': 'Tight connection',
  'end-before-start': 'Ends before it starts',
  'unknown-time-zone': 'Unknown time zone',
  'dangling-link': 'Linked to something deleted',
  'duplicate-id': 'Duplicate item',
  'day-limit': 'Beyond the days shown',
};

export async function renderTab(container, trip) {
  const list = h('ul', { class: 'list trip-warnings', 'data-testid': 'trip-warnings' });
  container.append(h('h3', { class: 'trip-tab-title' }, 'Warnings'), list);

  async function load() {
    const [warnings, items] = await Promise.all([get(`/v1/itineraries/${seg(trip.id)}/warnings`), get(`/v1/itineraries/${seg(trip.id)}/items`).catch(() => ({ items: [] }))]);
    const titles = new Map(items.items.map((i) => [i.id, i.title]));
    for (const stop of trip.itinerary.places || []) titles.set(stop.id, stop.name);
    rerender(list, () =>
      warnings.warnings.length
        ? warnings.warnings.map((w, index) =>
            h(
              'li',
              { class: 'trip-warning-row', 'data-testid': 'trip-warning', dataset: { code: w.code, id: w.code + ':' + index } },
              h('span', { 'aria-hidden': 'true' }, '⚠️'),
              h(
                'div',
                { class: 'grow' },
                h('strong', {}, LABELS[w.code] || w.code),
                h('p', { class: 'trip-warning-message' }, w.message),
                w.items.length
                  ? h(
                      'div',
                      { class: 'row' },
                      w.items.map((id) => h('a', { href: `#/itineraries/${trip.id}/days?item=${id}` }, 'Show ' + (titles.get(id) || id.slice(0, 8)))),
                    )
                  : null,
              ),
            ),
          )
        : h('li', { class: 'empty', 'data-testid': 'trip-warnings-none' }, '✓ No warnings: the trip looks fine.'),
    );
  }
  return loadedPanel(list, load);
}
