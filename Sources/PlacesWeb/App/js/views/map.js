// The Map tab: `#/map` shows the library's places (all, or the favorites), `#/map/friend/:friend`
// the places a friend's contact card shares (`GET /v1/friends/{id}/map`). A category filter,
// a list beside the map (a list item shows its marker, a marker picks its list item), and
// live reloads on `changed` events.

import { get, seg } from '../api.js';
import { h, mount, describe, empty } from '../dom.js';
import { createMap } from '../map.js';

const RELOAD_DELAY = 150;

export async function render(main, params, ctx) {
  const friendId = params.friend || null;
  const query = ctx.query || new URLSearchParams();
  const state = {
    places: [], // as the map takes them: {id, name, latitude, longitude, categories, emoji, favorite, note, address}
    emoji: new Map(), // lower-cased category name -> emoji
    category: query.get('category') || '',
    favoritesOnly: query.get('favorites') === '1',
    selected: null,
    friendName: null,
  };

  const heading = h('h2', {}, friendId ? 'A friend’s map' : 'Map');
  const whose = h('select', { id: 'map-whose', 'aria-label': 'Whose map' }, h('option', { value: '' }, 'My places'));
  const categorySelect = h('select', { id: 'map-category' });
  const favorites = h('input', { type: 'checkbox', id: 'map-favorites', checked: state.favoritesOnly });
  const count = h('p', { class: 'muted map-count', 'aria-live': 'polite' });
  const list = h('ul', { class: 'map-list-items', 'aria-label': 'Places on the map' });
  const mapBox = h('div', { class: 'map', id: 'map-canvas' });
  const error = h('div', {});

  const toolbar = h(
    'div',
    { class: 'toolbar map-toolbar' },
    h('label', { class: 'map-control' }, h('span', { class: 'muted' }, 'Map of '), whose),
    h('label', { class: 'map-control' }, h('span', { class: 'muted' }, 'Category '), categorySelect),
    friendId ? null : h('label', { class: 'map-control map-check' }, favorites, ' Favorites only'),
  );

  mount(
    main,
    heading,
    toolbar,
    error,
    h('div', { class: 'map-layout' }, h('div', { class: 'map-pane' }, mapBox), h('aside', { class: 'map-list', 'aria-label': 'Places' }, count, list)),
  );

  let handle;
  try {
    handle = await createMap(mapBox, { label: friendId ? 'Map of a friend’s places' : 'Map of your places' });
  } catch (failure) {
    mapBox.classList.add('map-failed');
    mount(mapBox, h('p', { class: 'field-error', role: 'alert' }, 'The map cannot be shown: ', describe(failure)));
  }

  let disposed = false;
  let firstFit = true;
  let timer = null;
  let loading = null;

  whose.addEventListener('change', () => {
    ctx.navigate(whose.value ? '#/map/friend/' + seg(whose.value) : '#/map');
  });
  categorySelect.addEventListener('change', () => {
    state.category = categorySelect.value;
    show({ refit: true });
  });
  favorites.addEventListener('change', () => {
    state.favoritesOnly = favorites.checked;
    show({ refit: true });
  });

  const visible = () =>
    state.places.filter((p) => (!state.favoritesOnly || friendId || p.favorite) && (!state.category || p.categories.some((c) => c.toLowerCase() === state.category.toLowerCase())));

  function emojiFor(categories) {
    for (const c of categories) {
      const emoji = state.emoji.get(String(c).toLowerCase());
      if (emoji) return emoji;
    }
    return '';
  }

  function select(id, { fromMap = false } = {}) {
    state.selected = id;
    for (const item of list.querySelectorAll('.map-item')) {
      const on = item.dataset.id === String(id);
      item.classList.toggle('selected', on);
      if (on) item.setAttribute('aria-current', 'true');
      else item.removeAttribute('aria-current');
      if (on && fromMap) item.scrollIntoView({ block: 'nearest' });
    }
    if (!fromMap && handle) handle.focusPlace(id);
  }

  function renderCategories() {
    const present = new Map();
    for (const place of state.places) {
      if (state.favoritesOnly && !friendId && !place.favorite) continue;
      for (const c of place.categories) {
        const key = c.toLowerCase();
        if (!present.has(key)) present.set(key, { name: c, count: 0 });
        present.get(key).count++;
      }
    }
    if (state.category && !present.has(state.category.toLowerCase())) {
      present.set(state.category.toLowerCase(), { name: state.category, count: 0 });
    }
    const options = [...present.entries()].sort((a, b) => a[1].name.localeCompare(b[1].name));
    mount(
      categorySelect,
      h('option', { value: '' }, 'All categories'),
      options.map(([key, { name, count: n }]) => {
        const emoji = state.emoji.get(key);
        return h('option', { value: name, selected: key === state.category.toLowerCase() }, `${emoji ? emoji + ' ' : ''}${name} (${n})`);
      }),
    );
    const current = present.get(state.category.toLowerCase());
    categorySelect.value = current ? current.name : '';
  }

  function renderList(shown) {
    const hidden = state.places.filter((p) => !hasPoint(p)).length;
    const total = friendId ? state.places.length : state.places.filter((p) => !state.favoritesOnly || p.favorite).length;
    count.textContent = shown.length === total ? `${shown.length} ${shown.length === 1 ? 'place' : 'places'}` : `${shown.length} of ${total} places`;
    if (hidden) count.textContent += ` (${hidden} without a position)`;
    if (!shown.length) {
      mount(
        list,
        h(
          'li',
          { class: 'map-list-empty' },
          empty(state.places.length ? 'No place matches this filter.' : friendId ? 'This friend shares no places with you yet.' : 'No places yet: add some from Discover.'),
        ),
      );
      if (!friendId && !state.places.length) list.firstChild.appendChild(h('a', { href: '#/discover' }, 'Discover places'));
      return;
    }
    mount(
      list,
      shown.map((place) =>
        h(
          'li',
          {},
          h(
            'button',
            {
              type: 'button',
              class: ['map-item', String(place.id) === String(state.selected) ? 'selected' : ''],
              dataset: { id: place.id },
              disabled: !hasPoint(place),
              onclick: () => select(place.id),
            },
            h('span', { class: 'map-item-emoji', 'aria-hidden': 'true' }, place.emoji || '•'),
            h(
              'span',
              { class: 'map-item-text' },
              h('span', { class: 'map-item-name' }, place.name || 'Unnamed place'),
              place.categories.length ? h('span', { class: 'map-item-meta muted' }, place.categories.join(', ')) : null,
            ),
            place.favorite && !friendId ? h('span', { class: 'map-item-fav', title: 'Favorite', 'aria-label': 'favorite' }, '♥') : null,
          ),
        ),
      ),
    );
  }

  function show({ refit = false } = {}) {
    renderCategories();
    const shown = visible();
    renderList(shown);
    if (!handle) return;
    // The map gets the places of this view (all or the favorites) and hides by category itself.
    const candidates = state.places.filter((p) => !state.favoritesOnly || friendId || p.favorite);
    handle.setPlaces(candidates, { onSelect: (place) => select(place.id, { fromMap: true }) });
    handle.setFilter({ category: state.category || null });
    if (refit || firstFit) {
      handle.fit();
      firstFit = false;
    }
  }

  async function loadFriends() {
    try {
      const { friends } = await get('/v1/friends');
      const mine = (friends || []).filter((f) => f.state === 'friend');
      mount(
        whose,
        h('option', { value: '' }, 'My places'),
        mine.map((f) => h('option', { value: f.id, selected: f.id === friendId }, f.name || f.username || f.id.split('-')[0])),
      );
      if (friendId) {
        const friend = (friends || []).find((f) => f.id === friendId);
        state.friendName = friend ? friend.name || friend.username || null : null;
        if (!friend) whose.appendChild(h('option', { value: friendId, selected: true }, friendId.split('-')[0]));
        whose.value = friendId;
      }
    } catch {
      /* the selector keeps "My places" */
    }
    heading.textContent = friendId ? (state.friendName ? `${state.friendName}’s map` : 'A friend’s map') : 'Map';
    if (friendId && handle) handle.leaflet.getContainer().setAttribute('aria-label', `Map of ${state.friendName || 'a friend'}’s places`);
  }

  async function loadCategories() {
    try {
      const { categories } = await get('/v1/categories');
      state.emoji = new Map((categories || []).map((c) => [String(c.name).toLowerCase(), c.emoji]));
    } catch {
      state.emoji = new Map();
    }
  }

  async function loadPlaces() {
    if (friendId) {
      const { places } = await get('/v1/friends/' + seg(friendId) + '/map');
      return (places || []).map((p) => ({
        id: p.id,
        name: p.name,
        latitude: p.latitude,
        longitude: p.longitude,
        categories: p.categories || [],
        address: p.address,
        note: p.notes,
        favorite: false,
      }));
    }
    const { places } = await get('/v1/places');
    return (places || []).map((p) => ({
      id: p.id,
      name: p.name,
      latitude: p.latitude,
      longitude: p.longitude,
      categories: p.categories || [],
      address: p.address,
      note: p.notes,
      favorite: !!p.favorite,
    }));
  }

  async function reload() {
    if (loading) return loading;
    loading = (async () => {
      try {
        const places = await loadPlaces();
        if (disposed) return;
        for (const place of places) {
          place.emoji = emojiFor(place.categories);
          if (place.categories.length) place.category = place.categories[0];
        }
        state.places = places;
        mount(error);
        show();
        if (state.selected !== null && !places.some((p) => String(p.id) === String(state.selected))) state.selected = null;
      } catch (failure) {
        if (disposed) return;
        mount(
          error,
          h('p', { class: 'field-error', role: 'alert' }, failure && failure.status === 404 && friendId ? 'This person is not your friend (or no longer).' : describe(failure)),
        );
      } finally {
        loading = null;
      }
    })();
    return loading;
  }

  ctx.onEvent((event) => {
    const relevant = event.type === 'changed' || event.type === 'resync' || (friendId && (event.type === 'friend' || event.type === 'unfriended'));
    if (!relevant) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!disposed) reload();
    }, RELOAD_DELAY);
  });

  await Promise.all([loadCategories(), loadFriends()]);
  await reload();

  return () => {
    disposed = true;
    clearTimeout(timer);
    if (handle) handle.destroy();
  };
}

function hasPoint(p) {
  return Number.isFinite(Number(p.latitude)) && Number.isFinite(Number(p.longitude));
}
