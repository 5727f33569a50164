// The item editor (a dialog): one form per item type with the fields POST/PATCH
// …/items take (TripItemFields in Protocol/control-api.yaml). Inputs are named by the
// API's field names (`title`, `timeZone`, `location.latitude`, `to.name`…), and the date
// and time pairs carry data-field="start"/"end", the money pair data-field="price", so
// an `invalid-field` problem shows beside the input it names. A PATCH sends only the
// fields the user changed, so a co-editor's edit to another field is never overwritten.
// testids: item-dialog, item-form, item-type (select, new items), item-save, item-delete;
// move-dialog, move-form, move-day (select), move-position, move-save.

import { get, post, patch, del, seg } from '../api.js';
import { h, form, action } from '../dom.js';
import { TYPES, MODES, openDialog, parseMoney, moneyAmountText, datePart, timePart, confirmDialog, shortDay, zoneList } from './trip-common.js';
import { fieldError, labelled } from '../ui.js';

const COMMON_CURRENCIES = ['EUR', 'USD', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'BRL', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'MXN', 'CNY', 'INR'];

let currencyListId = null;
function currencyList() {
  if (currencyListId && document.getElementById(currencyListId)) return currencyListId;
  currencyListId = 'trip-currencies';
  document.body.appendChild(
    h(
      'datalist',
      { id: currencyListId },
      COMMON_CURRENCIES.map((code) => h('option', { value: code })),
    ),
  );
  return currencyListId;
}

const input = (attrs) => h('input', { type: 'text', autocomplete: 'off', ...attrs });

/** Date + time inputs for a LocalDateTime field (`start` or `end`). */
function whenInputs(field, label, value) {
  const date = input({ type: 'date', name: field + '-date', 'data-field': field, value: datePart(value), 'aria-label': label + ' date' });
  const time = input({ type: 'time', name: field + '-time', value: timePart(value), 'aria-label': label + ' time' });
  return h('fieldset', { class: 'trip-when' }, h('legend', {}, label), h('div', { class: 'row' }, date, time));
}

/** Money: an amount and a currency. */
export function moneyInputs(field, label, value, fallbackCurrency) {
  const amount = input({
    name: field + '-amount',
    'data-field': field,
    inputmode: 'decimal',
    value: moneyAmountText(value),
    placeholder: '0.00',
    'aria-label': label + ' amount',
    class: 'trip-amount',
  });
  const currency = input({
    name: field + '-currency',
    value: value ? value.currency : fallbackCurrency || 'EUR',
    maxlength: '3',
    list: currencyList(),
    'aria-label': label + ' currency',
    class: 'trip-currency',
  });
  return h('fieldset', { class: 'trip-money' }, h('legend', {}, label), h('div', { class: 'row' }, amount, currency));
}

function locationInputs(prefix, legend, value = {}) {
  return h(
    'fieldset',
    { class: 'trip-location' },
    h('legend', {}, legend),
    labelled('Name', input({ name: prefix + '.name', value: value.name || '', maxlength: '200' })),
    labelled('Address', input({ name: prefix + '.address', value: value.address || '', maxlength: '500' })),
    h(
      'div',
      { class: 'row' },
      labelled('Latitude', input({ name: prefix + '.latitude', inputmode: 'decimal', value: value.latitude ?? '', placeholder: '41.1496' })),
      labelled('Longitude', input({ name: prefix + '.longitude', inputmode: 'decimal', value: value.longitude ?? '', placeholder: '-8.6109' })),
    ),
  );
}

