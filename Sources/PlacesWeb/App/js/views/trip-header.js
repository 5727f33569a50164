// The trip folder's header: the name (renamed inline by an editor: PATCH), the dates, the
// zone and travel mode, the members count and your role, what it costs, its notes; the
// trip's details edited in a dialog (every ItineraryFields field but the expense ones),
// the members' conversation, the calendar download, and delete (owner) or leave (member)
// with a confirm step.
// A refresh redraws everything but an open rename form.
// testids: trip-header, trip-title, trip-rename (button), trip-rename-form,
// trip-rename-input, trip-rename-save, trip-meta, trip-role, trip-members, trip-cost,
// trip-edit-details (button), trip-details-dialog, trip-details-form, trip-details-save,
// trip-conversation (a link to the members' conversation, #/messages/trip:ITIN),
// trip-calendar, trip-delete (owner) / trip-leave (member).

import { patch, del, seg } from '../api.js';
import { h, mount, form, action, download, flash } from '../dom.js';
import { labelled, rerender } from '../ui.js';
import { dateRange, zoneShort, moneyList, pill, confirmDialog, openDialog, parseMoney, TRAVEL_MODES, datesBetween, zoneList } from './trip-common.js';
import { moneyInputs } from './trip-item-form.js';

export function tripHeader(trip, ctx) {
  const titleBox = h('div', { class: 'trip-title-box' });
  const meta = h('div', { class: 'trip-meta', 'data-testid': 'trip-meta' });
  const actions = h('div', { class: 'toolbar trip-actions' });
  const root = h('header', { class: 'trip-header card', 'data-testid': 'trip-header' }, titleBox, meta, actions);
  let renaming = false;

  function drawTitle() {
    const it = trip.itinerary;
    mount(
      titleBox,
      h('h2', { class: 'trip-title', 'data-testid': 'trip-title' }, it.name),
      trip.canEdit ? h('button', { type: 'button', class: 'trip-rename', 'data-testid': 'trip-rename', 'aria-label': 'Rename the trip', onclick: startRename }, '✏️ Rename') : null,
    );
  }

  function startRename() {
    renaming = true;
    const inputEl = h('input', {
      type: 'text',
      name: 'name',
      value: trip.itinerary.name,
      maxlength: '200',
      required: true,
      'aria-label': 'Trip name',
      'data-testid': 'trip-rename-input',
    });
    const stop = () => {
      renaming = false;
      drawTitle();
      titleBox.querySelector('[data-testid="trip-rename"]')?.focus();
    };
    inputEl.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') stop();
    });
    titleBox.replaceChildren(
      form(
        { class: 'row trip-rename-form', 'data-testid': 'trip-rename-form' },
        [inputEl, h('button', { type: 'submit', class: 'primary', 'data-testid': 'trip-rename-save' }, 'Save'), h('button', { type: 'button', onclick: stop }, 'Cancel')],
        async (values) => {
          const name = values.name.trim();
          if (name !== trip.itinerary.name) trip.itinerary = await patch(`/v1/itineraries/${seg(trip.id)}`, { name });
          stop();
        },
      ),
    );
    inputEl.focus();
    inputEl.select();
  }

  function drawMeta() {
    const it = trip.itinerary;
    const days = it.startDate && it.endDate ? datesBetween(it.startDate, it.endDate).length : 0;
    const members = trip.memberCount;
    rerender(meta, () => [
      h(
        'p',
        { class: 'row' },
        h('span', { class: 'trip-dates' }, '🗓 ', dateRange(it.startDate, it.endDate), days ? ` · ${days} day${days === 1 ? '' : 's'}` : ''),
        it.timeZone ? h('span', { title: it.timeZone }, '🕒 ' + zoneShort(it.timeZone)) : null,
        it.travelMode ? h('span', {}, '🧭 ' + it.travelMode) : null,
        h(
          'a',
          { href: `#/itineraries/${trip.id}/sharing`, 'data-testid': 'trip-members', dataset: { count: members ?? '' } },
          members == null ? '👥 members' : `👥 ${members} member${members === 1 ? '' : 's'}`,
        ),
        h(
          'span',
          { 'data-testid': 'trip-role', dataset: { role: it.role } },
          pill(it.role === 'owner' ? 'you own it' : 'you are ' + (it.role === 'editor' ? 'an editor' : 'a viewer'), 'role-' + it.role),
        ),
      ),
      it.totalCost && it.totalCost.length
        ? h(
            'p',
            { class: 'trip-cost', 'data-testid': 'trip-cost' },
            '💶 ',
            moneyList(it.totalCost),
            it.costs
              ? h(
                  'span',
                  { class: 'muted' },
                  ' (' +
                    ['lodging', 'transport', 'food', 'activity']
                      .filter((k) => it.costs[k])
                      .map((k) => `${k} ${moneyList(it.costs[k])}`)
                      .join(', ') +
                    ')',
                )
              : null,
          )
        : null,
      it.transportation ? h('p', { class: 'muted' }, 'Getting there: ', it.transportation) : null,
      it.origin ? h('p', { class: 'muted' }, 'Made from ', it.origin) : null,
      it.notes ? h('p', { class: 'trip-notes' }, it.notes) : null,
    ]);
  }

  function drawActions() {
    const it = trip.itinerary;
    rerender(actions, () => [
      trip.canEdit ? h('button', { type: 'button', 'data-testid': 'trip-edit-details', dataset: { action: 'details' }, onclick: detailsDialog }, 'Edit details') : null,
      h('a', { class: 'button', href: '#/messages/' + seg('trip:' + trip.id), 'data-testid': 'trip-conversation', dataset: { action: 'conversation' } }, '💬 Conversation'),
      action(
        '📅 Calendar (.ics)',
        () => download(`/v1/itineraries/${seg(trip.id)}/calendar`, (it.name.replace(/[^\p{L}\p{N} _-]+/gu, '').trim() || 'trip') + '.ics', 'text/calendar'),
        { 'data-testid': 'trip-calendar', dataset: { action: 'calendar' } },
      ),
      trip.isOwner
        ? action('Delete trip', () => leave(true), { class: 'danger', 'data-testid': 'trip-delete', dataset: { action: 'delete' } })
        : action('Leave trip', () => leave(false), { class: 'danger', 'data-testid': 'trip-leave', dataset: { action: 'leave' } }),
    ]);
  }

  async function leave(owner) {
    const name = trip.itinerary.name;
    const ok = await confirmDialog(
      owner ? `Delete “${name}”?` : `Leave “${name}”?`,
      owner ? 'Delete' : 'Leave',
      owner ? 'The trip disappears for you and for everyone you shared it with.' : 'The trip disappears from this device; the others keep it.',
    );
    if (!ok) return;
    await del(`/v1/itineraries/${seg(trip.id)}`);
    flash(owner ? `Deleted “${name}”.` : `You left “${name}”.`, 'ok');
    ctx.navigate('#/itineraries');
  }

  function detailsDialog() {
    const it = trip.itinerary;
    const lodging = it.lodging || {};
    const { body, close } = openDialog('Trip details', { 'data-testid': 'trip-details-dialog' });
    const text = (name, value, attrs = {}) => h('input', { type: 'text', name, value: value || '', autocomplete: 'off', ...attrs });
    const date = (name, value) => h('input', { type: 'date', name, value: value || '' });
    const formEl = form(
      { class: 'trip-details-form', 'data-testid': 'trip-details-form' },
      [
        labelled('Name', text('name', it.name, { maxlength: '200', required: true })),
        h('div', { class: 'row' }, labelled('First day', date('startDate', it.startDate)), labelled('Last day', date('endDate', it.endDate))),
        h(
          'div',
          { class: 'row' },
          labelled('Time zone', text('timeZone', it.timeZone, { list: zoneList(), placeholder: 'Europe/Lisbon' })),
          labelled(
            'Getting around',
            h(
              'select',
              { name: 'travelMode' },
              TRAVEL_MODES.map((m) => h('option', { value: m, selected: (it.travelMode || 'walking') === m }, m)),
            ),
          ),
        ),
        labelled('Getting there', text('transportation', it.transportation, { maxlength: '2000', placeholder: 'train from Lisbon' })),
        moneyInputs('travelPrice', 'Travel price', it.travelPrice),
        h(
          'fieldset',
          { class: 'trip-location' },
          h('legend', {}, 'Lodging (the trip’s own)'),
          labelled('Name', text('lodging.name', lodging.name, { maxlength: '200' })),
          labelled('Address', text('lodging.address', lodging.address, { maxlength: '500' })),
          h('div', { class: 'row' }, labelled('Check-in', date('lodging.checkIn', lodging.checkIn)), labelled('Check-out', date('lodging.checkOut', lodging.checkOut))),
        ),
        moneyInputs('lodgingPrice', 'Lodging price', it.lodgingPrice),
        labelled('Notes', h('textarea', { name: 'notes', maxlength: '10000' }, it.notes || '')),
        h(
          'div',
          { class: 'form-actions' },
          h('button', { type: 'submit', class: 'primary', 'data-testid': 'trip-details-save' }, 'Save'),
          h('button', { type: 'button', onclick: close }, 'Cancel'),
        ),
      ],
      async (values) => {
        const current = {
          name: it.name,
          startDate: it.startDate,
          endDate: it.endDate,
          timeZone: it.timeZone,
          travelMode: it.travelMode || 'walking',
          transportation: it.transportation,
          'lodging.name': lodging.name,
          'lodging.address': lodging.address,
          'lodging.checkIn': lodging.checkIn,
          'lodging.checkOut': lodging.checkOut,
          notes: it.notes,
        };
        const changes = {};
        for (const [key, old] of Object.entries(current)) {
          const value = (values[key] || '').trim();
          if (value !== (old || '')) changes[key] = value || null;
        }
        if (changes.name === null) delete changes.name;
        for (const key of ['travelPrice', 'lodgingPrice']) {
          const value = parseMoney(values[key + '-amount'], values[key + '-currency'], key);
          if (JSON.stringify(value) !== JSON.stringify(it[key] || null)) changes[key] = value;
        }
        if (Object.keys(changes).length) trip.itinerary = await patch(`/v1/itineraries/${seg(trip.id)}`, changes);
        close();
        update();
      },
    );
    body.appendChild(formEl);
    formEl.elements.name.focus();
  }

  function update() {
    if (!renaming) drawTitle();
    drawMeta();
    drawActions();
  }
  update();
  return { root, update };
}
