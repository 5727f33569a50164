// #/explore/:id — one published trip, read-only: who published it and to whom, its
// dates, countries and cities, likes, costs, a map with each day's route, its days with
// their items, like and save, and "Use as template" (a start date, and optionally a new
// name → POST /v1/itineraries {from, startDate, name} → #/itineraries/NEW). Live: the
// author updating or withdrawing it, or a like, shows within a second; the template
// form keeps what was typed.
// testids: explore-trip-detail (data-id), explore-trip-name, explore-trip-author,
//   explore-likes, explore-like, explore-save, explore-costs, explore-template (form),
//   explore-template-start, explore-template-name, explore-template-submit,
//   explore-gone (when the trip is withdrawn or no longer visible); the days and the
//   route panel: see social-trip-days.js

import { get, post, seg } from '../api.js';
import { h, mount, form, formatMoney, formatTime } from '../dom.js';
import { personLink, audienceLabel, refresher } from './social-common.js';
import { tripDates, likesLine, tripButtons, placesLine } from './social-trip.js';
import { daysView, routePanel } from './social-trip-days.js';

const COST_WORDS = { lodging: 'Stays', transport: 'Transport', food: 'Food', activity: 'Activities' };

export async function render(main, params, ctx) {
  const me = ctx.status && ctx.status.id;
  const friends = new Map();
  let trip;
  try {
    const [detail, list] = await Promise.all([get('/v1/explore/' + seg(params.id)), get('/v1/friends').catch(() => ({ friends: [] }))]);
    trip = detail;
    for (const f of list.friends) friends.set(f.id, f);
  } catch (error) {
    if (error.status === 404) {
      gone(main, error);
      return undefined;
    }
    throw error;
  }

  const head = h('header', { class: 'card ex-head' });
  const days = h('div', { class: 'ex-days-box' });
  const route = routePanel(trip);

  const start = h('input', { id: 'template-start', type: 'date', name: 'startDate', required: true, value: trip.startDate || '', dataset: { testid: 'explore-template-start' } });
  const name = h('input', { id: 'template-name', name: 'name', maxlength: 200, placeholder: trip.name, dataset: { testid: 'explore-template-name' } });
  const template = form(
    { class: 'card template-form', dataset: { testid: 'explore-template' }, 'aria-labelledby': 'template-h' },
    [
      h('h3', { id: 'template-h' }, 'Use as template'),
      h('p', { class: 'muted' }, 'Make a new itinerary of yours from this trip: its days, items and places to go move to your dates. Nothing of yours is sent to its author.'),
      h(
        'div',
        { class: 'row' },
        h('div', { class: 'field' }, h('label', { for: 'template-start' }, 'Your first day'), start),
        h('div', { class: 'field grow' }, h('label', { for: 'template-name' }, 'Name (optional)'), name),
      ),
      h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'primary', dataset: { testid: 'explore-template-submit' } }, 'Create my itinerary')),
    ],
    async (values) => {
      if (!values.startDate) throw Object.assign(new Error('Choose the day your trip starts.'), { field: 'startDate' });
      const body = { from: trip.id, startDate: values.startDate };
      if (values.name && values.name.trim()) body.name = values.name.trim();
      const created = await post('/v1/itineraries', body);
      ctx.navigate('#/itineraries/' + encodeURIComponent(created.id));
    },
  );

  const page = h(
    'article',
    { class: 'explore-trip', dataset: { testid: 'explore-trip-detail', id: trip.id } },
    h('p', {}, h('a', { href: '#/explore' }, '← Explore'), ' · ', h('a', { href: '#/saved' }, 'Saved trips')),
    head,
    h('div', { class: 'ex-layout' }, h('div', { class: 'ex-side' }, route.el, template), days),
  );
  mount(main, page);

  let shownKey = '';
  function show(next) {
    trip = next;
    renderHead();
    const key = JSON.stringify([trip.days, trip.unscheduled, trip.travelMode]);
    if (key !== shownKey) {
      shownKey = key;
      mount(
        days,
        daysView(trip, (number) => route.showDay(number)),
      );
      route.setTrip(trip);
    }
  }

  function renderHead() {
    const t = trip;
    const where = placesLine(t);
    const costs = t.costs
      ? Object.entries(COST_WORDS)
          .filter(([k]) => t.costs[k] && t.costs[k].length)
          .map(([k, label]) => h('li', {}, label + ': ' + t.costs[k].map(formatMoney).join(' + ')))
      : [];
    mount(
      head,
      h('div', { class: 'row' }, h('h2', { class: 'grow', dataset: { testid: 'explore-trip-name' } }, t.name), t.mine ? h('span', { class: 's-tag' }, 'Yours') : null),
      h(
        'p',
        { class: 'muted' },
        'Published by ',
        h('span', { dataset: { testid: 'explore-trip-author' } }, personLink(t.authorName, t.author, { friend: friends.has(t.author), me })),
        ' to ',
        audienceLabel(t.audience).toLowerCase(),
        ' · ',
        h('span', { title: formatTime(t.publishedAt) }, 'first published ' + new Date(t.publishedAt).toLocaleDateString()),
        t.updatedAt !== t.publishedAt ? ', updated ' + new Date(t.updatedAt).toLocaleDateString() : '',
      ),
      h('p', {}, tripDates(t, t.days.length), t.timeZone ? h('span', { class: 'muted' }, ' · times in ' + t.timeZone) : null),
      where ? h('p', { class: 'ex-where' }, where) : null,
      h(
        'div',
        { class: 'row' },
        likesLine(t),
        tripButtons(t, (updated) => {
          trip = { ...trip, ...updated, days: trip.days };
          keepButtonFocus(renderHead);
        }),
      ),
      t.totalCost && t.totalCost.length
        ? h(
            'div',
            { class: 'ex-costs', dataset: { testid: 'explore-costs' } },
            h('p', {}, h('strong', {}, 'Cost: '), t.totalCost.map(formatMoney).join(' + ')),
            costs.length ? h('ul', { class: 'muted ex-cost-list' }, costs) : null,
          )
        : null,
    );
  }

  function keepButtonFocus(fn) {
    const testid = document.activeElement && head.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    fn();
    if (testid) {
      const again = head.querySelector(`[data-testid="${testid}"]`);
      if (again) again.focus();
    }
  }

  const refresh = refresher(async () => {
    try {
      const next = await get('/v1/explore/' + seg(trip.id));
      keepButtonFocus(() => show(next));
    } catch (error) {
      if (error.status === 404) {
        route.destroy();
        gone(main, error);
        refresh.stop();
        return;
      }
      throw error;
    }
  });

  show(trip);

  ctx.onEvent((event) => {
    if (event.type === 'resync' || event.type === 'notification' || (event.type === 'changed' && event.docKind === 'published')) refresh();
  });

  return () => {
    refresh.stop();
    route.destroy();
  };
}

function gone(main, error) {
  mount(
    main,
    h(
      'section',
      { class: 'card', dataset: { testid: 'explore-gone' } },
      h('h2', {}, 'This trip is not available'),
      h('p', {}, 'Its author withdrew it, or it is no longer shared with you. ', h('span', { class: 'muted' }, error.message)),
      h('p', {}, h('a', { href: '#/explore' }, 'Explore other trips'), ' · ', h('a', { href: '#/saved' }, 'Your saved trips')),
    ),
  );
}
