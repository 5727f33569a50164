// The contacts section of #/friends: people whose shares arrive directly (GET
// /v1/contacts), each with their card (username, bio) and the favorites they share with
// you (GET /v1/contacts/{id}, shown on demand); accepting someone's shares by id, and
// stopping it.
// testids: contacts (section), contacts-list, contact-item (data-id), contact-favorites-toggle
//   (aria-expanded), contact-favorites, contact-favorite (data-id), contact-remove
//   (+ contact-remove-confirm), contact-add (form), contact-add-id, contact-add-name,
//   contacts-empty

import { get, post, del, seg } from '../api.js';
import { h, mount, form, clearErrors } from '../dom.js';
import { confirmButton, plural } from '../ui.js';
import { photo } from '../photos.js';
import { refresher, reconcile, avatar } from './social-common.js';

export function contactsSection() {
  const rows = new Map();
  const list = h('ul', { class: 'list contacts-list', 'aria-labelledby': 'contacts-h', dataset: { testid: 'contacts-list' } });
  const emptyLine = h(
    'p',
    { class: 'empty', hidden: true, dataset: { testid: 'contacts-empty' } },
    'No contacts yet. Friends become contacts; so do people whose shared itinerary you accept.',
  );

  const addForm = form(
    { class: 'row contact-add', dataset: { testid: 'contact-add' }, 'aria-label': 'Accept shares from someone' },
    [
      h(
        'div',
        { class: 'field grow' },
        h('label', { for: 'contact-add-id' }, 'Their public id'),
        h('input', { id: 'contact-add-id', name: 'id', autocomplete: 'off', spellcheck: 'false', dataset: { testid: 'contact-add-id' } }),
      ),
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'contact-add-name' }, 'Name for them (optional)'),
        h('input', { id: 'contact-add-name', name: 'name', maxlength: 100, dataset: { testid: 'contact-add-name' } }),
      ),
      h('div', { class: 'form-actions' }, h('button', { type: 'submit', dataset: { testid: 'contact-add-submit' } }, 'Add contact')),
    ],
    async (values, el) => {
      const id = (values.id || '').trim().toUpperCase();
      if (!id) throw Object.assign(new Error('Enter their id first.'), { field: 'id' });
      const body = { id };
      if (values.name && values.name.trim()) body.name = values.name.trim();
      await post('/v1/contacts', body);
      el.reset();
      clearErrors(el);
      refresh();
    },
  );

  const el = h(
    'section',
    { class: 'contacts-section', dataset: { testid: 'contacts' }, 'aria-labelledby': 'contacts-h' },
    h('h3', { id: 'contacts-h' }, 'Contacts'),
    h('p', { class: 'muted' }, 'Itineraries your contacts share arrive directly, without an invitation, and you can see the favorites they share with you.'),
    list,
    emptyLine,
    h('details', { class: 'card' }, h('summary', {}, 'Accept shares from someone else'), addForm),
  );

  async function load() {
    const answer = await get('/v1/contacts');
    const nodes = answer.contacts.map((c) => {
      let row = rows.get(c.id);
      if (!row) {
        row = contactRow(c, () => refresh());
        rows.set(c.id, row);
      } else row.update(c);
      return row.el;
    });
    const seen = new Set(answer.contacts.map((c) => c.id));
    for (const id of [...rows.keys()]) if (!seen.has(id)) rows.delete(id);
    reconcile(list, nodes);
    emptyLine.hidden = nodes.length > 0;
  }

  const refresh = refresher(load, 150);
  return { el, load, refresh, stop: () => refresh.stop() };
}

function contactRow(initial, changed) {
  let contact = initial;
  let open = false;
  let shownKey = '';
  const head = h('div', { class: 'grow' });
  const toggle = h('button', { type: 'button', 'aria-expanded': 'false', dataset: { testid: 'contact-favorites-toggle' } });
  const favorites = h('div', { class: 'contact-favorites', hidden: true, dataset: { testid: 'contact-favorites' } });
  const remove = confirmButton(
    'Remove',
    async () => {
      await del('/v1/contacts/' + seg(contact.id));
      changed();
    },
    { confirmLabel: 'Stop accepting their shares', 'aria-label': 'Remove ' + (initial.name || 'this contact') + ' from contacts', dataset: { testid: 'contact-remove' } },
  );
  const el = h(
    'li',
    { class: 'contact-row', dataset: { testid: 'contact-item', id: initial.id } },
    avatar(null, initial.name || initial.username),
    head,
    h('div', { class: 'row' }, toggle, remove),
    favorites,
  );

  toggle.addEventListener('click', () => {
    open = !open;
    favorites.hidden = !open;
    toggle.setAttribute('aria-expanded', String(open));
    if (open) loadFavorites();
  });

  async function loadFavorites() {
    mount(favorites, h('p', { class: 'muted' }, 'Loading…'));
    try {
      const profile = await get('/v1/contacts/' + seg(contact.id));
      mount(
        favorites,
        profile.favorites.length ? h('ul', { class: 'shared-places' }, profile.favorites.map(sharedPlace)) : h('p', { class: 'empty' }, 'They share no favorites with you.'),
      );
    } catch (error) {
      mount(favorites, h('p', { class: 'field-error', role: 'alert' }, error.message));
    }
  }

  function render() {
    const c = contact;
    const key = JSON.stringify(c);
    if (key === shownKey) return;
    const reload = open && shownKey && JSON.parse(shownKey).sharedFavorites !== c.sharedFavorites;
    shownKey = key;
    mount(
      head,
      h(
        'div',
        { class: 'row' },
        h('span', { class: 'person', title: c.id }, c.name || c.username || c.id.split('-')[0]),
        c.username ? h('span', { class: 'muted' }, '@' + c.username) : null,
      ),
      c.bio ? h('p', { class: 'friend-bio' }, c.bio) : null,
      h('div', { class: 'muted' }, 'Contact since ' + new Date(c.addedAt).toLocaleDateString() + ' · ' + plural(c.sharedFavorites, 'shared favorite')),
    );
    toggle.textContent = open ? 'Hide favorites' : 'Favorites';
    toggle.setAttribute('aria-label', 'Favorites ' + (c.name || 'they') + ' share');
    if (reload) loadFavorites();
  }
  toggle.addEventListener('click', () => {
    toggle.textContent = open ? 'Hide favorites' : 'Favorites';
  });

  render();
  return {
    el,
    update(next) {
      contact = next;
      render();
    },
  };
}

/** A favorite someone shares (SharedFavorite), as text, with its photos. */
export function sharedPlace(p, extra = null) {
  return h(
    'li',
    { class: 'shared-place', dataset: { testid: 'contact-favorite', id: p.id } },
    h('div', { class: 'row' }, h('span', { class: 'ex-title' }, p.name), p.categories && p.categories.length ? h('span', { class: 'muted' }, p.categories.join(', ')) : null),
    p.address ? h('div', { class: 'muted' }, p.address) : null,
    p.notes ? h('p', { class: 'place-notes' }, p.notes) : null,
    p.photos && p.photos.length
      ? h(
          'div',
          { class: 'place-photos' },
          p.photos.map((ph, i) => photo(ph.id, { alt: `Photo ${i + 1} of ${p.name}`, width: ph.width, height: ph.height, testid: 'place-photo', className: 'social-photo thumb' })),
        )
      : null,
    extra,
  );
}
