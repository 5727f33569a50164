// The Route tab of a trip: the best order through the places to go (or through one day's
// stops, `sub` = a day number or date), by walking, cycling or driving, shortest in time or
// distance, open or round trip, from and to chosen stops; the legs in order with a schedule
// on day routes, totals, a map, "Apply this order" for editors, Google Maps links, GPX and
// calendar downloads. Called by trip.js as renderTab(container, trip, ctx) → { refresh, cleanup }.
// testids: route-tab, route-day (select), route-mode-<walking|cycling|driving>,
//   route-criterion-<duration|distance>, route-roundtrip, route-start, route-end,
//   route-error, route-totals (data-optimal), route-legs, route-leg (each, in order, data-from,
//   data-to), route-stop-list, route-stop (data-id), route-late, route-map, route-apply,
//   route-gmaps (each link, data-part), route-gpx, route-ics.

import { get, post, seg, query } from '../api.js';
import { h, mount, download, flash, describe, empty, formatDate, showError, clearErrors } from '../dom.js';
import { debounce, rerender, toggle } from '../ui.js';
import { setSubRoute, loadSmallMap } from './trip-common.js';

const MODES = [
  ['walking', 'Walk'],
  ['cycling', 'Cycle'],
  ['driving', 'Drive'],
];
const CRITERIA = [
  ['duration', 'Fastest'],
  ['distance', 'Shortest'],
];

export function distance(meters) {
  if (meters < 1000) return `${Math.round(meters)} m`;
  return `${(meters / 1000).toFixed(meters < 100000 ? 1 : 0)} km`;
}

