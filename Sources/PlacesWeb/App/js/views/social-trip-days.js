// A published trip's days, read-only (explore-trip.js), and its route panel: a map of the
// trip or of one day's route (GET /v1/explore/{id}/route?day=N), the stops in visiting
// order with the legs' distances and times, and a GPX download.
// testids: explore-days, explore-day (data-number, data-date), explore-day-route
//   (button), explore-item (data-id, data-type), explore-unscheduled, explore-map,
//   explore-route (form), explore-route-day, explore-route-mode, explore-route-by,
//   explore-route-summary, explore-route-stop, explore-route-gpx

import { get, query, seg } from '../api.js';
import { h, mount, formatDate, formatMoney, download, showError } from '../dom.js';
import { plural } from '../ui.js';

const ICONS = { lodging: '🛏', transport: '🚆', food: '🍽', activity: '🎟', place: '📍' };
const TYPE_WORDS = { lodging: 'Stay', transport: 'Transport', food: 'Food', activity: 'Activity', place: 'Place to go' };

// One Intl formatter per currency: building one per item made a 500-item trip slow.
const moneyFormats = new Map();
function money(m) {
  let format = moneyFormats.get(m.currency);
  if (format === undefined) {
    try {
      const probe = new Intl.NumberFormat(undefined, { style: 'currency', currency: m.currency });
      const digits = probe.resolvedOptions().maximumFractionDigits;
      format = { digits, nf: probe };
    } catch {
      format = null;
    }
    moneyFormats.set(m.currency, format);
  }
  if (!format) return formatMoney(m);
  return format.nf.format(m.amountMinor / 10 ** format.digits);
}

const timeOf = (local) => (local && local.length > 10 ? local.slice(11, 16) : '');

/** One item of a day, as text. */
export function itemRow(item, date) {
  const time = timeOf(item.start);
  const end = timeOf(item.end);
  const endDay = item.end && item.end.slice(0, 10);
  const details = [];
  if (item.type === 'transport') {
    details.push([item.mode, item.carrier].filter(Boolean).join(' · '));
    if (item.location && item.location.name && item.to && item.to.name) details.push(`${item.location.name} → ${item.to.name}`);
    else if (item.to && item.to.name) details.push('to ' + item.to.name);
  } else if (item.location && (item.location.name || item.location.address)) {
    const where = [item.location.name !== item.title ? item.location.name : null, item.location.address].filter(Boolean).join(', ');
    if (where) details.push(where);
  }
  if (item.type === 'food') {
    if (typeof item.rating === 'number') details.push('★ ' + item.rating);
    if (item.recommendation) details.push(item.recommendation);
  }
  if (item.type === 'activity' && item.description) details.push(item.description);
  if (item.type === 'lodging' && item.end) details.push('until ' + formatDate(endDay) + (end ? ' ' + end : ''));
  return h(
    'li',
    { class: ['ex-item', 'type-' + item.type], dataset: { testid: 'explore-item', id: item.id, type: item.type } },
    h('span', { class: 'ex-time' }, time ? time + (end && endDay === date && item.type !== 'lodging' ? '–' + end : '') : ''),
    h('span', { class: 'ex-icon', role: 'img', 'aria-label': TYPE_WORDS[item.type] || item.type }, ICONS[item.type] || '•'),
    h(
      'span',
      { class: 'grow' },
      h('span', { class: 'ex-title' }, item.title),
      details.filter(Boolean).length ? h('span', { class: 'muted ex-details' }, ' — ', details.filter(Boolean).join(' · ')) : null,
    ),
    item.price ? h('span', { class: 'ex-price' }, money(item.price)) : null,
  );
}

