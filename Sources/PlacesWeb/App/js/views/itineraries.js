// #/itineraries (the app opens here): pending share invitations at the top (accept or
// decline), a "Mine" / "Shared with me" toggle (GET /v1/itineraries?scope=; the choice is
// kept in the URL as ?scope=shared), the create form (POST /v1/itineraries: a blank trip,
// or a copy of one of yours moved to a new start date), the list, and delete (owner) or
// leave (member) with a confirm step. A link goes to #/join (join with a share link).
// Live: itinerary changes, shares and invitations re-fetch the list and the invitations.
// testids: invitations (section), invitation (each, data-id; buttons data-action =
// accept | decline), itinerary-toggle-mine, itinerary-toggle-shared, itinerary-join-link,
// itinerary-create (form), itinerary-name, itinerary-start, itinerary-end,
// itinerary-timezone, itinerary-from (select: copy from), itinerary-create-submit,
// itinerary-list, itinerary-item (each row, data-id, data-role; its link
// data-action=open, button data-action = delete | leave), itinerary-empty.

import { get, post, del, seg, query } from '../api.js';
import { h, mount, form, flash, describe, person } from '../dom.js';
import { debounce, fieldError, labelled, rerender } from '../ui.js';
import { dateRange, moneyList, pill, confirmDialog, closeDialogs, localZone, zoneList } from './trip-common.js';