/** The type-specific part of the form. */
function typeFields(type, item, linkTargets) {
  const zones = zoneList();
  const startLabel = type === 'lodging' ? 'Check-in' : type === 'transport' ? 'Departure' : 'Start';
  const endLabel = type === 'lodging' ? 'Check-out' : type === 'transport' ? 'Arrival' : 'End';
  const parts = [
    h('div', { class: 'row trip-when-pair' }, whenInputs('start', startLabel, item.start), whenInputs('end', endLabel, item.end)),
    h(
      'div',
      { class: 'row' },
      labelled(type === 'transport' ? 'Departure time zone' : 'Time zone', input({ name: 'timeZone', list: zones, value: item.timeZone || '', placeholder: 'trip’s zone' })),
      type === 'transport' ? labelled('Arrival time zone', input({ name: 'endTimeZone', list: zones, value: item.endTimeZone || '', placeholder: 'same as departure' })) : null,
    ),
  ];
  if (type === 'transport') {
    parts.push(
      h(
        'div',
        { class: 'row' },
        labelled(
          'Mode',
          h(
            'select',
            { name: 'mode' },
            MODES.map((mode) => h('option', { value: mode, selected: (item.mode || 'other') === mode }, mode)),
          ),
        ),
        labelled('Carrier', input({ name: 'carrier', value: item.carrier || '', maxlength: '100' })),
        labelled('Number', input({ name: 'number', value: item.number || '', maxlength: '50' })),
        labelled('Booking reference', input({ name: 'bookingReference', value: item.bookingReference || '', maxlength: '100' })),
      ),
    );
    parts.push(locationInputs('location', 'From', item.location), locationInputs('to', 'To', item.to));
  } else {
    parts.push(locationInputs('location', 'Where', item.location));
  }
  if (type === 'lodging') {
    parts.push(
      h(
        'div',
        { class: 'row' },
        labelled('Confirmation code', input({ name: 'confirmationCode', value: item.confirmationCode || '', maxlength: '100' })),
        labelled('Contact', input({ name: 'contact', value: item.contact || '', maxlength: '500' })),
      ),
    );
  }
  if (type === 'food') {
    parts.push(
      h(
        'div',
        { class: 'row' },
        labelled('Rating (0–5)', input({ name: 'rating', type: 'number', min: '0', max: '5', step: '0.5', value: item.rating ?? '' })),
        labelled('Recommendation', input({ name: 'recommendation', value: item.recommendation || '', maxlength: '2000' })),
      ),
    );
  }
  if (type === 'activity') {
    parts.push(labelled('Description', h('textarea', { name: 'description', maxlength: '10000' }, item.description || '')));
    const booked = h('input', { type: 'checkbox', name: 'booked', id: 'if-' + ++uid, checked: !!item.booked });
    parts.push(h('div', { class: 'field trip-check' }, booked, h('label', { for: booked.id }, 'Booked')));
    parts.push(
      labelled(
        'Belongs to',
        h(
          'select',
          { name: 'linkedItem' },
          h('option', { value: '' }, '(nothing)'),
          linkTargets.filter((target) => target.id !== item.id).map((target) => h('option', { value: target.id, selected: target.id === item.linkedItem }, target.label)),
        ),
      ),
    );
  }
  parts.push(moneyInputs('price', 'Price', item.price));
  parts.push(labelled('Web page', input({ name: 'url', type: 'url', value: item.url || '', maxlength: '2000', placeholder: 'https://' })));
  parts.push(labelled('Notes', h('textarea', { name: 'notes', maxlength: '10000' }, item.notes || '')));
  return parts;
}

/** Reads the form into API fields: { field: value-or-null }. Throws fieldError for bad input. */
function readFields(el) {
  const value = (name) => {
    const c = el.elements.namedItem(name);
    return c ? (c.type === 'checkbox' ? c.checked : c.value.trim()) : undefined;
  };
  const out = {};
  for (const c of el.elements) {
    if (!c.name || c.name.includes('-') || c.type === 'submit' || c.name === 'type') continue;
    const v = value(c.name);
    if (c.type === 'checkbox') {
      out[c.name] = v;
      continue;
    }
    if (c.name.endsWith('.latitude') || c.name.endsWith('.longitude') || c.name === 'rating') {
      if (v === '') {
        out[c.name] = null;
        continue;
      }
      const n = Number(v.replace(',', '.'));
      if (!Number.isFinite(n)) throw fieldError(c.name, `“${v}” is not a number.`);
      out[c.name] = n;
      continue;
    }
    out[c.name] = v === '' ? null : v;
  }
  for (const field of ['start', 'end']) {
    const date = value(field + '-date');
    const time = value(field + '-time');
    if (date === undefined) continue;
    if (!date && time) throw fieldError(field, 'Give a date with the time.');
    out[field] = date ? (time ? `${date}T${time.slice(0, 5)}` : date) : null;
  }
  if (value('price-amount') !== undefined) out.price = parseMoney(value('price-amount'), value('price-currency'), 'price');
  return out;
}

const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Opens the editor. `item` absent = a new item (of `type`, on `date` when given).
 * `onSaved(item)` runs after the save; the dialog closes itself.
 */
