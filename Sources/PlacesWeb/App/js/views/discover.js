// #/discover: search places at any granularity (offline gazetteer, your library, contacts'
// shared favorites), heart them, sort by popularity, add them to an itinerary.
// Testids:
//   discover-form, discover-query (input), discover-kind (select), discover-near (input),
//   discover-near-me, discover-sort (the toggle button; data-state="off|descending|ascending",
//   aria-pressed, aria-label stating the state), discover-add-itinerary (the select of
//   itineraries the Add buttons use), discover-results (ul), discover-status,
//   discover-result (li, data-id = result id, data-popularity), discover-heart (button,
//   aria-pressed = favorite), discover-add (button "Add to “ITINERARY”" in each result).
// Flow: type in discover-query (results follow as you type, or press Enter); click
// discover-sort to cycle off → descending → ascending → off (kept on the daemon); choose an
// itinerary in discover-add-itinerary, then click discover-add in a result ("Added to …"
// appears beside it, as a link to the trip).

import { get, put, query } from '../api.js';
import { h, mount, showError, empty, person } from '../dom.js';
import { debounce, rerender } from '../ui.js';
import { quietGet } from './library-util.js';
import { SORTS, KINDS, heart, unheart, addToItinerary, whereText, popularityText, sortLocally, ownPlaceID } from './library-discover.js';