export function duration(seconds) {
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

function fileName(trip, suffix) {
  const name =
    ((trip.itinerary && trip.itinerary.name) || 'trip')
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'trip';
  return `${name}${suffix}`;
}

export async function renderTab(container, trip, _ctx) {
  const base = `/v1/itineraries/${seg(trip.id)}`;
  const state = {
    day: trip.sub || '',
    mode: null,
    by: null,
    roundTrip: null,
    start: '',
    end: '',
    days: [],
    plan: null,
    gmaps: null,
    error: null,
    seq: 0,
    closed: false,
    map: null,
  };

  const daySelect = h('select', { id: 'route-day-select', dataset: { testid: 'route-day' } });
  const modeGroup = h('div', { class: 'row toggles', role: 'group', 'aria-label': 'Travel mode' });
  const criterionGroup = h('div', { class: 'row toggles', role: 'group', 'aria-label': 'Optimise for' });
  const roundTrip = h('input', { type: 'checkbox', id: 'route-round', dataset: { testid: 'route-roundtrip' } });
  const startSelect = h('select', { id: 'route-start-select', name: 'start', dataset: { testid: 'route-start' } });
  const endSelect = h('select', { id: 'route-end-select', name: 'end', dataset: { testid: 'route-end' } });
  const controls = h(
    'div',
    { class: 'card route-controls' },
    h(
      'div',
      { class: 'row' },
      h('div', { class: 'field' }, h('label', { for: daySelect.id }, 'Route of'), daySelect),
      h('div', { class: 'field' }, h('span', { class: 'label', id: 'route-mode-l' }, 'By'), modeGroup),
      h('div', { class: 'field' }, h('span', { class: 'label' }, 'Optimise'), criterionGroup),
    ),
    h(
      'div',
      { class: 'row' },
      h('div', { class: 'field' }, h('label', { for: startSelect.id }, 'Start at'), startSelect),
      h('div', { class: 'field' }, h('label', { for: endSelect.id }, 'End at'), endSelect),
      h('label', { for: roundTrip.id, class: 'inline' }, roundTrip, ' Back to the start'),
    ),
  );
  const errorSlot = h('div', { dataset: { testid: 'route-error' }, 'aria-live': 'polite' });
  const totals = h('div', { class: 'route-totals', dataset: { testid: 'route-totals' }, 'aria-live': 'polite' });
  const mapEl = h('div', { class: 'route-map', dataset: { testid: 'route-map' } });
  const legs = h('div', { class: 'route-legs-slot' });
  const actions = h('div', { class: 'toolbar route-actions' });
  container.replaceChildren(
    h(
      'section',
      { class: 'route-tab', dataset: { testid: 'route-tab' }, 'aria-label': 'Route' },
      controls,
      errorSlot,
      totals,
      actions,
      h('div', { class: 'route-body' }, mapEl, legs),
    ),
  );

  const params = (extra = {}) => ({
    day: state.day || undefined,
    mode: state.mode || undefined,
    by: state.by || undefined,
    roundTrip: state.roundTrip === null ? undefined : String(state.roundTrip),
    start: state.start || undefined,
    end: state.end || undefined,
    ...extra,
  });

  function renderDays() {
    const options = [h('option', { value: '' }, 'All places to go')];
    for (const d of state.days) {
      options.push(h('option', { value: String(d.number), selected: state.day === String(d.number) || state.day === d.date }, `Day ${d.number} · ${formatDate(d.date)}`));
    }
    daySelect.replaceChildren(...options);
    if (!state.day) daySelect.value = '';
  }

  function renderToggles() {
    const plan = state.plan;
    const mode = state.mode || (plan && plan.mode) || (trip.itinerary && trip.itinerary.travelMode) || 'walking';
    const by = state.by || (plan && plan.criterion) || 'duration';
    rerender(
      modeGroup,
      MODES.map(([value, label]) =>
        toggle(
          label,
          value,
          value === mode,
          (v) => {
            state.mode = v;
            update();
          },
          { dataset: { testid: 'route-mode-' + value, value } },
        ),
      ),
    );
    rerender(
      criterionGroup,
      CRITERIA.map(([value, label]) =>
        toggle(
          label,
          value,
          value === by,
          (v) => {
            state.by = v;
            update();
          },
          { dataset: { testid: 'route-criterion-' + value, value } },
        ),
      ),
    );
    roundTrip.checked = plan ? plan.roundTrip : !!state.roundTrip;
    const stops = plan ? [...plan.stops].map((s) => s.place) : [];
    const unique = [...new Map(stops.map((p) => [p.id, p])).values()].sort((a, b) => a.name.localeCompare(b.name));
    const free = state.day ? 'Default (the lodging, if any)' : 'Anywhere (free)';
    for (const [select, value, label] of [
      [startSelect, state.start, free],
      [endSelect, state.end, free],
    ]) {
      if (select === document.activeElement) continue;
      select.replaceChildren(h('option', { value: '' }, label), ...unique.map((p) => h('option', { value: p.id }, p.name)));
      select.value = unique.some((p) => p.id === value) ? value : '';
    }
  }

  function renderPlan() {
    const plan = state.plan;
    clearErrors(errorSlot);
    errorSlot.replaceChildren();
    if (state.error) {
      const anchor = { start: startSelect, end: endSelect, day: daySelect, mode: modeGroup, by: criterionGroup, roundTrip }[state.error.field];
      if (anchor) showError(anchor, state.error);
      else errorSlot.append(h('p', { class: 'field-error', role: 'alert' }, describe(state.error)));
    } else {
      for (const el of controls.querySelectorAll('.field-error')) el.remove();
    }
    if (!plan) {
      totals.replaceChildren();
      rerender(legs, []);
      renderActions();
      return;
    }
    const byId = new Map(plan.stops.map((s) => [s.place.id, s.place]));
    const schedule = new Map((plan.schedule || []).map((s) => [s.id, s]));
    const late = new Set(plan.lateStops || []);
    totals.dataset.optimal = plan.optimal ? 'true' : 'false';
    mount(
      totals,
      plan.stops.length
        ? h(
            'span',
            {},
            h('strong', {}, distance(plan.totals.distanceMeters)),
            ' · ',
            h('strong', {}, duration(plan.totals.durationSeconds)),
            ` · ${plan.stops.length} stop${plan.stops.length === 1 ? '' : 's'}${plan.roundTrip ? ', round trip' : ''}`,
            plan.date ? ` · ${formatDate(plan.date)}` : '',
          )
        : null,
      plan.stops.length > 1 ? h('span', { class: 'muted' }, plan.optimal ? ' · the best order' : ' · a good order (not proven the best)') : null,
      late.size
        ? h(
            'p',
            { class: 'field-error', dataset: { testid: 'route-late' } },
            `This order reaches ${late.size} timed stop${late.size === 1 ? '' : 's'} late: ${[...late].map((id) => (byId.get(id) || {}).name || id).join(', ')}.`,
          )
        : null,
    );
    if (!plan.stops.length) {
      rerender(legs, empty(state.day ? 'No stop of this day has a location yet.' : 'No places to go with a location yet: add some to plan a route.'));
      renderActions();
      setMap([]);
      return;
    }
    const times = (id) => {
      const s = schedule.get(id);
      if (!s) return null;
      const parts = [
        s.arrival ? `arrive ${s.arrival}` : null,
        s.fixed ? `booked ${s.fixed}` : null,
        s.departure ? `leave ${s.departure}` : null,
        s.lateMinutes ? `${s.lateMinutes} min late` : null,
      ].filter(Boolean);
      return parts.length ? h('span', { class: ['muted', s.lateMinutes ? 'late' : ''] }, ' · ' + parts.join(' · ')) : null;
    };
    const first = plan.stops[0].place;
    rerender(legs, [
      h(
        'ol',
        { class: 'list route-legs', dataset: { testid: 'route-legs' }, 'aria-label': 'Legs in order' },
        h(
          'li',
          { class: 'route-start', dataset: { testid: 'route-stop', id: first.id } },
          h('span', { class: 'leg-number' }, '1'),
          h('div', { class: 'grow' }, h('strong', {}, first.name), first.type ? h('span', { class: 'muted' }, ` (${first.type})`) : null, times(first.id)),
        ),
        plan.legs.map((leg, i) => {
          const to = byId.get(leg.to) || { name: leg.to };
          const from = byId.get(leg.from) || { name: leg.from };
          const closing = i >= plan.stops.length - 1;
          return h(
            'li',
            { class: ['route-leg', late.has(leg.to) ? 'late' : ''], dataset: { testid: 'route-leg', from: leg.from, to: leg.to, index: i } },
            h('span', { class: 'leg-number' }, closing ? '↩' : String(i + 2)),
            h(
              'div',
              { class: 'grow' },
              h('strong', {}, to.name),
              to.type ? h('span', { class: 'muted' }, ` (${to.type})`) : null,
              closing ? h('span', { class: 'muted' }, ' (back to the start)') : times(leg.to),
              h('div', { class: 'muted' }, `from ${from.name}`),
            ),
            h('span', { class: 'leg-figures' }, distance(leg.distanceMeters), ' · ', duration(leg.durationSeconds)),
          );
        }),
      ),
    ]);
    renderActions();
    setMap(plan.stops.map((s) => ({ latitude: s.place.latitude, longitude: s.place.longitude, name: s.place.name })));
  }

  function renderActions() {
    const plan = state.plan;
    const list = [];
    if (plan && plan.stops.length > 1 && trip.canEdit && !state.day) {
      list.push(h('button', { type: 'button', class: 'primary', dataset: { testid: 'route-apply' }, onclick: (e) => apply(e.currentTarget) }, 'Apply this order'));
    }
    const urls = (state.gmaps && state.gmaps.urls) || [];
    urls.forEach((url, i) => {
      list.push(
        h(
          'a',
          { class: 'button', href: url, target: '_blank', rel: 'noopener noreferrer', dataset: { testid: 'route-gmaps', part: i + 1 } },
          urls.length > 1 ? `Google Maps, part ${i + 1} of ${urls.length}` : 'Open in Google Maps',
        ),
      );
    });
    if (plan && plan.stops.length) {
      list.push(
        h(
          'button',
          {
            type: 'button',
            dataset: { testid: 'route-gpx' },
            onclick: (e) =>
              save(e.currentTarget, `${base}/route${query(params({ format: 'gpx' }))}`, fileName(trip, state.day ? `-day-${state.day}.gpx` : '.gpx'), 'application/gpx+xml'),
          },
          'Download GPX',
        ),
      );
    }
    list.push(
      h(
        'button',
        { type: 'button', dataset: { testid: 'route-ics' }, onclick: (e) => save(e.currentTarget, `${base}/calendar`, fileName(trip, '.ics'), 'text/calendar') },
        'Add to calendar (.ics)',
      ),
    );
    if (state.gmaps && state.gmaps.note) list.push(h('p', { class: 'muted' }, state.gmaps.note));
    rerender(actions, list);
  }

  async function save(button, path, name, accept) {
    button.disabled = true;
    try {
      await download(path, name, accept);
    } catch (error) {
      showError(button, error);
    } finally {
      button.disabled = false;
    }
  }

  async function apply(button) {
    button.disabled = true;
    try {
      const p = params();
      delete p.day;
      await post(`${base}/route/apply${query(p)}`);
      flash('The places to go are now in this order.', 'ok');
      await update();
    } catch (error) {
      if (button.isConnected) showError(button, error);
    } finally {
      button.disabled = false;
    }
  }

  let mapReady = null;
  let pendingPoints = null;
  function setMap(points) {
    pendingPoints = points;
    if (!mapReady) {
      mapReady = loadSmallMap(mapEl, 'Map of the route', state);
    }
    mapReady.then((m) => {
      if (!m || state.closed || pendingPoints !== points) return;
      m.setRoute(points);
      m.fit();
    });
  }

  async function update() {
    const seq = ++state.seq;
    const p = params();
    const [plan, gmaps] = await Promise.allSettled([get(`${base}/route${query(p)}`), get(`${base}/route${query({ ...p, format: 'gmaps' })}`)]);
    if (seq !== state.seq || state.closed) return;
    if (plan.status === 'fulfilled') {
      state.plan = plan.value;
      state.error = null;
    } else {
      state.error = plan.reason;
      if (plan.reason && plan.reason.field === 'day') state.plan = null;
    }
    state.gmaps = gmaps.status === 'fulfilled' ? gmaps.value : null;
    renderToggles();
    renderPlan();
  }

  async function loadDays() {
    try {
      state.days = (await get(`${base}/days`)).days || [];
    } catch {
      state.days = [];
    }
    renderDays();
  }

  daySelect.addEventListener('change', () => {
    state.day = daySelect.value;
    state.start = '';
    state.end = '';
    state.roundTrip = null;
    setSubRoute(trip.id, 'route', state.day || undefined);
    update();
  });
  roundTrip.addEventListener('change', () => {
    state.roundTrip = roundTrip.checked;
    update();
  });
  startSelect.addEventListener('change', () => {
    state.start = startSelect.value;
    update();
  });
  endSelect.addEventListener('change', () => {
    state.end = endSelect.value;
    update();
  });

  await Promise.all([loadDays(), update()]);

  const refresh = debounce(() => {
    if (state.closed) return;
    Promise.all([loadDays(), update()]).catch((error) => flash(describe(error)));
  }, 30);
  return {
    refresh() {
      refresh();
    },
    cleanup() {
      state.closed = true;
      refresh.cancel();
      if (state.map) {
        try {
          state.map.destroy();
        } catch {
          /* already gone */
        }
        state.map = null;
      }
    },
  };
}
