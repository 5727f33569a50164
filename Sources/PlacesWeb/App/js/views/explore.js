// #/explore — published trips you can see, searched by words and country, sorted by
// likes or newest; #/saved — the trips you saved (withdrawn ones marked). Like and save
// from the list; a trip's page is #/explore/ID. Live: a trip published, changed,
// withdrawn or liked elsewhere shows within a second; the search box keeps its text.
// testids: explore (section, data-mode explore|saved), explore-tab-explore,
//   explore-tab-saved, explore-search (form), explore-query, explore-country,
//   explore-sort, explore-count, explore-list, explore-empty, explore-trip (data-id;
//   see social-trip.js for what is inside: explore-like, explore-save, …)

import { get, query } from '../api.js';
import { h, mount, showError, clearErrors } from '../dom.js';
import { debounce, plural } from '../ui.js';
import { refresher, reconcile } from './social-common.js';
import { syncTripCards } from './social-trip.js';

export async function render(main, _params, ctx) {
  const saved = location.hash.startsWith('#/saved');
  const me = ctx.status && ctx.status.id;
  const friends = new Map();
  const cards = new Map();
  const search = {
    q: ctx.query.get('q') || '',
    country: (ctx.query.get('country') || '').toUpperCase(),
    sort: ctx.query.get('sort') === 'likes' ? 'likes' : 'newest',
  };

  const list = h('ul', { class: 'list ex-list', 'aria-label': saved ? 'Saved trips' : 'Published trips', dataset: { testid: 'explore-list' } });
  const countLine = h('p', { class: 'muted', role: 'status', dataset: { testid: 'explore-count' } });
  const emptyLine = h('p', { class: 'empty', hidden: true, dataset: { testid: 'explore-empty' } });
  const opts = { me, friends, onChange: () => refresh() };
  const friendsReady = get('/v1/friends')
    .then((answer) => {
      for (const f of answer.friends) friends.set(f.id, f);
    })
    .catch(() => {
      /* names still show, as text */
    });

  const qInput = h('input', {
    id: 'explore-q',
    type: 'search',
    name: 'q',
    value: search.q,
    placeholder: 'Trip, author or city',
    autocomplete: 'off',
    dataset: { testid: 'explore-query' },
  });
  const countryInput = h('input', {
    id: 'explore-country',
    name: 'country',
    value: search.country,
    maxlength: 2,
    size: 3,
    placeholder: 'PT',
    autocomplete: 'off',
    class: 'country-input',
    dataset: { testid: 'explore-country' },
  });
  const sortSelect = h(
    'select',
    { id: 'explore-sort', name: 'sort', dataset: { testid: 'explore-sort' } },
    h('option', { value: 'newest' }, 'Newest'),
    h('option', { value: 'likes' }, 'Most liked'),
  );
  sortSelect.value = search.sort;

  const searchForm = h(
    'form',
    { class: 'row explore-search', role: 'search', 'aria-label': 'Search published trips', dataset: { testid: 'explore-search' }, novalidate: true },
    h('div', { class: 'field grow' }, h('label', { for: 'explore-q' }, 'Search trips'), qInput),
    h('div', { class: 'field' }, h('label', { for: 'explore-country' }, 'Country code'), countryInput),
    h('div', { class: 'field' }, h('label', { for: 'explore-sort' }, 'Sort by'), sortSelect),
    h('div', { class: 'field search-submit' }, h('button', { type: 'submit', class: 'primary', dataset: { testid: 'explore-search-submit' } }, 'Search')),
  );

  const onInput = debounce(() => apply(), 250);
  searchForm.addEventListener('submit', (event) => {
    event.preventDefault();
    onInput.cancel();
    apply();
  });
  qInput.addEventListener('input', onInput);
  countryInput.addEventListener('input', onInput);
  sortSelect.addEventListener('change', () => apply());

  const tabLink = (id, label, on) =>
    h('a', { href: '#/' + id, class: on ? 'tab active' : 'tab', 'aria-current': on ? 'page' : false, dataset: { testid: 'explore-tab-' + id } }, label);
  mount(
    main,
    h(
      'section',
      { class: 'explore', dataset: { testid: 'explore', mode: saved ? 'saved' : 'explore' } },
      h('h2', {}, saved ? 'Saved trips' : 'Explore trips'),
      h('nav', { class: 'tabs', 'aria-label': 'Explore or saved' }, tabLink('explore', 'Explore', !saved), tabLink('saved', 'Saved', saved)),
      saved ? h('p', { class: 'muted' }, 'Trips you saved stay here, even after their author withdraws them.') : searchForm,
      countLine,
      list,
      emptyLine,
    ),
  );

  function apply() {
    search.q = qInput.value.trim();
    search.country = countryInput.value.trim().toUpperCase();
    search.sort = sortSelect.value;
    const text = query({ q: search.q, country: search.country, sort: search.sort === 'newest' ? '' : search.sort });
    history.replaceState(null, '', '#/explore' + text);
    refresh();
  }

  async function load() {
    let answer;
    if (saved) {
      answer = await get('/v1/saved');
    } else {
      if (search.country && !/^[A-Za-z]{2}$/.test(search.country)) {
        showError(countryInput, 'A country is a two-letter code, like PT or ES.');
        return;
      }
      try {
        answer = await get('/v1/explore' + query({ q: search.q, country: search.country, sort: search.sort, limit: 200 }));
        clearErrors(searchForm);
      } catch (error) {
        const target = { q: qInput, country: countryInput, sort: sortSelect }[error.field] || searchForm.lastElementChild;
        showError(target, error);
        return;
      }
    }
    const trips = answer.trips;
    await friendsReady;
    reconcile(list, syncTripCards(cards, trips, opts));
    countLine.textContent = saved ? plural(trips.length, 'saved trip') : plural(trips.length, 'trip');
    emptyLine.hidden = trips.length > 0;
    emptyLine.textContent = saved
      ? 'Nothing saved yet. Save a trip from Explore to keep it here.'
      : search.q || search.country
        ? 'No trip matches this search.'
        : 'No published trips yet. Trips your friends publish, and those published to the network, appear here.';
  }

  const refresh = refresher(load);
  const refreshFriends = refresher(async () => {
    const list = await get('/v1/friends');
    friends.clear();
    for (const f of list.friends) friends.set(f.id, f);
  }, 200);

  await load();

  ctx.onEvent((event) => {
    if (event.type === 'resync' || (event.type === 'changed' && event.docKind === 'published') || event.type === 'peer') refresh();
    if (event.type === 'friend' || event.type === 'unfriended' || event.type === 'resync') {
      refreshFriends();
      refresh();
    }
    if (event.type === 'notification' || event.type === 'like') refresh();
  });

  return () => {
    refresh.stop();
    refreshFriends.stop();
    onInput.cancel();
  };
}