export async function render(main, _params, ctx) {
  let scope = ctx.query && ctx.query.get('scope') === 'shared' ? 'shared' : 'mine';
  let mine = [];
  let justCreated = null;

  const invitations = h('section', { class: 'trip-invitations', 'data-testid': 'invitations', 'aria-label': 'Invitations', hidden: true });
  const list = h('ul', { class: 'list trip-itineraries', 'data-testid': 'itinerary-list', 'aria-live': 'polite' });
  const toggle = (id, label) =>
    h(
      'button',
      {
        type: 'button',
        'data-testid': 'itinerary-toggle-' + id,
        'aria-pressed': scope === id ? 'true' : 'false',
        onclick: () => setScope(id),
      },
      label,
    );
  const toggles = h('div', { class: 'trip-toggle', role: 'group', 'aria-label': 'Which itineraries' }, toggle('mine', 'Mine'), toggle('shared', 'Shared with me'));

  const name = h('input', { type: 'text', name: 'name', required: true, maxlength: '200', 'data-testid': 'itinerary-name', placeholder: 'Porto in May', autocomplete: 'off' });
  const fromSelect = h('select', { name: 'from', 'data-testid': 'itinerary-from' }, h('option', { value: '' }, 'a blank trip'));
  const endInput = h('input', { type: 'date', name: 'endDate', 'data-testid': 'itinerary-end' });
  const zoneInput = h('input', { type: 'text', name: 'timeZone', list: zoneList(), value: localZone(), 'data-testid': 'itinerary-timezone', autocomplete: 'off' });
  fromSelect.addEventListener('change', () => {
    // A copy takes its own end date and zone from the trip it copies.
    endInput.disabled = zoneInput.disabled = !!fromSelect.value;
    name.required = !fromSelect.value;
    name.placeholder = fromSelect.value ? 'the same name' : 'Porto in May';
  });
  const createForm = form(
    { class: 'card trip-create', 'data-testid': 'itinerary-create', 'aria-label': 'New itinerary' },
    [
      h('h3', {}, 'New itinerary'),
      h(
        'div',
        { class: 'row' },
        labelled('Name', name),
        labelled('First day', h('input', { type: 'date', name: 'startDate', 'data-testid': 'itinerary-start' })),
        labelled('Last day', endInput),
        labelled('Time zone', zoneInput),
        labelled('Start from', fromSelect),
      ),
      h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'primary', 'data-testid': 'itinerary-create-submit' }, 'Create')),
    ],
    async (values, el) => {
      let created;
      if (values.from) {
        if (!values.startDate) throw fieldError('startDate', 'Choose the first day of the copy.');
        const request = { from: values.from, startDate: values.startDate };
        if (values.name.trim()) request.name = values.name.trim();
        created = await post('/v1/itineraries', request);
      } else {
        if (!values.name.trim()) throw fieldError('name', 'Give the itinerary a name.');
        const request = { name: values.name.trim() };
        for (const key of ['startDate', 'endDate', 'timeZone']) if (values[key] && values[key].trim()) request[key] = values[key].trim();
        created = await post('/v1/itineraries', request);
      }
      el.reset();
      zoneInput.value = localZone();
      fromSelect.dispatchEvent(new Event('change'));
      justCreated = created.id;
      flash(`Created “${created.name}”.`, 'ok');
      if (scope !== 'mine') setScope('mine');
      else await refresh();
    },
  );

  mount(
    main,
    h(
      'div',
      { class: 'toolbar' },
      h('h2', {}, 'Itineraries'),
      toggles,
      h('a', { href: '#/join', class: 'button', 'data-testid': 'itinerary-join-link' }, '🔗 Join with a share link'),
    ),
    invitations,
    createForm,
    list,
  );

  function setScope(next) {
    scope = next;
    for (const button of toggles.querySelectorAll('button')) button.setAttribute('aria-pressed', button.dataset.testid.endsWith(scope) ? 'true' : 'false');
    history.replaceState(null, '', '#/itineraries' + (scope === 'shared' ? '?scope=shared' : ''));
    refresh();
  }

  function row(it) {
    const owned = it.role === 'owner';
    return h(
      'li',
      { class: justCreated === it.id ? 'trip-itinerary trip-highlight' : 'trip-itinerary', 'data-testid': 'itinerary-item', dataset: { id: it.id, role: it.role } },
      h(
        'div',
        { class: 'grow' },
        h('a', { href: `#/itineraries/${it.id}`, class: 'trip-itinerary-name', dataset: { action: 'open' } }, it.name),
        h(
          'div',
          { class: 'muted' },
          '🗓 ',
          dateRange(it.startDate, it.endDate),
          ` · ${it.placeCount} place${it.placeCount === 1 ? '' : 's'} to go`,
          it.totalCost && it.totalCost.length ? ' · ' + moneyList(it.totalCost) : '',
        ),
        owned ? null : h('div', { class: 'muted' }, 'shared by ', person(names && names.get(it.owner), it.owner)),
      ),
      pill(owned ? 'owner' : it.role, 'role-' + it.role),
      h(
        'button',
        { type: 'button', class: 'danger', dataset: { action: owned ? 'delete' : 'leave' }, 'aria-label': `${owned ? 'Delete' : 'Leave'} ${it.name}` },
        owned ? 'Delete' : 'Leave',
      ),
    );
  }

  let itineraries = [];
  let names = null;
  async function loadList() {
    const shown = scope;
    const [answer, own] = await Promise.all([get('/v1/itineraries' + query({ scope })), scope === 'mine' ? null : get('/v1/itineraries?scope=mine')]);
    if (shown !== scope) return;
    itineraries = answer.itineraries;
    if (itineraries.some((it) => it.role !== 'owner') && !names) {
      // The owners' names, from the contacts (a share's owner becomes one).
      try {
        names = new Map((await get('/v1/contacts')).contacts.map((c) => [c.id, c.name || c.username || '']));
      } catch {
        names = new Map();
      }
    }
    mine = scope === 'mine' ? itineraries : own.itineraries;
    const chosen = fromSelect.value;
    fromSelect.replaceChildren(
      h('option', { value: '' }, 'a blank trip'),
      ...mine.map((it) => h('option', { value: it.id, selected: it.id === chosen }, 'a copy of “' + it.name + '”')),
    );
    rerender(list, () =>
      itineraries.length
        ? itineraries.map(row)
        : h(
            'li',
            { class: 'empty', 'data-testid': 'itinerary-empty' },
            scope === 'mine'
              ? 'No itineraries yet: create your first trip above.'
              : 'Nothing is shared with you yet. When a friend shares a trip it appears here; you can also join with a share link.',
          ),
    );
  }

  async function loadInvitations() {
    let pending = [];
    try {
      pending = (await get('/v1/invitations')).invitations.filter((i) => i.kind === 'itinerary' && i.status === 'pending');
    } catch {
      pending = [];
    }
    invitations.hidden = !pending.length;
    rerender(invitations, () =>
      pending.length
        ? [
            h('h3', {}, 'Invitations'),
            h(
              'ul',
              { class: 'list' },
              pending.map((inv) =>
                h(
                  'li',
                  { 'data-testid': 'invitation', dataset: { id: inv.id } },
                  h(
                    'div',
                    { class: 'grow' },
                    person(inv.fromName, inv.from),
                    ' shares ',
                    h('strong', {}, inv.name ? '“' + inv.name + '”' : 'an itinerary'),
                    inv.role ? ` with you as ${inv.role === 'editor' ? 'an editor' : 'a viewer'}` : '',
                    h('div', { class: 'muted' }, 'Accepting makes them a contact; the trip syncs when one of their devices is reachable.'),
                  ),
                  h('button', { type: 'button', class: 'primary', dataset: { action: 'accept' }, 'aria-label': `Accept ${inv.name || 'the itinerary'}` }, 'Accept'),
                  h('button', { type: 'button', dataset: { action: 'decline' }, 'aria-label': `Decline ${inv.name || 'the itinerary'}` }, 'Decline'),
                ),
              ),
            ),
          ]
        : [],
    );
  }

  async function refresh() {
    try {
      await Promise.all([loadList(), loadInvitations()]);
    } catch (error) {
      list.replaceChildren(h('li', { class: 'field-error', role: 'alert' }, describe(error)));
    }
  }

  list.addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-action]');
    if (!button) return;
    const rowEl = button.closest('[data-testid="itinerary-item"]');
    const it = itineraries.find((i) => i.id === rowEl.dataset.id);
    if (!it) return;
    const owned = button.dataset.action === 'delete';
    const ok = await confirmDialog(
      owned ? `Delete “${it.name}”?` : `Leave “${it.name}”?`,
      owned ? 'Delete' : 'Leave',
      owned ? 'The trip disappears for you and for everyone you shared it with.' : 'The trip disappears from this device; its owner and the other members keep it.',
    );
    if (!ok) return;
    try {
      await del(`/v1/itineraries/${seg(it.id)}`);
      flash(owned ? `Deleted “${it.name}”.` : `You left “${it.name}”.`, 'ok');
      await refresh();
    } catch (error) {
      rowEl.appendChild(h('p', { class: 'field-error', role: 'alert' }, describe(error)));
    }
  });

  invitations.addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-action]');
    if (!button) return;
    const rowEl = button.closest('[data-testid="invitation"]');
    button.disabled = true;
    try {
      await post(`/v1/invitations/${seg(rowEl.dataset.id)}/${button.dataset.action}`);
      flash(button.dataset.action === 'accept' ? 'Accepted: the trip appears under “Shared with me” once it has synced.' : 'Declined.', 'ok');
      await refresh();
    } catch (error) {
      button.disabled = false;
      rowEl.appendChild(h('p', { class: 'field-error', role: 'alert' }, describe(error)));
    }
  });

  const later = debounce(refresh, 100);
  ctx.onEvent((event) => {
    if (event.type === 'shared') names = null;
    if (event.type === 'resync' || event.type === 'shared' || event.type === 'invited' || (event.type === 'changed' && (!event.docKind || event.docKind === 'itinerary'))) later();
  });

  await refresh();
  return () => {
    later.cancel();
    closeDialogs();
  };
}