export async function render(main, _params, ctx) {
  const state = {
    q: ctx.query.get('q') || '',
    kind: ctx.query.get('kind') || '',
    near: ctx.query.get('near') || '',
    sort: 'off',
    results: [],
    itineraries: [],
    contacts: new Map(), // person id → name, for "shared by"
  };
  let seq = 0;
  const notes = new Map(); // result id → what its last action said, kept across live re-renders
  let sortBusy = 0;
  let sortVersion = 0;
  const refresh = debounce(() => search(), 100);

  const input = h('input', {
    type: 'search',
    id: 'discover-q',
    name: 'q',
    value: state.q,
    maxlength: 200,
    autocomplete: 'off',
    placeholder: 'Lisbon, Bavaria, Japan…',
    'data-testid': 'discover-query',
  });
  const kind = h(
    'select',
    { id: 'discover-kind', name: 'kind', 'data-testid': 'discover-kind' },
    KINDS.map(([value, label]) => h('option', { value, selected: value === state.kind }, label)),
  );
  const near = h('input', { type: 'text', id: 'discover-near', name: 'near', value: state.near, inputmode: 'decimal', placeholder: '38.72,-9.14', 'data-testid': 'discover-near' });
  const nearMe = h('button', { type: 'button', 'data-testid': 'discover-near-me', 'aria-label': 'Use my location for “near”' }, 'Near me');
  const sortButton = h('button', { type: 'button', class: 'sort-toggle', 'data-testid': 'discover-sort' });
  const itinerarySelect = h('select', { id: 'discover-itinerary', 'data-testid': 'discover-add-itinerary' });
  const status = h('p', { class: 'muted', 'data-testid': 'discover-status', role: 'status', 'aria-live': 'polite' });
  const list = h('ul', { class: 'list discover-results', 'data-testid': 'discover-results', 'aria-label': 'Results' });

  const searchForm = h(
    'form',
    { class: 'discover-form', role: 'search', 'data-testid': 'discover-form', novalidate: true },
    h('div', { class: 'field discover-q' }, h('label', { for: 'discover-q' }, 'Search places'), input),
    h('div', { class: 'field' }, h('label', { for: 'discover-kind' }, 'Kind'), kind),
    h('div', { class: 'field discover-near' }, h('label', { for: 'discover-near' }, 'Near (latitude,longitude)'), h('div', { class: 'row' }, near, nearMe)),
    h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'primary' }, 'Search')),
  );

  mount(
    main,
    h('h2', {}, 'Discover'),
    h(
      'p',
      { class: 'muted' },
      'Cities, regions, countries and continents (offline), your places and the favorites your contacts share. Popularity counts the people you know who saved a place.',
    ),
    searchForm,
    h('div', { class: 'toolbar discover-toolbar' }, sortButton, h('div', { class: 'row' }, h('label', { for: 'discover-itinerary' }, 'Add results to'), itinerarySelect)),
    status,
    list,
  );

  function showSort() {
    const info = SORTS[state.sort] || SORTS.off;
    const next = SORTS[info.next];
    sortButton.dataset.state = state.sort;
    sortButton.setAttribute('aria-pressed', state.sort === 'off' ? 'false' : 'true');
    sortButton.setAttribute('aria-label', `Sort by popularity: ${info.words}. Press for ${next.name}.`);
    sortButton.title = `Press for ${next.words}`;
    mount(sortButton, h('span', { class: 'sort-arrow', 'aria-hidden': 'true' }, info.arrow), ' ', info.text);
  }

  function itineraryName() {
    const chosen = state.itineraries.find((it) => it.id === itinerarySelect.value);
    return chosen ? chosen.name : null;
  }

  function showItineraries() {
    const keep = itinerarySelect.value;
    const editable = state.itineraries;
    mount(
      itinerarySelect,
      editable.length
        ? editable.map((it) => h('option', { value: it.id }, it.name + (it.startDate ? ` (${it.startDate})` : '')))
        : h('option', { value: '' }, 'No itinerary you can edit'),
    );
    if (keep && editable.some((it) => it.id === keep)) itinerarySelect.value = keep;
    itinerarySelect.disabled = !editable.length;
    const name = itineraryName();
    for (const button of list.querySelectorAll('[data-testid=discover-add]')) labelAdd(button, name);
  }

  function labelAdd(button, name) {
    const result = button.closest('[data-id]');
    button.textContent = name ? `Add to “${name}”` : 'Add to itinerary';
    button.setAttribute('aria-label', name ? `Add ${result.dataset.name} to the itinerary “${name}”` : `Add ${result.dataset.name} to an itinerary`);
  }

  function row(result) {
    const favorite = result.favorite;
    const heartButton = h(
      'button',
      {
        type: 'button',
        class: favorite ? 'heart on' : 'heart',
        'data-testid': 'discover-heart',
        'aria-pressed': favorite ? 'true' : 'false',
        'aria-label': favorite ? `Remove ${result.name} from favorites` : `Add ${result.name} to favorites`,
      },
      favorite ? '♥' : '♡',
    );
    heartButton.addEventListener('click', () => toggleHeart(result, heartButton));
    const add = h('button', { type: 'button', 'data-testid': 'discover-add' });
    add.addEventListener('click', () => addResult(result, add));
    const li = h(
      'li',
      { class: 'discover-result', 'data-testid': 'discover-result', 'data-id': result.id, 'data-name': result.name, 'data-popularity': result.popularity },
      heartButton,
      h(
        'div',
        { class: 'grow' },
        h(
          'div',
          { class: 'row' },
          h('strong', { class: 'result-name' }, result.name),
          h('span', { class: 'kind kind-' + result.kind }, result.kind === 'place' && ownPlaceID(result) ? 'your place' : result.kind),
        ),
        h(
          'div',
          { class: 'muted' },
          [
            [whereText(result), result.countryCode ? `(${result.countryCode})` : null].filter(Boolean).join(' '),
            result.population ? `${result.population.toLocaleString()} people` : null,
          ]
            .filter(Boolean)
            .join(' · '),
          result.owner ? h('span', {}, ' · shared by ', person(state.contacts.get(result.owner), result.owner)) : null,
        ),
        h(
          'div',
          { class: 'popularity', 'data-testid': 'discover-popularity' },
          h('span', { class: 'popularity-count', 'aria-hidden': 'true' }, String(result.popularity)),
          ' ',
          popularityText(result.popularity),
        ),
      ),
      h('div', { class: 'row result-actions' }, add),
    );
    labelAdd(add, itineraryName());
    if (state.itineraries.length === 0) add.disabled = true;
    const note = notes.get(result.id);
    if (note && note.href) add.after(h('a', { class: 'added', href: note.href, 'data-testid': 'discover-added' }, note.text));
    else if (note) add.after(h('p', { class: 'field-error', role: 'alert' }, note.text));
    return li;
  }

  function showResults() {
    if (!state.q.trim()) {
      status.textContent = '';
      rerender(list, [h('li', { class: 'placeholder' }, empty('Type a name to search.'))]);
      return;
    }
    status.textContent = state.results.length ? `${state.results.length} result${state.results.length === 1 ? '' : 's'}, ${SORTS[state.sort].order}.` : 'Nothing matches.';
    rerender(
      list,
      state.results.length ? state.results.map(row) : [h('li', { class: 'placeholder' }, empty(`No place called “${state.q.trim()}”. Check the spelling or try another kind.`))],
    );
  }

  function keepInHash() {
    const hash = '#/discover' + query({ q: state.q.trim(), kind: state.kind, near: state.near.trim() });
    if (location.hash !== hash) history.replaceState(null, '', hash);
  }

  async function search(options = {}) {
    const mine = ++seq;
    state.q = input.value;
    state.kind = kind.value;
    state.near = near.value;
    keepInHash();
    if (!state.q.trim()) {
      state.results = [];
      showResults();
      return;
    }
    const params = { q: state.q.trim(), kind: state.kind, near: state.near.trim(), limit: 50 };
    if (options.sort) params.sort = options.sort;
    try {
      const answer = await get('/v1/discover' + query(params));
      if (mine !== seq) return;
      for (const el of searchForm.querySelectorAll('.field-error')) el.remove();
      near.removeAttribute('aria-invalid');
      state.results = answer.results;
      if (!options.sort) {
        state.sort = answer.sort;
        showSort();
      }
      showResults();
    } catch (error) {
      if (mine !== seq) return;
      const target = error.field === 'near' ? near : error.field === 'kind' ? kind : input;
      showError(target, error);
    }
  }

  async function toggleHeart(result, button) {
    button.disabled = true;
    const old = button.parentElement.querySelector('.field-error');
    if (old) old.remove();
    try {
      if (result.favorite) await unheart(result);
      else await heart(result);
      result.favorite = !result.favorite;
      button.setAttribute('aria-pressed', result.favorite ? 'true' : 'false');
      button.className = result.favorite ? 'heart on' : 'heart';
      button.textContent = result.favorite ? '♥' : '♡';
      button.setAttribute('aria-label', result.favorite ? `Remove ${result.name} from favorites` : `Add ${result.name} to favorites`);
      refresh();
    } catch (error) {
      showError(button, error);
    } finally {
      button.disabled = false;
    }
  }

  async function addResult(result, button) {
    const li = button.closest('li');
    for (const el of li.querySelectorAll('.field-error, .added')) el.remove();
    notes.delete(result.id);
    const id = itinerarySelect.value;
    if (!id) {
      showError(button, 'Choose an itinerary in “Add results to” first.');
      return;
    }
    const name = itineraryName();
    button.disabled = true;
    try {
      await addToItinerary(result, id);
      notes.set(result.id, { text: `Added to “${name}”`, href: '#/itineraries/' + encodeURIComponent(id) });
    } catch (error) {
      notes.set(result.id, { text: error.message });
    } finally {
      button.disabled = false;
    }
    // The row as it now stands (a live refresh may have replaced it meanwhile).
    const current = list.querySelector(`[data-id="${CSS.escape(result.id)}"]`);
    const fresh = state.results.find((r) => r.id === result.id);
    if (current && fresh) {
      const focused = current.contains(document.activeElement);
      const again = row(fresh);
      current.replaceWith(again);
      if (focused) again.querySelector('[data-testid=discover-add]').focus();
    }
  }

  async function cycleSort() {
    const next = SORTS[state.sort].next;
    const before = state.sort;
    state.sort = next;
    showSort();
    state.results = sortLocally(state.results, next);
    if (next !== 'off') showResults();
    const old = sortButton.nextElementSibling;
    if (old && old.classList.contains('field-error')) old.remove();
    sortBusy++;
    sortVersion++;
    try {
      await Promise.all([put('/v1/preferences', { discoverSort: next }), search({ sort: next })]);
    } catch (error) {
      state.sort = before;
      showSort();
      showError(sortButton, error);
      search();
    } finally {
      sortBusy--;
    }
  }

  async function loadContacts() {
    try {
      const { contacts } = await get('/v1/contacts');
      state.contacts = new Map(contacts.map((c) => [c.id, c.name]));
    } catch {
      /* names are a nicety: ids show instead */
    }
  }

  async function loadItineraries() {
    const { itineraries } = await get('/v1/itineraries');
    state.itineraries = itineraries.filter((it) => it.role !== 'viewer');
    showItineraries();
    for (const button of list.querySelectorAll('[data-testid=discover-add]')) button.disabled = !state.itineraries.length;
  }

  // Wiring.
  const typed = debounce(() => search(), 200);
  input.addEventListener('input', typed);
  kind.addEventListener('change', () => search());
  near.addEventListener('change', () => search());
  searchForm.addEventListener('submit', (event) => {
    event.preventDefault();
    typed.cancel();
    search();
  });
  sortButton.addEventListener('click', cycleSort);
  itinerarySelect.addEventListener('change', () => showItineraries());
  nearMe.addEventListener('click', () => {
    if (!navigator.geolocation) {
      showError(nearMe, 'This browser cannot tell your location.');
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        near.value = `${pos.coords.latitude.toFixed(4)},${pos.coords.longitude.toFixed(4)}`;
        search();
      },
      (error) => showError(nearMe, 'No location: ' + error.message),
      { timeout: 10000 },
    );
  });

  const prefs = await get('/v1/preferences');
  state.sort = prefs.discoverSort;
  showSort();
  await Promise.all([loadItineraries(), loadContacts(), search()]);
  input.focus();
  input.setSelectionRange(input.value.length, input.value.length);

  // Live: favorites, places, contacts' cards and itineraries change results and popularity.
  const refreshItineraries = debounce(() => loadItineraries().catch(() => {}), 100);
  ctx.onEvent((event) => {
    if (event.type === 'resync') {
      refresh();
      refreshItineraries();
      return;
    }
    if (['changed', 'shared', 'friend', 'unfriended'].includes(event.type)) refresh();
    if (event.type === 'friend' || (event.type === 'changed' && event.docKind === 'card')) loadContacts();
    if (event.type === 'shared' || (event.type === 'changed' && event.docKind === 'itinerary')) refreshItineraries();
  });
  // The sort preference is this device's and publishes no event: a change made with the
  // CLI (`places discover --sort …`) is picked up by a quiet poll.
  const poll = setInterval(async () => {
    if (document.hidden || sortBusy) return;
    const version = sortVersion;
    const prefs = await quietGet('/v1/preferences');
    if (prefs && prefs.discoverSort !== state.sort && !sortBusy && version === sortVersion) {
      state.sort = prefs.discoverSort;
      showSort();
      search();
    }
  }, 1000);
  return () => {
    clearInterval(poll);
    typed.cancel();
    refresh.cancel();
    refreshItineraries.cancel();
  };
}
