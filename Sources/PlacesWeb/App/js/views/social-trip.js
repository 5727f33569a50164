// A published trip as explore, saved and a friend's profile list it: its name, author,
// days, countries and cities, likes (from people you know / in all), and the like and
// save buttons, which update the card in place from the API's answer.
// testids: explore-trip (data-id; data-withdrawn when withdrawn), explore-trip-link,
//   explore-trip-author, explore-mine, explore-withdrawn, explore-likes, explore-like
//   (aria-pressed), explore-save (aria-pressed)

import { put, del, seg } from '../api.js';
import { h, mount, formatDate } from '../dom.js';
import { plural } from '../ui.js';
import { personLink, audienceLabel, countryName } from './social-common.js';

/** "Sat 3 May 2027 – Mon 5 May 2027 · 3 days" */
export function tripDates(trip, days) {
  const n = typeof days === 'number' ? days : Array.isArray(trip.days) ? trip.days.length : trip.days;
  const range = trip.startDate ? formatDate(trip.startDate) + (trip.endDate && trip.endDate !== trip.startDate ? ' – ' + formatDate(trip.endDate) : '') : '';
  return [range, typeof n === 'number' ? plural(n, 'day') : ''].filter(Boolean).join(' · ');
}

export function likesLine(trip) {
  return h(
    'span',
    { class: 'muted ex-likes', dataset: { testid: 'explore-likes' }, title: 'Likes from people you know / from everyone' },
    `♥ ${trip.likesKnown} from people you know · ${plural(trip.likes, 'like')} in all`,
  );
}

/**
 * The like and save buttons of a trip. `onChange(trip)` gets the API's answer.
 * Answers a <span class="row"> holding them.
 */
export function tripButtons(trip, onChange) {
  const box = h('span', { class: 'row ex-buttons' });
  const error = h('span', { class: 'field-error', role: 'alert', hidden: true });
  const toggle = (label, on, path, attrs) => {
    const button = h('button', { type: 'button', 'aria-pressed': on ? 'true' : 'false', ...attrs }, label);
    // Not disabled while it runs: a disabled button loses the keyboard focus.
    button.addEventListener('click', async () => {
      if (button.getAttribute('aria-busy') === 'true') return;
      button.setAttribute('aria-busy', 'true');
      error.hidden = true;
      try {
        const updated = button.getAttribute('aria-pressed') === 'true' ? await del(path) : await put(path);
        onChange(updated);
      } catch (err) {
        error.textContent = err.message;
        error.hidden = false;
      } finally {
        button.removeAttribute('aria-busy');
      }
    });
    return button;
  };
  const base = '/v1/explore/' + seg(trip.id);
  if (!trip.withdrawn) {
    box.append(
      toggle(trip.liked ? '♥ Liked' : '♡ Like', trip.liked, base + '/like', {
        'aria-label': (trip.liked ? 'Unlike ' : 'Like ') + trip.name,
        dataset: { testid: 'explore-like' },
      }),
    );
  }
  box.append(
    toggle(trip.saved ? '★ Saved' : '☆ Save', trip.saved, base + '/save', {
      'aria-label': (trip.saved ? 'Unsave ' : 'Save ') + trip.name,
      dataset: { testid: 'explore-save' },
    }),
  );
  box.append(error);
  return box;
}

/** Countries (by name) and cities, as text. */
export function placesLine(trip) {
  const countries = (trip.countries || []).map(countryName).join(', ');
  const cities = (trip.cities || []).join(', ');
  return [countries, cities].filter(Boolean).join(' — ');
}

/**
 * A trip card. opts: { me, friends: Map, onChange(trip) (optional, after like/save),
 * testid (default explore-trip) }.
 * Answers { el, update(trip), trip }.
 */
export function tripCard(initial, opts = {}) {
  const el = h('li', { class: 'ex-card', dataset: { testid: opts.testid || 'explore-trip', id: initial.id } });
  let current = initial;
  let key = '';
  function render() {
    const t = current;
    const nextKey = JSON.stringify(t);
    if (nextKey === key) return;
    key = nextKey;
    if (t.withdrawn) el.dataset.withdrawn = 'true';
    else delete el.dataset.withdrawn;
    const title = t.withdrawn
      ? h('span', { class: 'ex-name' }, t.name)
      : h('a', { class: 'ex-name', href: '#/explore/' + encodeURIComponent(t.id), dataset: { testid: 'explore-trip-link' } }, t.name);
    const where = placesLine(t);
    mount(
      el,
      h(
        'div',
        { class: 'grow ex-main' },
        h(
          'div',
          { class: 'row ex-title-row' },
          title,
          t.mine ? h('span', { class: 's-tag', dataset: { testid: 'explore-mine' } }, 'Yours') : null,
          t.withdrawn ? h('span', { class: 's-tag s-tag-warn', dataset: { testid: 'explore-withdrawn' } }, 'Withdrawn by its author') : null,
        ),
        h(
          'div',
          { class: 'muted' },
          'By ',
          h('span', { dataset: { testid: 'explore-trip-author' } }, personLink(t.authorName, t.author, { friend: !!(opts.friends && opts.friends.has(t.author)), me: opts.me })),
          ' · published to ',
          audienceLabel(t.audience).toLowerCase(),
        ),
        h('div', { class: 'muted' }, tripDates(t)),
        where ? h('div', { class: 'ex-where' }, where) : null,
        t.withdrawn ? null : likesLine(t),
      ),
      tripButtons(t, (updated) => {
        update(updated);
        if (opts.onChange) opts.onChange(updated);
      }),
    );
  }
  function update(next) {
    const focused = el.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    current = next;
    render();
    if (focused) {
      const again = el.querySelector(`[data-testid="${focused}"]`);
      if (again) again.focus();
    }
  }
  render();
  return {
    el,
    update,
    get trip() {
      return current;
    },
  };
}

/** Updates or creates trip cards from a fresh list (keyed by id); answers the nodes in order. */
export function syncTripCards(cards, trips, opts) {
  const nodes = [];
  const seen = new Set();
  for (const t of trips) {
    seen.add(t.id);
    let card = cards.get(t.id);
    if (card) card.update(t);
    else {
      card = tripCard(t, opts);
      cards.set(t.id, card);
    }
    nodes.push(card.el);
  }
  for (const id of [...cards.keys()]) if (!seen.has(id)) cards.delete(id);
  return nodes;
}
