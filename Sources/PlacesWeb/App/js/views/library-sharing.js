// Two sections of #/profile: which favorites your contact card carries
// (GET/PUT /v1/favorites/sharing) and the pin categories with their emoji
// (GET/POST /v1/categories). Testids are listed in profile.js.

import { get, put, post } from '../api.js';
import { h, mount, form, field, showError, flash, empty } from '../dom.js';
import { debounce, plural } from '../ui.js';

const MODES = [
  ['off', 'Off', 'your contacts receive none of your favorites'],
  ['all', 'All my favorites', 'every favorite, now and later'],
  ['selected', 'Only the ones I tick', 'a choice among your favorites'],
];

export function sharingSection() {
  const count = h('p', { class: 'muted', 'data-testid': 'sharing-count', 'aria-live': 'polite' });
  const body = h('div');
  const element = h(
    'section',
    { class: 'card', 'aria-labelledby': 'sharing-heading' },
    h('h3', { id: 'sharing-heading' }, 'Share favorites with your contacts'),
    h(
      'p',
      { class: 'muted' },
      'Shared favorites travel on your contact card (name, coordinates, address, categories; never notes). Your contacts see them in Discover and count them in popularity.',
    ),
    count,
    body,
  );
  let dirty = false;

  function show(setting, favorites) {
    count.textContent = setting.sharing === 'off' ? 'Sharing is off.' : `Your contact card carries ${plural(setting.shared || 0, 'favorite')}.`;
    if (dirty) return;
    const chosen = new Set(setting.placeIds || []);
    const list = h(
      'ul',
      { class: 'list sharing-places', 'aria-label': 'Favorites to share' },
      favorites.length
        ? favorites.map((fav) =>
            h(
              'li',
              { 'data-id': fav.placeId },
              h(
                'label',
                {},
                h('input', { type: 'checkbox', name: 'placeIds', value: fav.placeId, checked: chosen.has(fav.placeId), 'data-testid': 'sharing-place' }),
                ' ',
                fav.name,
              ),
            ),
          )
        : h('li', {}, empty('No favorites yet: heart places in Discover.')),
    );
    const radios = MODES.map(([value, label, hint]) =>
      h(
        'label',
        { class: 'radio' },
        h('input', { type: 'radio', name: 'sharing', value, checked: setting.sharing === value, 'data-testid': 'sharing-mode' }),
        ' ',
        label,
        ' ',
        h('span', { class: 'muted' }, '— ' + hint),
      ),
    );
    const el = form(
      { class: 'sharing-form', 'data-testid': 'sharing-form' },
      [
        h('fieldset', { 'data-field': 'sharing' }, h('legend', {}, 'Who receives them'), radios),
        list,
        h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'primary', 'data-testid': 'sharing-save' }, 'Save sharing')),
      ],
      async (values, formEl) => {
        const sharing = values.sharing || 'off';
        const placeIds = [...formEl.querySelectorAll('input[name=placeIds]:checked')].map((box) => box.value);
        if (sharing === 'selected' && !placeIds.length) {
          showError(list, 'Tick at least one favorite to share, or choose “All” or “Off”.');
          return;
        }
        const saved = await put('/v1/favorites/sharing', { sharing, placeIds: sharing === 'selected' ? placeIds : null });
        dirty = false;
        show(saved, favorites);
        flash('Sharing saved.', 'ok');
      },
    );
    list.setAttribute('data-field', 'placeIds');
    const sync = () => {
      list.hidden = el.elements.sharing.value !== 'selected';
    };
    el.addEventListener('change', () => {
      dirty = true;
      sync();
    });
    mount(body, el);
    sync();
  }

  async function load() {
    const [setting, favorites] = await Promise.all([get('/v1/favorites/sharing'), get('/v1/favorites')]);
    show(setting, favorites.favorites);
  }
  const refresh = debounce(() =>
    load().catch((error) => {
      if (error.code !== 'logged-out') flash(error.message);
    }),
  );
  return { element, load, refresh };
}

export function categoriesSection() {
  const list = h('ul', { class: 'chips', 'data-testid': 'categories', 'aria-label': 'Pin categories' });
  const create = form(
    { class: 'row category-form', 'data-testid': 'category-create', 'aria-label': 'Add a category' },
    [
      field('Category', { name: 'name', id: 'category-name', maxlength: 50, placeholder: 'to hike', 'data-testid': 'category-name' }),
      field('Emoji', { name: 'emoji', id: 'category-emoji', maxlength: 8, placeholder: '🥾', class: 'emoji-input', 'data-testid': 'category-emoji' }),
      h('div', { class: 'form-actions' }, h('button', { type: 'submit', 'data-testid': 'category-submit' }, 'Add category')),
    ],
    async (values, el) => {
      if (!values.name.trim()) return showError(el.elements.name, 'Name the category.');
      if (!values.emoji.trim()) return showError(el.elements.emoji, 'Choose one emoji.');
      const answer = await post('/v1/categories', { name: values.name.trim(), emoji: values.emoji.trim() });
      el.reset();
      show(answer.categories);
      return null;
    },
  );

  function show(categories) {
    mount(
      list,
      categories.map((cat) => h('li', { class: 'chip', 'data-testid': 'category-item', 'data-id': cat.name }, h('span', { 'aria-hidden': 'true' }, cat.emoji), ' ', cat.name)),
    );
  }
  const element = h(
    'section',
    { class: 'card', 'aria-labelledby': 'categories-heading' },
    h('h3', { id: 'categories-heading' }, 'Pin categories'),
    h(
      'p',
      { class: 'muted' },
      'Categories you give your places, with their emoji. Adding an existing name changes its emoji. Your own are kept on this device; friends see the built-in emoji.',
    ),
    list,
    create,
  );
  async function load() {
    show((await get('/v1/categories')).categories);
  }
  return { element, load };
}
