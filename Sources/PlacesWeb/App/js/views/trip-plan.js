// The Plan tab of a trip (issue 31): the same questions as `places plan` — dates, the hours
// of a day out, how you get around, a budget, what you like, the pace, places you must see or
// avoid — answered by POST /v1/plans for this trip; the suggestion is shown day by day and on
// the map before anything is written, and "Apply to this trip" (editors) writes it
// (apply: true). Called by trip.js as renderTab(container, trip, ctx) → { cleanup }.
// testids: plan-tab, plan-form, plan-near, plan-from, plan-to, plan-day-start, plan-day-end, plan-mode,
//   plan-budget-amount, plan-budget-currency, plan-interests, plan-pace, plan-must, plan-avoid,
//   plan-suggest, plan-error, plan-summary, plan-days, plan-day (data-date), plan-stop (data-id,
//   data-arrive), plan-left (each, data-id), plan-map, plan-map-day (select), plan-apply.

import { post } from '../api.js';
import { h, form, flash, describe } from '../dom.js';
import { parseMoney, money, loadSmallMap } from './trip-common.js';

const list = (text) =>
  String(text || '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const clock = (local) => (local || '').slice(11, 16);

export async function renderTab(container, trip) {
  const it = trip.itinerary || {};
  const state = { plan: null, body: null, closed: false, map: null, mapReady: null, day: 0 };
  const input = (label, name, attrs = {}, control = 'input') => {
    const id = 'plan-' + name;
    return h('div', { class: 'field' }, h('label', { for: id }, label), h(control, { id, name, 'data-testid': 'plan-' + (attrs.testid || name), ...attrs, testid: null }));
  };
  const select = (label, name, options, value) => {
    const el = h(
      'select',
      { id: 'plan-' + name, name, 'data-testid': 'plan-' + name },
      options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)),
    );
    return h('div', { class: 'field' }, h('label', { for: el.id }, label), el);
  };

  const errorSlot = h('div', { 'data-testid': 'plan-error', 'aria-live': 'polite' });
  const summary = h('p', { class: 'muted', 'data-testid': 'plan-summary', 'aria-live': 'polite' });
  const daysEl = h('div', { class: 'plan-days', 'data-testid': 'plan-days' });
  const leftEl = h('div', { class: 'plan-left' });
  const mapDay = h('select', { id: 'plan-map-day', 'data-testid': 'plan-map-day', 'aria-label': 'Day on the map' });
  const mapEl = h('div', { class: 'route-map', 'data-testid': 'plan-map' });
  const actions = h('div', { class: 'toolbar' });

  const el = form(
    { class: 'card plan-form', 'data-testid': 'plan-form', 'aria-label': 'Suggest a plan' },
    [
      input('Where (a city, one of your places, or LAT,LON; default: the trip’s stay or places)', 'near', { autocomplete: 'off' }),
      h(
        'div',
        { class: 'row' },
        input('From', 'from', { type: 'date', value: it.startDate || '' }),
        input('To', 'to', { type: 'date', value: it.endDate || '' }),
        input('Day starts', 'dayStart', { type: 'time', value: '09:30', testid: 'day-start' }),
        input('Day ends', 'dayEnd', { type: 'time', value: '19:00', testid: 'day-end' }),
      ),
      h(
        'div',
        { class: 'row' },
        select(
          'Getting around',
          'mode',
          [
            ['', 'The trip’s mode'],
            ['walking', 'Walking'],
            ['cycling', 'Cycling'],
            ['driving', 'Driving'],
          ],
          '',
        ),
        input('Budget', 'budgetAmount', { inputmode: 'decimal', placeholder: 'No budget', testid: 'budget-amount' }),
        input('Currency', 'budgetCurrency', { value: 'EUR', maxlength: 3, testid: 'budget-currency' }),
        select(
          'Pace',
          'pace',
          [
            ['relaxed', 'Relaxed'],
            ['normal', 'Normal'],
            ['packed', 'Packed'],
          ],
          'normal',
        ),
      ),
      input('I like (comma-separated categories)', 'interests', { placeholder: 'food, museum', autocomplete: 'off' }),
      h('div', { class: 'row' }, input('Must see (comma-separated places)', 'must', { autocomplete: 'off' }), input('Avoid', 'avoid', { autocomplete: 'off' })),
      h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'primary', 'data-testid': 'plan-suggest' }, 'Suggest a plan')),
    ],
    async (values) => {
      const body = { itinerary: trip.id, dayStart: values.dayStart || undefined, dayEnd: values.dayEnd || undefined, pace: values.pace };
      if (values.near && values.near.trim()) body.near = values.near.trim();
      if (values.from) body.startDate = values.from;
      if (values.to) body.endDate = values.to;
      if (values.mode) body.mode = values.mode;
      const budget = parseMoney(values.budgetAmount, values.budgetCurrency, 'budgetAmount');
      if (budget) body.budget = budget;
      for (const key of ['interests', 'must', 'avoid']) {
        const l = list(values[key]);
        if (l.length) body[key] = l;
      }
      errorSlot.replaceChildren();
      summary.textContent = 'Planning…';
      try {
        state.plan = await post('/v1/plans', body);
        state.body = body;
        render();
      } catch (error) {
        summary.textContent = '';
        errorSlot.replaceChildren(h('p', { class: 'field-error' }, describe(error)));
        if (error.field) throw error;
      }
    },
  );

  container.replaceChildren(
    h(
      'section',
      { class: 'plan-tab', 'data-testid': 'plan-tab', 'aria-label': 'Plan' },
      el,
      errorSlot,
      summary,
      actions,
      h('div', { class: 'route-body' }, h('div', {}, mapDay, mapEl), h('div', {}, daysEl, leftEl)),
    ),
  );

  function render() {
    const plan = state.plan;
    const stops = plan.days.reduce((n, d) => n + d.stops.length, 0);
    summary.textContent = `${plan.days.length} day${plan.days.length === 1 ? '' : 's'}, ${stops} stop${stops === 1 ? '' : 's'}, ${plan.mode}, cost ${money(plan.cost)}${plan.budget ? ' of ' + money(plan.budget) : ''}${plan.note ? ' — ' + plan.note : ''}`;
    daysEl.replaceChildren(
      ...plan.days.map((day) =>
        h(
          'div',
          { class: 'card plan-day', 'data-testid': 'plan-day', 'data-date': day.date },
          h('h3', {}, day.date),
          day.stops.length
            ? h(
                'ol',
                { class: 'plan-stops' },
                day.stops.map((stop) =>
                  h(
                    'li',
                    { 'data-testid': 'plan-stop', 'data-id': stop.placeId, 'data-arrive': stop.arrive },
                    h('strong', {}, `${clock(stop.arrive)}–${clock(stop.leave)} `),
                    stop.name,
                    stop.travelMinutesBefore ? h('span', { class: 'muted' }, ` · ${stop.travelMinutesBefore} min before`) : null,
                    stop.reasons.length ? h('div', { class: 'muted' }, stop.reasons.join('; ')) : null,
                  ),
                ),
              )
            : h('p', { class: 'muted' }, 'Nothing planned.'),
          h('p', { class: 'muted' }, `Back at the stay ${clock(day.backAt)} · travel ${day.travelMinutes} min · ${day.distanceKm} km · ${money(day.cost)}`),
        ),
      ),
    );
    leftEl.replaceChildren(
      ...(plan.leftOut.length
        ? [
            h('h3', {}, 'Left out'),
            h(
              'ul',
              {},
              plan.leftOut.map((l) => h('li', { 'data-testid': 'plan-left', 'data-id': l.placeId }, `${l.name} — ${l.reason}`)),
            ),
          ]
        : []),
    );
    mapDay.replaceChildren(...plan.days.map((day, i) => h('option', { value: String(i), selected: i === state.day }, day.date)));
    actions.replaceChildren(trip.canEdit && stops ? h('button', { type: 'button', class: 'primary', 'data-testid': 'plan-apply', onclick: apply }, 'Apply to this trip') : null);
    showDay();
  }

  async function apply(event) {
    const button = event.currentTarget;
    button.disabled = true;
    try {
      await post('/v1/plans', { ...state.body, apply: true });
      flash('The plan was added to the trip’s days.', 'info');
    } catch (error) {
      errorSlot.replaceChildren(h('p', { class: 'field-error' }, describe(error)));
    } finally {
      button.disabled = false;
    }
  }

  function showDay() {
    const day = state.plan && state.plan.days[state.day];
    if (!day) return;
    const stay = state.plan.stay;
    const points = [
      { ...stay, name: 'Stay' },
      ...day.stops.filter((s) => typeof s.latitude === 'number').map((s) => ({ latitude: s.latitude, longitude: s.longitude, name: `${clock(s.arrive)} ${s.name}` })),
      { ...stay, name: 'Stay' },
    ];
    if (!state.mapReady) {
      state.mapReady = loadSmallMap(mapEl, 'Map of the suggested day', state);
    }
    state.mapReady.then((m) => {
      if (!m || state.closed) return;
      m.setRoute(points);
      m.fit();
    });
  }
  mapDay.addEventListener('change', () => {
    state.day = Number(mapDay.value) || 0;
    showDay();
  });

  return {
    cleanup() {
      state.closed = true;
      if (state.map) state.map.destroy();
    },
  };
}
