// The Map tab of a trip: its places to go and every item with coordinates (a transport at
// both ends, a stay on each night it covers), filterable by day and by category; with one
// day chosen, the day's located stops are joined in day order. A list beside the map
// shows the same points (a click on one focuses its marker; a marker picks its list entry).
// Data: one GET …/days (every dated item and place to go, in day order, plus unscheduled).
// testids: trip-map (the map box), trip-map-day (select), trip-map-category (select),
// trip-map-list (the list), trip-map-entry (each, data-id = the item or stop id),
// trip-map-count.

import { get, seg } from '../api.js';
import { h, describe } from '../dom.js';
import { rerender } from '../ui.js';
import { TYPES, itemEmoji, whenText, shortDay, loadedPanel } from './trip-common.js';

const located = (loc) => loc && Number.isFinite(loc.latitude) && Number.isFinite(loc.longitude);

/** The map's points from a DayList: [{id (unique per point), item, name, latitude, …, day}]. */
export function mapPoints(dayList) {
  const points = [];
  const seen = new Set();
  const add = (item, loc, date, suffix, label) => {
    const key = `${item.id}${suffix}@${date || ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    points.push({
      id: key,
      itemId: item.id,
      item,
      name: label || item.title,
      latitude: loc.latitude,
      longitude: loc.longitude,
      category: item.type,
      emoji: itemEmoji(item),
      day: date || '',
      address: loc.address || loc.name || '',
      note: whenText(item, date || null),
    });
  };
  const visit = (item, date) => {
    if (item.type === 'transport') {
      if (located(item.location)) add(item, item.location, date, ':from', `${item.title} (from ${item.location.name || 'departure'})`);
      if (located(item.to)) add(item, item.to, date, ':to', `${item.title} (to ${item.to.name || 'arrival'})`);
    } else if (located(item.location)) {
      add(item, item.location, date, '', item.title);
    }
  };
  for (const day of dayList.days) {
    for (const item of day.items) visit(item, day.date);
    if (day.lodging) visit(day.lodging, day.date);
  }
  for (const item of dayList.unscheduled) visit(item, '');
  return points;
}

export async function renderTab(container, trip, ctx) {
  const query = ctx.query || new URLSearchParams();
  const state = { points: [], days: [], day: query.get('day') || '', category: query.get('category') || '', first: true };
  const daySelect = h('select', { 'data-testid': 'trip-map-day', id: 'trip-map-day' });
  const categorySelect = h(
    'select',
    { 'data-testid': 'trip-map-category', id: 'trip-map-category' },
    h('option', { value: '' }, 'Everything'),
    ['lodging', 'transport', 'food', 'activity', 'place'].map((type) =>
      h('option', { value: type, selected: type === state.category }, TYPES[type].emoji + ' ' + TYPES[type].label),
    ),
  );
  const count = h('p', { class: 'muted', 'data-testid': 'trip-map-count', 'aria-live': 'polite' });
  const list = h('ul', { class: 'list trip-map-list', 'data-testid': 'trip-map-list', 'aria-label': 'Points on the map' });
  const mapBox = h('div', { class: 'trip-map-box', 'data-testid': 'trip-map' });
  container.append(
    h(
      'div',
      { class: 'toolbar' },
      h('h3', { class: 'trip-tab-title' }, 'Map'),
      h('label', { for: daySelect.id }, 'Day'),
      daySelect,
      h('label', { for: categorySelect.id }, 'Category'),
      categorySelect,
    ),
    h('div', { class: 'trip-map-layout' }, h('div', { class: 'trip-map-pane' }, mapBox), h('aside', { class: 'trip-map-side' }, count, list)),
  );

  let map = null;
  try {
    const { createMap } = await import('../map.js');
    map = await createMap(mapBox, { height: 'large', label: `Map of ${trip.itinerary.name}` });
  } catch (error) {
    mapBox.classList.add('trip-map-failed');
    mapBox.replaceChildren(h('p', { class: 'field-error', role: 'alert' }, 'The map cannot be shown: ', describe(error)));
  }

  function fillDays() {
    const chosen = state.day;
    daySelect.replaceChildren(
      h('option', { value: '' }, 'All days'),
      ...state.days.map((day) => h('option', { value: day.date, selected: day.date === chosen }, `Day ${day.number}: ${shortDay(day.date)}`)),
    );
  }

  const matches = (p) => (!state.day || p.day === state.day) && (!state.category || p.category === state.category);

  function draw() {
    const shown = state.points.filter(matches);
    // Without a day, one list entry per item or stop (a stay's nights are one point).
    const listed = [];
    const once = new Set();
    for (const p of shown) {
      const key = state.day ? p.id : p.itemId + (p.id.includes(':to') ? ':to' : p.id.includes(':from') ? ':from' : '');
      if (once.has(key)) continue;
      once.add(key);
      listed.push(p);
    }
    count.textContent = `${listed.length} point${listed.length === 1 ? '' : 's'} on the map` + (state.points.length ? '' : ' — give items and places coordinates to see them here');
    rerender(list, () =>
      listed.length
        ? listed.map((p) =>
            h(
              'li',
              { 'data-testid': 'trip-map-entry', dataset: { id: p.itemId, point: p.id } },
              h('button', { type: 'button', class: 'trip-map-entry', dataset: { action: 'focus' } }, h('span', { 'aria-hidden': 'true' }, p.emoji + ' '), p.name),
              h('span', { class: 'muted' }, [p.day ? shortDay(p.day) : 'no day', p.note].filter(Boolean).join(' · ')),
            ),
          )
        : h('li', { class: 'empty' }, 'Nothing with coordinates here.'),
    );
    if (!map) return;
    map.setFilter({ category: state.category || null, day: state.day || null });
    if (state.day) {
      // The day's route: its located items and places in day order (not the stays' nights).
      map.setRoute(
        shown.filter((p) => p.item.type !== 'lodging' || p.item.start.startsWith(state.day)).map((p) => ({ latitude: p.latitude, longitude: p.longitude, name: p.name })),
      );
    } else {
      map.setRoute([]);
    }
  }

  async function load() {
    const dayList = await get(`/v1/itineraries/${seg(trip.id)}/days`);
    state.days = dayList.days;
    state.points = mapPoints(dayList);
    fillDays();
    if (map) map.setPlaces(state.points, { onSelect: (p) => select(p.id) });
    draw();
    if (map && state.first) {
      state.first = false;
      map.fit();
      const wanted = query.get('place');
      if (wanted) {
        const point = state.points.find((p) => p.itemId === wanted);
        if (point) map.focusPlace(point.id);
      }
    }
  }

  function select(pointId) {
    for (const li of list.querySelectorAll('.selected')) li.classList.remove('selected');
    const li = list.querySelector(`[data-point="${CSS.escape(pointId)}"]`);
    if (li) {
      li.classList.add('selected');
      li.scrollIntoView({ block: 'nearest' });
    }
  }

  list.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-action="focus"]');
    if (!button || !map) return;
    const li = button.closest('li');
    map.focusPlace(li.dataset.point);
    select(li.dataset.point);
  });
  daySelect.addEventListener('change', () => {
    state.day = daySelect.value;
    draw();
    if (map) map.fit();
  });
  categorySelect.addEventListener('change', () => {
    state.category = categorySelect.value;
    draw();
    if (map) map.fit();
  });

  const panel = await loadedPanel(list, load);
  return {
    ...panel,
    cleanup() {
      if (map) map.destroy();
    },
  };
}