/** The days as sections; `onRoute(number)` is the "Route of this day" button's action. */
export function daysView(trip, onRoute) {
  const sections = trip.days.map((day) => {
    const located = day.items.some((i) => i.location && typeof i.location.latitude === 'number');
    return h(
      'section',
      { class: 'ex-day card', dataset: { testid: 'explore-day', number: day.number, date: day.date }, 'aria-labelledby': 'day-h-' + day.number },
      h(
        'div',
        { class: 'row ex-day-head' },
        h('h3', { id: 'day-h-' + day.number, class: 'grow' }, `Day ${day.number} · ${formatDate(day.date)}`),
        located
          ? h(
              'button',
              { type: 'button', dataset: { testid: 'explore-day-route' }, 'aria-label': `Route of day ${day.number}`, onclick: () => onRoute(day.number) },
              'Route of this day',
            )
          : null,
      ),
      day.items.length
        ? h(
            'ul',
            { class: 'ex-items' },
            day.items.map((item) => itemRow(item, day.date)),
          )
        : h('p', { class: 'empty' }, 'Nothing planned.'),
      day.lodging ? h('p', { class: 'muted ex-day-lodging' }, '🛏 Night at ', day.lodging.title) : null,
    );
  });
  const unscheduled =
    trip.unscheduled && trip.unscheduled.length
      ? h(
          'section',
          { class: 'ex-day card', dataset: { testid: 'explore-unscheduled' } },
          h('h3', {}, 'Not on a day'),
          h(
            'ul',
            { class: 'ex-items' },
            trip.unscheduled.map((item) => itemRow(item, null)),
          ),
        )
      : null;
  return h('div', { class: 'ex-days', dataset: { testid: 'explore-days' } }, sections.length ? sections : h('p', { class: 'empty' }, 'This trip has no days.'), unscheduled);
}

/** Every located item and place to go of the trip, for the map, with its day number. */
export function tripPlaces(trip) {
  const places = [];
  for (const day of trip.days) {
    for (const item of day.items) {
      const at = item.location;
      if (at && typeof at.latitude === 'number' && typeof at.longitude === 'number') {
        places.push({
          id: day.number + ':' + item.id,
          name: item.title,
          latitude: at.latitude,
          longitude: at.longitude,
          category: item.type,
          emoji: ICONS[item.type],
          day: day.number,
          note: formatDate(day.date),
        });
      }
    }
  }
  for (const item of trip.unscheduled || []) {
    const at = item.location;
    if (at && typeof at.latitude === 'number')
      places.push({ id: 'u:' + item.id, name: item.title, latitude: at.latitude, longitude: at.longitude, category: item.type, emoji: ICONS[item.type] });
  }
  return places;
}

function distance(meters) {
  return meters >= 1000 ? (meters / 1000).toFixed(1) + ' km' : Math.round(meters) + ' m';
}

function duration(seconds) {
  const minutes = Math.round(seconds / 60);
  return minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
}

/**
 * The map and route panel. Answers { el, setTrip(trip), showDay(number), destroy() }.
 */
