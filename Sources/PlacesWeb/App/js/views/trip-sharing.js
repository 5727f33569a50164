// The Sharing tab of a trip: the owner and members with their roles (the owner changes a
// role or removes a member), sharing with a person by id (friends and contacts offered),
// share links with their QR codes (trip-sharing-links.js), leaving a trip someone shared,
// and the owner's publish controls (trip-sharing-publish.js). Called by trip.js as
// renderTab(container, trip, ctx) → { refresh(event), cleanup() }.
// testids: sharing-tab, member-list, member-row (data-id = human id, data-role),
//   member-role (the owner's role select), member-remove, share-form, share-member,
//   share-pick (friends/contacts), share-role, share-submit, links, sharing-leave,
//   plus link-* (trip-sharing-links.js) and publish-* (trip-sharing-publish.js).

import { get, post, del, seg } from '../api.js';
import { h, field, form, describe, flash, shortID } from '../dom.js';
import { confirmButton, debounce, rerender, trackDirty } from '../ui.js';
import { linkCreateForm, linkList } from './trip-sharing-links.js';
import { publishPanel } from './trip-sharing-publish.js';

const ROLE_WORDS = { owner: 'Owner', editor: 'Editor', viewer: 'Viewer' };

export async function renderTab(container, trip, ctx) {
  const base = `/v1/itineraries/${seg(trip.id)}`;
  const me = ctx.status && ctx.status.id;
  const isOwner = !!trip.isOwner;
  const role = trip.itinerary && trip.itinerary.role;
  const state = { list: null, error: null, closed: false, urls: new Map(), names: new Map(), people: [] };

  const membersSlot = h('div', { class: 'members-slot' });
  const linksSlot = h('div', { class: 'links-slot' });
  const shareSlot = h('div');
  const publish = isOwner ? publishPanel({ trip }) : null;

  async function loadPeople() {
    const [friends, contacts] = await Promise.all([get('/v1/friends').catch(() => ({ friends: [] })), get('/v1/contacts').catch(() => ({ contacts: [] }))]);
    const seen = new Map();
    for (const f of friends.friends || []) if (f.state === 'friend') seen.set(f.id, f.name || shortID(f.id));
    for (const c of contacts.contacts || []) if (!seen.has(c.id) && /^[A-Z2-7]{7}(-[A-Z2-7]{7}){7}$/.test(c.id)) seen.set(c.id, c.name || shortID(c.id));
    for (const [id, name] of seen) state.names.set(id, name);
    state.people = [...seen].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
  }

  async function load() {
    try {
      state.list = await get(`${base}/members`);
      state.error = null;
      for (const m of state.list.members) if (m.name) state.names.set(m.id, m.name);
    } catch (error) {
      state.error = error;
    }
  }

  function memberRow(m) {
    const you = m.id === me;
    const changeable = isOwner && m.role !== 'owner';
    let roleControl = h('span', { class: 'chip role' }, ROLE_WORDS[m.role] || m.role);
    if (changeable) {
      const id = 'role-' + m.id;
      const select = h(
        'select',
        { id, dataset: { testid: 'member-role', action: 'role' }, 'aria-label': `Role of ${m.name || shortID(m.id)}` },
        ['editor', 'viewer'].map((r) => h('option', { value: r, selected: r === m.role }, ROLE_WORDS[r])),
      );
      select.addEventListener('change', async () => {
        select.disabled = true;
        const old = select.nextElementSibling;
        if (old && old.classList.contains('field-error')) old.remove();
        try {
          state.list = await post(`${base}/share`, { member: m.id, role: select.value });
          renderMembers(true);
          flash(`${m.name || shortID(m.id)} is now ${select.value === 'editor' ? 'an editor' : 'a viewer'}.`, 'ok');
        } catch (error) {
          select.value = m.role;
          select.after(h('p', { class: 'field-error', role: 'alert' }, describe(error)));
        } finally {
          select.disabled = false;
        }
      });
      roleControl = select;
    }
    const via = m.via === 'link' ? `joined with link ${String(m.link || '').slice(0, 8)}` : m.via === 'key' ? 'added by id' : null;
    return h(
      'li',
      { class: 'member-row', dataset: { testid: 'member-row', id: m.id, role: m.role } },
      h(
        'div',
        { class: 'grow' },
        h('span', { class: 'person', title: m.id }, m.name || shortID(m.id)),
        you ? h('span', { class: 'muted' }, ' (you)') : null,
        h('div', { class: 'muted member-id' }, m.id),
        via ? h('div', { class: 'muted' }, via) : null,
      ),
      roleControl,
      changeable
        ? confirmButton(
            'Remove',
            async () => {
              state.list = await del(`${base}/members/${seg(m.id)}`);
              renderMembers(true);
              renderLinks();
            },
            { dataset: { testid: 'member-remove', action: 'remove' }, 'aria-label': `Remove ${m.name || shortID(m.id)} from the trip` },
          )
        : null,
    );
  }

  function renderMembers(force = false) {
    if (!force && [...membersSlot.querySelectorAll('select')].some((s) => s === document.activeElement)) return;
    if (state.error) {
      membersSlot.replaceChildren(h('p', { class: 'field-error', role: 'alert' }, describe(state.error)));
      return;
    }
    if (!state.list) return;
    rerender(membersSlot, [
      h('p', { class: 'muted' }, `${state.list.members.length} ${state.list.members.length === 1 ? 'person' : 'people'} on this trip.`),
      h('ul', { class: 'list members', dataset: { testid: 'member-list' } }, state.list.members.map(memberRow)),
    ]);
  }

  function renderLinks() {
    if (!state.list) return;
    rerender(linksSlot, linkList(state.list.links || [], { trip, isOwner, urls: state.urls, names: state.names, onChange: reload }));
  }

  function shareForm() {
    const pickId = 'pick-' + Math.random().toString(36).slice(2, 8);
    const pick = h(
      'select',
      { id: pickId, dataset: { testid: 'share-pick' } },
      h('option', { value: '' }, state.people.length ? '— choose a friend or contact —' : '— no friends or contacts yet —'),
      state.people.map((p) => h('option', { value: p.id }, p.name)),
    );
    const roleField = field('Role', { name: 'role', dataset: { testid: 'share-role' } }, 'select');
    roleField.querySelector('select').append(h('option', { value: 'viewer' }, 'Viewer (can read)'), h('option', { value: 'editor' }, 'Editor (can change)'));
    const el = form(
      { class: 'card share-form', dataset: { testid: 'share-form' }, 'aria-label': 'Share with a person' },
      [
        h('h3', {}, 'Share with a person'),
        h(
          'div',
          { class: 'form-grid' },
          h('div', { class: 'field' }, h('label', { for: pickId }, 'Friend or contact'), pick),
          field('Their id', { name: 'member', autocomplete: 'off', spellcheck: 'false', dataset: { testid: 'share-member' }, placeholder: 'AOQQPP7-TZYIL44-…' }),
          roleField,
        ),
        h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'primary', dataset: { testid: 'share-submit' } }, 'Share')),
      ],
      async (values, formEl) => {
        const member = values.member.trim();
        if (!member) throw Object.assign(new Error('Choose a friend or paste the id of the person (it looks like AOQQPP7-TZYIL44-…).'), { field: 'member' });
        state.list = await post(`${base}/share`, { member, role: values.role });
        formEl.reset();
        delete formEl.dataset.dirty;
        flash(`Shared as ${values.role}. They receive it the next time their daemon meets one of yours.`, 'ok');
        renderMembers(true);
        renderLinks();
      },
    );
    pick.addEventListener('change', () => {
      if (pick.value) {
        el.elements.member.value = pick.value;
        el.dataset.dirty = 'true';
      }
    });
    return trackDirty(el);
  }

  async function reload() {
    await load();
    if (state.closed) return;
    renderMembers();
    renderLinks();
  }

  const leave = !isOwner
    ? h(
        'section',
        { class: 'card leave' },
        h('h3', {}, 'Leave this trip'),
        h('p', { class: 'muted' }, `You are ${role === 'editor' ? 'an editor' : 'a viewer'} of this trip. Leaving removes it from this device; the others keep it.`),
        confirmButton(
          'Leave trip',
          async () => {
            await del(base);
            flash('You left the trip.', 'ok');
            ctx.navigate('#/itineraries');
          },
          { dataset: { testid: 'sharing-leave' } },
        ),
      )
    : null;

  const canLink = role === 'owner' || role === 'editor' || isOwner;
  container.replaceChildren(
    h(
      'section',
      { class: 'sharing-tab', dataset: { testid: 'sharing-tab' }, 'aria-label': 'Sharing' },
      h('h3', {}, 'People'),
      membersSlot,
      isOwner ? shareSlot : null,
      h(
        'section',
        { class: 'links-section', dataset: { testid: 'links' }, 'aria-labelledby': 'links-h' },
        h('h3', { id: 'links-h' }, 'Share links'),
        canLink
          ? linkCreateForm({
              trip,
              isOwner,
              onMade: async (link) => {
                state.urls.set(link.id, link.url);
                await reload();
                const copy = linksSlot.querySelector(`[data-id="${link.id}"] [data-testid=link-copy]`);
                if (copy) {
                  copy.focus();
                  copy.scrollIntoView({ block: 'nearest' });
                }
              },
            })
          : h('p', { class: 'muted' }, 'Viewers cannot make links.'),
        linksSlot,
      ),
      publish ? publish.element : null,
      leave,
    ),
  );

  await Promise.all([load(), isOwner ? loadPeople() : null]);
  if (isOwner) shareSlot.replaceChildren(shareForm());
  renderMembers(true);
  renderLinks();
  if (publish) publish.reload();

  const refresh = debounce(() => {
    if (!state.closed) reload().catch((error) => flash(describe(error)));
  }, 30);
  return {
    refresh(event) {
      refresh();
      if (publish && event && event.docKind === 'published') publish.reload();
    },
    cleanup() {
      state.closed = true;
      refresh.cancel();
    },
  };
}
