// #/favorites: your favorites in your order (drag the handle or use the arrow keys on it to
// reorder; remove), and a second tab, "My places", with the library (library-places.js).
// Testids:
//   favorites-tabs (tabs: buttons with data-tab="favorites|places", ids tab-favorites, tab-places),
//   favorites-count ("3 favorites"), favorites-list (ol), favorite-item (li, data-id =
//   favorite id, data-place-id, data-position; in order), favorite-name, favorite-handle
//   (button: drag it with the pointer, or focus it and press ArrowUp/ArrowDown/Home/End),
//   favorite-delete, favorites-announce (live region: "Paris moved to position 2 of 3").
//   My places: see library-places.js.
// The tab is kept in the address: #/favorites?tab=places.

import { get, post, del, seg } from '../api.js';
import { h, mount, tabs, action, empty, flash, formatTime, showError } from '../dom.js';
import { coordinates, debounce, plural, rerender } from '../ui.js';
import { sortable } from './library-drag.js';
import { placesPanel } from './library-places.js';

export async function render(main, _params, ctx) {
  let tab = ctx.query.get('tab') === 'places' ? 'places' : 'favorites';
  const panel = h('div', { class: 'tab-panel', role: 'tabpanel' });
  const strip = h('div', { 'data-testid': 'favorites-tabs' });
  let current = null;

  async function show(id) {
    tab = id;
    history.replaceState(null, '', id === 'places' ? '#/favorites?tab=places' : '#/favorites');
    mount(
      strip,
      tabs(
        [
          { id: 'favorites', label: 'Favorites' },
          { id: 'places', label: 'My places' },
        ],
        id,
        (next) => {
          if (next !== tab) show(next);
        },
        'Favorites and places',
      ),
    );
    panel.setAttribute('aria-labelledby', 'tab-' + id);
    if (current) current.cleanup();
    current = id === 'places' ? placesPanel() : favoritesPanel();
    mount(panel, current.element);
    await current.load();
  }

  mount(main, h('h2', {}, 'Favorites'), strip, panel);
  await show(tab);

  ctx.onEvent((event) => {
    if (event.type === 'resync' || (event.type === 'changed' && event.docKind === 'library')) current.refresh();
  });
  return () => {
    if (current) current.cleanup();
  };
}

function favoritesPanel() {
  const count = h('p', { class: 'count', 'data-testid': 'favorites-count', 'aria-live': 'polite' });
  const announce = h('p', { class: 'visually-hidden', 'aria-live': 'assertive', 'data-testid': 'favorites-announce' });
  const list = h('ol', { class: 'list favorites-list', 'data-testid': 'favorites-list', 'aria-label': 'Favorites, in your order' });
  const element = h(
    'section',
    { class: 'favorites' },
    h(
      'div',
      { class: 'toolbar' },
      count,
      h('p', { class: 'muted' }, 'Drag a ⠿ handle to reorder, or focus it and press ↑ ↓. Heart more places in ', h('a', { href: '#/discover' }, 'Discover'), '.'),
    ),
    announce,
    list,
  );
  let favorites = [];
  let busy = 0;
  let dragging = false;
  let stale = false;
  let chain = Promise.resolve();

  function item(fav, total) {
    const remove = action(
      'Remove',
      async () => {
        await del('/v1/favorites/' + seg(fav.id));
        announce.textContent = `${fav.name} removed from favorites.`;
        await load();
      },
      { class: 'danger', 'data-testid': 'favorite-delete', 'aria-label': `Remove ${fav.name} from favorites` },
    );
    return h(
      'li',
      { class: 'favorite-item', 'data-testid': 'favorite-item', 'data-id': fav.id, 'data-place-id': fav.placeId, 'data-position': fav.position },
      h(
        'button',
        {
          type: 'button',
          class: 'drag-handle',
          'data-testid': 'favorite-handle',
          'aria-label': `Move ${fav.name}, position ${fav.position} of ${total}: drag, or press the up and down arrow keys`,
          'aria-describedby': 'favorites-help',
        },
        h('span', { 'aria-hidden': 'true' }, '⠿'),
      ),
      h('span', { class: 'position', 'aria-hidden': 'true' }, String(fav.position)),
      h(
        'div',
        { class: 'grow' },
        h('strong', { 'data-testid': 'favorite-name' }, fav.name),
        h('div', { class: 'muted' }, coordinates(fav.latitude, fav.longitude), ' · added ', formatTime(fav.addedAt)),
      ),
      remove,
    );
  }

  function show(list2) {
    favorites = list2.favorites;
    count.textContent = plural(list2.count, 'favorite');
    rerender(
      list,
      favorites.length
        ? favorites.map((fav) => item(fav, favorites.length))
        : [h('li', { class: 'placeholder' }, empty('No favorites yet. Heart places in Discover or in My places.'))],
    );
  }

  async function load() {
    const answer = await get('/v1/favorites');
    // A drag that started while the list was being read: re-rendering now would take the
    // dragged item from under the pointer and lose the drop. Read again when it ends.
    if (dragging) {
      stale = true;
      return;
    }
    show(answer);
  }

  const refresh = debounce(() => {
    if (dragging || busy) {
      stale = true;
      return;
    }
    load().catch((error) => {
      if (error.code !== 'logged-out') flash(error.message);
    });
  });

  sortable(list, {
    item: '[data-testid=favorite-item]',
    handle: '[data-testid=favorite-handle]',
    onDragChange(active) {
      dragging = active;
      if (!active && stale) {
        stale = false;
        refresh();
      }
    },
    async onMove(el, _from, to) {
      const id = el.dataset.id;
      const name = el.querySelector('[data-testid=favorite-name]').textContent;
      // Number the items as they now stand while the daemon answers.
      [...list.children].forEach((li, i) => {
        const pos = li.querySelector('.position');
        if (pos) pos.textContent = String(i + 1);
      });
      busy++;
      // Moves go to the daemon one after another, in the order they were made.
      const run = chain.then(() => post(`/v1/favorites/${seg(id)}/move`, { position: to + 1 }));
      chain = run.catch(() => {});
      try {
        const answer = await run;
        if (busy === 1) show(answer);
        announce.textContent = `${name} moved to position ${to + 1} of ${answer.count}.`;
      } catch (error) {
        await load().catch(() => {});
        const again = list.querySelector(`[data-id="${CSS.escape(id)}"] [data-testid=favorite-handle]`);
        showError(again || list, error);
      } finally {
        busy--;
        if (!busy && stale) {
          stale = false;
          refresh();
        }
      }
    },
  });

  element.prepend(h('p', { id: 'favorites-help', class: 'visually-hidden' }, 'Reorder with the arrow keys; Home and End move to the first and last place.'));
  return { element, load, refresh, cleanup: () => refresh.cancel() };
}