export async function openItemEditor({ trip, item = null, type = 'activity', date = '', onSaved = () => {} }) {
  const creating = !item;
  const current = item ? { ...item } : { type, start: date || undefined };
  const base = `/v1/itineraries/${seg(trip.id)}/items`;
  let linkTargets = [];
  const needsTargets = () => current.type === 'activity';
  const loadTargets = async () => {
    if (linkTargets.length || !needsTargets()) return;
    try {
      const list = await get(base);
      linkTargets = list.items
        .filter((i) => !i.legacy)
        .map((i) => ({ id: i.id, label: `${TYPES[i.type].emoji} ${i.title}` }))
        .concat((trip.itinerary.places || []).map((p) => ({ id: p.id, label: `📍 ${p.name}` })));
    } catch {
      linkTargets = [];
    }
  };
  await loadTargets();

  const title = creating ? 'Add ' + TYPES[current.type].one : 'Edit “' + item.title + '”';
  const { dialog, body, close } = openDialog(title, { 'data-testid': 'item-dialog' });
  const fieldsBox = h('div', { class: 'trip-type-fields' });
  const typeSelect = creating
    ? h(
        'select',
        { name: 'type', 'data-testid': 'item-type' },
        ['lodging', 'transport', 'food', 'activity'].map((t) => h('option', { value: t, selected: t === current.type }, TYPES[t].one)),
      )
    : null;
  const titleInput = input({ name: 'title', value: current.title || '', maxlength: '200', required: true, 'data-testid': 'item-title' });
  let initial = null;
  const fill = () => {
    fieldsBox.replaceChildren(...typeFields(current.type, current, linkTargets));
    if (!creating && !initial) initial = readFields(formEl);
  };
  if (typeSelect) {
    typeSelect.addEventListener('change', async () => {
      current.type = typeSelect.value;
      await loadTargets();
      fill();
    });
  }
  const formEl = form(
    { class: 'trip-item-form', 'data-testid': 'item-form', dataset: { type: current.type } },
    [
      typeSelect ? labelled('Type', typeSelect) : null,
      labelled(current.type === 'lodging' ? 'Name of the stay' : 'Title', titleInput),
      fieldsBox,
      h(
        'div',
        { class: 'form-actions' },
        h('button', { type: 'submit', class: 'primary', 'data-testid': 'item-save' }, creating ? 'Add' : 'Save'),
        h('button', { type: 'button', onclick: () => close() }, 'Cancel'),
        !creating
          ? action(
              'Delete',
              async () => {
                if (!(await confirmDialog(`Delete “${item.title}”?`, 'Delete', 'It disappears for everyone on the trip.'))) return;
                await del(`${base}/${seg(item.id)}`);
                close();
                onSaved(null);
              },
              { class: 'danger', 'data-testid': 'item-delete' },
            )
          : null,
      ),
    ],
    async () => {
      const fields = readFields(formEl);
      let saved;
      if (creating) {
        const bodyFields = { type: current.type };
        for (const [key, value] of Object.entries(fields)) if (value !== null && value !== '' && !(key === 'booked' && value === false)) bodyFields[key] = value;
        saved = await post(base, bodyFields);
      } else {
        const changes = {};
        for (const [key, value] of Object.entries(fields)) if (!same(value, initial[key])) changes[key] = value;
        if (!Object.keys(changes).length) {
          close();
          return;
        }
        saved = await patch(`${base}/${seg(item.id)}`, changes);
      }
      close();
      onSaved(saved);
    },
  );
  fill();
  body.appendChild(formEl);
  titleInput.focus();
  return dialog;
}

/**
 * Move an item or a place to go to another day and/or position (POST …/items/{ref}/move).
 * `days` is the DayList's days ([{date, number}]); `from` the day it is on now, if any.
 */
export function openMoveDialog({ trip, item, days, from = '', onMoved = () => {} }) {
  const { body, close } = openDialog('Move “' + item.title + '”', { 'data-testid': 'move-dialog' });
  const daySelect = h(
    'select',
    { name: 'day', 'data-testid': 'move-day' },
    h('option', { value: '' }, '(keep the day)'),
    days.map((day) => h('option', { value: String(day.number), selected: day.date === from }, `Day ${day.number}: ${shortDay(day.date)}`)),
  );
  const dateInput = input({ type: 'date', name: 'date', 'aria-label': 'Or another date' });
  const position = input({ type: 'number', name: 'position', min: '1', 'data-testid': 'move-position', placeholder: 'last' });
  const formEl = form(
    { 'data-testid': 'move-form' },
    [
      labelled('To day', daySelect),
      labelled('Or to a date', dateInput, 'for a date the trip does not show yet'),
      labelled('Position in that day', position, '1 = first; timed items keep their time order'),
      h(
        'div',
        { class: 'form-actions' },
        h('button', { type: 'submit', class: 'primary', 'data-testid': 'move-save' }, 'Move'),
        h('button', { type: 'button', onclick: () => close() }, 'Cancel'),
      ),
    ],
    async () => {
      const request = {};
      const target = days.find((d) => String(d.number) === daySelect.value);
      if (dateInput.value) request.date = dateInput.value;
      else if (target && (target.date !== from || !position.value)) request.day = target.number;
      if (position.value) request.position = Number(position.value);
      if (!Object.keys(request).length) throw fieldError('day', 'Choose a day, a date or a position.');
      const day = await post(`/v1/itineraries/${seg(trip.id)}/items/${seg(item.id)}/move`, request);
      close();
      onMoved(day);
    },
  );
  body.appendChild(formEl);
  daySelect.focus();
}