export function routePanel(initialTrip) {
  let trip = initialTrip;
  let map = null;
  let mapFailed = false;
  let seq = 0;
  const mapBox = h('div', { class: 'explore-map', dataset: { testid: 'explore-map' } });
  const daySelect = h('select', { id: 'route-day', name: 'day', dataset: { testid: 'explore-route-day' } });
  const modeSelect = h(
    'select',
    { id: 'route-mode', name: 'mode', dataset: { testid: 'explore-route-mode' } },
    ['walking', 'cycling', 'driving'].map((m) => h('option', { value: m }, m[0].toUpperCase() + m.slice(1))),
  );
  const bySelect = h(
    'select',
    { id: 'route-by', name: 'by', dataset: { testid: 'explore-route-by' } },
    h('option', { value: 'duration' }, 'Shortest time'),
    h('option', { value: 'distance' }, 'Shortest distance'),
  );
  const gpx = h('button', { type: 'button', hidden: true, dataset: { testid: 'explore-route-gpx' } }, 'Download GPX');
  const summary = h('div', { class: 'route-summary', role: 'status', dataset: { testid: 'explore-route-summary' } });
  const controls = h(
    'form',
    { class: 'row route-controls', dataset: { testid: 'explore-route' }, 'aria-label': 'Route', novalidate: true },
    h('div', { class: 'field' }, h('label', { for: 'route-day' }, 'Show'), daySelect),
    h('div', { class: 'field' }, h('label', { for: 'route-mode' }, 'Travel by'), modeSelect),
    h('div', { class: 'field' }, h('label', { for: 'route-by' }, 'Order by'), bySelect),
    h('div', { class: 'field route-gpx' }, gpx),
  );
  controls.addEventListener('submit', (event) => event.preventDefault());
  controls.addEventListener('change', () => plan());
  gpx.addEventListener('click', async () => {
    try {
      await download(routePath('gpx'), `${trip.name.replace(/[^\p{L}\p{N} _-]+/gu, '').trim() || 'trip'}-day-${daySelect.value}.gpx`, 'application/gpx+xml');
    } catch (error) {
      showError(gpx, error);
    }
  });

  const el = h('section', { class: 'card route-panel', 'aria-labelledby': 'route-h' }, h('h3', { id: 'route-h' }, 'Map and routes'), controls, mapBox, summary);

  function routePath(format) {
    return '/v1/explore/' + seg(trip.id) + '/route' + query({ day: daySelect.value, mode: modeSelect.value, by: bySelect.value, format: format === 'json' ? '' : format });
  }

  function setTrip(next) {
    trip = next;
    const value = daySelect.value || 'all';
    daySelect.replaceChildren(
      h('option', { value: 'all' }, 'The whole trip'),
      ...trip.days.map((d) => h('option', { value: String(d.number) }, `Day ${d.number} · ${formatDate(d.date)}`)),
    );
    daySelect.value = [...daySelect.options].some((o) => o.value === value) ? value : 'all';
    if (!modeSelect.dataset.touched) modeSelect.value = trip.travelMode || 'walking';
    plan();
  }
  modeSelect.addEventListener('change', () => {
    modeSelect.dataset.touched = 'true';
  });

  async function ensureMap() {
    if (map || mapFailed) return map;
    try {
      const { createMap } = await import('../map.js');
      map = await createMap(mapBox, { height: 'small', label: 'Map of ' + trip.name });
    } catch (error) {
      mapFailed = true;
      mount(mapBox, h('p', { class: 'muted' }, 'The map could not be shown: ' + error.message));
    }
    return map;
  }

  async function plan() {
    const mine = ++seq;
    const all = daySelect.value === 'all';
    modeSelect.disabled = all;
    bySelect.disabled = all;
    gpx.hidden = all;
    const m = await ensureMap();
    if (mine !== seq) return;
    if (all) {
      const places = tripPlaces(trip);
      if (m) {
        m.setPlaces(places);
        m.setRoute([]);
        m.fit();
      }
      mount(
        summary,
        h(
          'p',
          { class: 'muted' },
          places.length
            ? `${plural(places.length, 'place')} on ${plural(trip.days.length, 'day')}. Choose a day to see its route.`
            : 'Nothing of this trip has a position on the map.',
        ),
      );
      return;
    }
    mount(summary, h('p', { class: 'muted' }, 'Planning the route…'));
    let plan;
    try {
      plan = await get(routePath('json'));
    } catch (error) {
      if (mine !== seq) return;
      const target = { mode: modeSelect, by: bySelect }[error.field] || daySelect;
      mount(summary);
      showError(target, error);
      return;
    }
    if (mine !== seq) return;
    for (const box of controls.querySelectorAll('.field-error')) box.remove();
    const stops = plan.stops.map((s) => s.place);
    if (m) {
      m.setPlaces(
        stops.map((p, i) => ({
          id: p.id + ':' + i,
          name: p.name,
          latitude: p.latitude,
          longitude: p.longitude,
          category: p.type || 'place',
          emoji: ICONS[p.type || 'place'],
          day: Number(daySelect.value),
        })),
      );
      m.setRoute(plan.roundTrip && stops.length > 1 ? [...stops, stops[0]] : stops);
      m.fit();
    }
    if (!stops.length) {
      mount(summary, h('p', { class: 'muted' }, 'No stop of this day has a position.'));
      gpx.hidden = true;
      return;
    }
    const times = new Map((plan.schedule || []).map((s) => [s.id, s]));
    mount(
      summary,
      h(
        'p',
        {},
        `${plural(stops.length, 'stop')} · ${distance(plan.totals.distanceMeters)} · ${duration(plan.totals.durationSeconds)} ${plan.mode}`,
        plan.optimal ? h('span', { class: 'muted' }, ' (the best order)') : null,
      ),
      h(
        'ol',
        { class: 'route-stops' },
        plan.stops.map((s, i) => {
          const leg = plan.legs[i - 1];
          const at = times.get(s.place.id);
          return h(
            'li',
            { dataset: { testid: 'explore-route-stop', id: s.place.id } },
            leg ? h('span', { class: 'muted route-leg' }, `${distance(leg.distanceMeters)}, ${duration(leg.durationSeconds)} → `) : null,
            h('span', { class: 'ex-title' }, s.place.name),
            at && at.arrival ? h('span', { class: 'muted' }, ' · arrive ' + at.arrival) : null,
            at && at.lateMinutes ? h('span', { class: 'field-error' }, ` (${at.lateMinutes} min late)`) : null,
          );
        }),
      ),
    );
  }

  return {
    el,
    setTrip,
    showDay(number) {
      daySelect.value = String(number);
      plan();
      el.scrollIntoView({ behavior: 'smooth', block: 'start' });
      daySelect.focus({ preventScroll: true });
    },
    destroy() {
      seq++;
      if (map) map.destroy();
      map = null;
    },
  };
}
