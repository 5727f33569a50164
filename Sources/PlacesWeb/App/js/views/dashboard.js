// #/home — the dashboard (the app's home view): here and each destination, one card at a
// time, switched by tabs: local time and the difference from yours, sunrise, sunset and
// daylight, the weather when a source is set, what the place is, the places you and your
// friends saved there, your trips there with a countdown, published trips through it and
// a spot of the day. Add a destination by name; remove one you added. Refreshes every
// minute (the time, and the weather the daemon fetched meanwhile).
// testids: dashboard, dashboard-tabs (tabs carry data-tab = the card's id), dashboard-card
//   (data-id), dashboard-time, dashboard-sun, dashboard-weather (data-status),
//   dashboard-about, dashboard-places, dashboard-trips, dashboard-explore, dashboard-spot,
//   dashboard-add (form), dashboard-query, dashboard-remove, dashboard-empty

import { get, post, del, seg } from '../api.js';
import { h, mount, form, field, action, tabs, empty, describe } from '../dom.js';

export async function render(main, _params, ctx) {
  let selected = ctx.query.get('d') || null;
  let answer = null;
  const body = h('div', { class: 'dashboard-body' });

  const add = form(
    { class: 'row dashboard-add', dataset: { testid: 'dashboard-add' }, 'aria-label': 'Add a destination' },
    [
      field('Add a destination', {
        name: 'query',
        placeholder: 'City, region or country',
        autocomplete: 'off',
        required: true,
        maxlength: 200,
        dataset: { testid: 'dashboard-query' },
      }),
      h('div', { class: 'field search-submit' }, h('button', { type: 'submit', class: 'primary' }, 'Add')),
    ],
    async (values, el) => {
      const added = await post('/v1/destinations', { query: (values.query || '').trim() });
      el.reset();
      selected = added.id;
      await refresh();
    },
  );

  mount(main, h('section', { class: 'dashboard', dataset: { testid: 'dashboard' } }, h('h2', {}, 'Dashboard'), body, add));

  async function refresh() {
    try {
      answer = await get('/v1/dashboard');
    } catch (error) {
      mount(body, h('p', { class: 'field-error', role: 'alert' }, describe(error)));
      return;
    }
    draw();
  }

  function draw() {
    const cards = [...(answer.here ? [answer.here] : []), ...answer.destinations];
    if (!cards.length) {
      mount(body, empty('Nothing here yet: add a destination below, or say where you are with `places here`.'));
      body.querySelector('.empty').dataset.testid = 'dashboard-empty';
      return;
    }
    if (!cards.some((c) => c.id === selected)) selected = cards[0].id;
    const strip = tabs(
      cards.map((c) => ({ id: c.id, label: c.id === 'here' ? 'Here' : c.name })),
      selected,
      (id) => {
        selected = id;
        history.replaceState(null, '', '#/home?d=' + encodeURIComponent(id));
        draw();
      },
      'Here and destinations',
    );
    strip.dataset.testid = 'dashboard-tabs';
    mount(body, strip, card(cards.find((c) => c.id === selected)));
  }

  function card(c) {
    const facts = [c.kind !== 'here' ? c.kind : null, c.kind !== 'country' ? c.country : null, c.population ? `${c.population.toLocaleString()} people` : null].filter(Boolean);
    const time = c.localTime.slice(11);
    const diff = c.differenceMinutes ? ` · ${duration(Math.abs(c.differenceMinutes))} ${c.differenceMinutes > 0 ? 'ahead of' : 'behind'} you` : '';
    const sun =
      c.sunrise && c.sunset
        ? `Sunrise ${c.sunrise.slice(11)} · sunset ${c.sunset.slice(11)} · ${duration(c.dayLengthMinutes)} of daylight`
        : c.dayLengthMinutes === 1440
          ? 'The sun does not set today'
          : c.dayLengthMinutes === 0
            ? 'The sun does not rise today'
            : '';
    const parts = [
      h('h3', {}, c.id === 'here' ? `Here: ${c.name}` : c.name),
      facts.length ? h('p', { class: 'muted', dataset: { testid: 'dashboard-about' } }, facts.join(', ')) : null,
      h('p', { class: 'dash-time', dataset: { testid: 'dashboard-time' } }, h('strong', {}, time), ` ${c.timeZone} (UTC${offset(c.utcOffsetMinutes)})${diff}`),
      h('p', { dataset: { testid: 'dashboard-sun' } }, sun),
      weather(c),
    ];
    if (c.trips.length) {
      parts.push(
        h(
          'div',
          { dataset: { testid: 'dashboard-trips' } },
          h('h4', {}, 'Your trips'),
          h(
            'ul',
            { class: 'list' },
            c.trips.map((t) =>
              h(
                'li',
                {},
                h('a', { href: '#/itineraries/' + seg(t.id) }, t.name),
                t.startDate ? ` from ${t.startDate}` : '',
                countdown(t.daysUntil),
                t.forecast && t.forecast.length
                  ? h('span', { class: 'muted' }, ' · ' + t.forecast.map((d) => `${d.date.slice(5)}: ${d.minC}–${d.maxC} °C ${d.condition}`).join(', '))
                  : null,
              ),
            ),
          ),
        ),
      );
    }
    if (c.spotOfTheDay) {
      parts.push(h('p', { class: 'dash-spot', dataset: { testid: 'dashboard-spot' } }, 'Spot of the day: ', h('strong', {}, c.spotOfTheDay.name), ` — ${c.spotOfTheDay.reason}`));
    }
    if (c.places.length) {
      parts.push(
        h(
          'div',
          { dataset: { testid: 'dashboard-places' } },
          h('h4', {}, `Places saved there (${c.placeCount})`),
          h(
            'ul',
            { class: 'list' },
            c.places.map((p) =>
              h(
                'li',
                { dataset: { id: p.placeId } },
                p.name,
                h('span', { class: 'muted' }, ` — ${p.savedBy.join(', ')}`),
                p.visited ? h('span', { class: 'muted' }, ' · visited') : null,
              ),
            ),
          ),
        ),
      );
    }
    if (c.explore.length) {
      parts.push(
        h(
          'div',
          { dataset: { testid: 'dashboard-explore' } },
          h('h4', {}, 'Published trips through it'),
          h(
            'ul',
            { class: 'list' },
            c.explore.map((t) =>
              h(
                'li',
                {},
                h('a', { href: '#/explore/' + seg(t.id) }, t.name),
                h('span', { class: 'muted' }, ` — ${t.likesKnown} like${t.likesKnown === 1 ? '' : 's'} from people you know`),
              ),
            ),
          ),
        ),
      );
    }
    if (c.source === 'added') {
      parts.push(
        action(
          'Remove this destination',
          async () => {
            await del('/v1/destinations/' + seg(c.id));
            selected = null;
            await refresh();
          },
          { class: 'danger', dataset: { testid: 'dashboard-remove' } },
        ),
      );
    }
    return h('article', { class: 'card dashboard-card', dataset: { testid: 'dashboard-card', id: c.id } }, parts);
  }

  function weather(c) {
    const attrs = { class: 'dash-weather', dataset: { testid: 'dashboard-weather', status: c.weatherStatus } };
    if (c.weatherStatus === 'off') return h('p', attrs, 'No weather source (set one with `places config weather URL`).');
    if (!c.weather) return h('p', attrs, `Weather unavailable (${c.weatherError || 'unknown'})`);
    const w = c.weather;
    const stale = c.weatherStatus === 'stale' ? ` — stale: ${c.weatherError || 'old'}` : '';
    return h(
      'div',
      attrs,
      h(
        'p',
        {},
        h('strong', {}, `${w.current.temperatureC} °C`),
        ` ${w.current.condition}, wind ${w.current.windKmh} km/h`,
        h('span', { class: 'muted' }, ` · ${w.ageMinutes} min ago${stale}`),
      ),
      h(
        'ul',
        { class: 'list dash-days' },
        w.daily.map((d) => h('li', {}, `${d.date}: ${d.minC}–${d.maxC} °C, ${d.condition}, ${d.precipitationMm} mm`)),
      ),
    );
  }

  // Not awaited: the page is ready at once, the cards follow (the first dashboard of a
  // daemon loads the gazetteer, which takes a moment).
  mount(body, h('p', { class: 'muted', role: 'status' }, 'Loading…'));
  refresh();
  const timer = setInterval(refresh, 60_000);
  return () => clearInterval(timer);
}

function duration(minutes) {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (!hours) return `${rest} min`;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

function offset(minutes) {
  const m = Math.abs(minutes);
  const pad = (n) => String(n).padStart(2, '0');
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
}

function countdown(days) {
  if (days === undefined || days === null) return '';
  if (days > 0) return ` (in ${days} day${days === 1 ? '' : 's'})`;
  return days === 0 ? ' (today)' : ' (under way)';
}
