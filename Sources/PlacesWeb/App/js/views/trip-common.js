// Shared pieces of the itinerary views (itineraries.js, trip.js and the trip-*.js tabs):
// type labels, fast money and time formatting, an item's one-line summary, a confirm
// dialog (the confirm step of actions started from a dialog or a menu; in-place buttons
// use ../ui.js confirmButton), a modal dialog shell, a tab's sub-route, and event tests.
// What every view shares (re-rendering that keeps focus, debounce…) is in ../ui.js.
// testids: confirm-dialog, confirm-yes, confirm-no (the confirm step of every delete/leave).

import { h, flash, describe } from '../dom.js';
import { fieldError } from '../ui.js';

export const TYPES = {
  lodging: { label: 'Lodging', one: 'stay', many: 'stays', emoji: '🛏️' },
  transport: { label: 'Transportation', one: 'transport', many: 'transports', emoji: '🚆' },
  food: { label: 'Food', one: 'place to eat', many: 'places to eat', emoji: '🍽️' },
  activity: { label: 'Activities', one: 'activity', many: 'activities', emoji: '🎟️' },
  place: { label: 'Places to go', one: 'place to go', many: 'places to go', emoji: '📍' },
};
export const MODES = ['flight', 'train', 'bus', 'car', 'ferry', 'other'];
export const MODE_EMOJI = { flight: '✈️', train: '🚆', bus: '🚌', car: '🚗', ferry: '⛴️', other: '🧭' };
export const TRAVEL_MODES = ['walking', 'cycling', 'driving'];

export function itemEmoji(item) {
  if (item.type === 'transport') return MODE_EMOJI[item.mode] || MODE_EMOJI.other;
  return (TYPES[item.type] || TYPES.activity).emoji;
}

// Money: one Intl formatter per currency (building them is the slow part of formatting).
const moneyFormats = new Map();
export function currencyDigits(code) {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits;
  } catch {
    return 2;
  }
}
function moneyFormat(currency) {
  let entry = moneyFormats.get(currency);
  if (!entry) {
    const digits = currencyDigits(currency);
    let format = null;
    try {
      format = new Intl.NumberFormat(undefined, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
    } catch {
      /* an unknown code: plain digits below */
    }
    entry = { digits, format };
    moneyFormats.set(currency, entry);
  }
  return entry;
}
export function money(value) {
  if (!value || typeof value.amountMinor !== 'number') return '';
  const { digits, format } = moneyFormat(value.currency);
  const amount = value.amountMinor / 10 ** digits;
  return format ? format.format(amount) : `${amount.toFixed(digits)} ${value.currency}`;
}
export const moneyList = (list) => (list || []).map(money).join(' + ');

/** "12.50" in EUR → {amountMinor: 1250, currency: 'EUR'}, exactly (no float rounding). */
export function parseMoney(text, currency, field = 'price') {
  const amount = String(text || '')
    .trim()
    .replace(',', '.');
  const code = String(currency || '')
    .trim()
    .toUpperCase();
  if (!amount) return null;
  if (!/^[A-Z]{3}$/.test(code)) throw fieldError(field, 'Give the currency as a three-letter code, e.g. EUR.');
  const digits = currencyDigits(code);
  const match = /^(\d{1,13})(?:\.(\d*))?$/.exec(amount);
  if (!match) throw fieldError(field, `“${amount}” is not an amount: write it like 12.50.`);
  const fraction = match[2] || '';
  if (fraction.length > digits) throw fieldError(field, `${code} has ${digits} decimal places: “${amount}” has more.`);
  return { amountMinor: Number(match[1]) * 10 ** digits + Number((fraction + '000').slice(0, digits) || 0), currency: code };
}
/** The amount of a Money as the text an input shows ("12.50"). */
export function moneyAmountText(value) {
  if (!value) return '';
  const digits = currencyDigits(value.currency);
  if (!digits) return String(value.amountMinor);
  const text = String(value.amountMinor).padStart(digits + 1, '0');
  return text.slice(0, -digits) + '.' + text.slice(-digits);
}

// Local date-times ("2027-05-03T09:10") are shown as they are written: they are wall-clock
// times in the item's zone, so no Date object (which would shift them) is involved.
export const datePart = (ldt) => (ldt ? ldt.slice(0, 10) : '');
export const timePart = (ldt) => (ldt && ldt.length > 10 ? ldt.slice(11, 16) : '');

const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
const longDayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
export function shortDay(date) {
  if (!date) return '';
  const d = new Date(date + 'T12:00:00Z');
  return Number.isNaN(d.getTime()) ? date : dayFormat.format(d);
}
export function longDay(date) {
  if (!date) return '';
  const d = new Date(date + 'T12:00:00Z');
  return Number.isNaN(d.getTime()) ? date : longDayFormat.format(d);
}
export function dateRange(start, end) {
  if (start && end) return start === end ? shortDay(start) : `${shortDay(start)} – ${shortDay(end)}`;
  if (start) return 'from ' + shortDay(start);
  if (end) return 'until ' + shortDay(end);
  return 'No dates yet';
}
/** The zone's last part ("Europe/Lisbon" → "Lisbon"), for compact display; full name in `title`. */
export const zoneShort = (zone) => (zone ? zone.split('/').pop().replace(/_/g, ' ') : '');

/**
 * "09:10 → 12:05" on day `date` (null: with the dates). `zones` adds the zone after a time
 * ("09:10 Lisbon"); an arrival in another zone always names its zone.
 */
export function whenText(item, date, zones = false) {
  const startDate = datePart(item.start);
  const endDate = datePart(item.end);
  const start = timePart(item.start);
  const end = timePart(item.end);
  const endZone = item.endTimeZone && item.endTimeZone !== item.timeZone ? item.endTimeZone : null;
  const z = (time, zone) => (time && zones && zone ? `${time} ${zoneShort(zone)}` : time);
  if (item.type === 'lodging') {
    if (date && endDate === date && startDate !== date) return end ? `check-out ${z(end, item.timeZone)}` : 'check-out';
    if (date && startDate === date) return start ? `check-in ${z(start, item.timeZone)}` : 'check-in';
  }
  if (item.type === 'transport' && date && endDate === date && startDate !== date) {
    return (end ? `arrives ${end}` : 'arrives') + (endZone || (zones && end) ? ` ${zoneShort(endZone || item.timeZone)}` : '');
  }
  let text = z(start, item.timeZone) || (date ? 'any time' : '');
  if (!date && startDate) text = shortDay(startDate) + (start ? ' ' + z(start, item.timeZone) : '');
  if (end && (start || !date)) {
    text += ' → ' + (endDate && endDate !== startDate ? shortDay(endDate) + ' ' : '') + end;
    if (endZone) text += ' ' + zoneShort(endZone);
    else if (zones && item.timeZone && !start) text += ' ' + zoneShort(item.timeZone);
  }
  return text;
}

/** Where: "Santa Apolónia → Campanhã", a name, or an address. */
export function whereText(item) {
  const from = item.location && (item.location.name || item.location.address);
  const to = item.to && (item.to.name || item.to.address);
  if (from && to) return `${from} → ${to}`;
  return from || (to ? '→ ' + to : '');
}

/** The type-specific details as short strings (carrier and number, rating, booked…). */
export function detailBits(item) {
  const bits = [];
  if (item.type === 'transport') {
    const service = [item.carrier, item.number].filter(Boolean).join(' ');
    bits.push(item.mode && item.mode !== 'other' ? item.mode + (service ? ' ' + service : '') : service);
    if (item.bookingReference) bits.push('booking ' + item.bookingReference);
  } else if (item.type === 'lodging') {
    if (item.confirmationCode) bits.push('confirmation ' + item.confirmationCode);
    if (item.contact) bits.push(item.contact);
  } else if (item.type === 'food') {
    if (typeof item.rating === 'number') bits.push('★ ' + item.rating);
    if (item.recommendation) bits.push(item.recommendation);
  } else if (item.type === 'activity') {
    bits.push(item.booked ? 'booked' : 'not booked');
    if (item.description) bits.push(item.description);
  }
  return bits.filter(Boolean);
}

/** Whether an event concerns itinerary `id` (its edits, a share, a view), or is a resync. */
export function concernsTrip(event, id) {
  if (event.type === 'resync') return true;
  if (!event.doc || event.doc !== id) return false;
  return event.type === 'changed' || event.type === 'shared' || event.type === 'viewed';
}

/**
 * A modal dialog on <body> (outside every re-rendered list, so a refresh never touches a
 * form inside it). Answers { dialog, body, close }. Esc or the Close button closes it.
 */
export function openDialog(title, attrs = {}) {
  const heading = h('h2', { id: 'dlg-' + Math.random().toString(36).slice(2, 9) }, title);
  const body = h('div', { class: 'trip-dialog-body' });
  const closeButton = h('button', { type: 'button', class: 'trip-dialog-close', 'aria-label': 'Close', dataset: { action: 'close-dialog' } }, '×');
  const dialog = h('dialog', { class: 'trip-dialog', 'aria-labelledby': heading.id, ...attrs }, h('div', { class: 'trip-dialog-head' }, heading, closeButton), body);
  const opener = document.activeElement;
  const close = () => {
    if (dialog.open) dialog.close();
    dialog.remove();
    openDialogs.delete(dialog);
    if (opener && opener.isConnected) opener.focus();
  };
  closeButton.addEventListener('click', close);
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault();
    close();
  });
  document.body.appendChild(dialog);
  openDialogs.add(dialog);
  dialog.showModal();
  return { dialog, body, close };
}
const openDialogs = new Set();
/** Closes every dialog these views opened (a view's cleanup, when the user navigates away). */
export function closeDialogs() {
  for (const dialog of [...openDialogs]) {
    if (dialog.open) dialog.close();
    dialog.remove();
  }
  openDialogs.clear();
}

/** The confirm step: resolves true when the user confirms, false otherwise. */
export function confirmDialog(question, confirmLabel = 'Delete', detail = '') {
  return new Promise((resolve) => {
    let answered = false;
    const { dialog, body, close } = openDialog(question, { 'data-testid': 'confirm-dialog', role: 'alertdialog' });
    const answer = (value) => {
      if (answered) return;
      answered = true;
      close();
      resolve(value);
    };
    dialog.addEventListener('close', () => answer(false));
    const yes = h('button', { type: 'button', class: 'danger', 'data-testid': 'confirm-yes', onclick: () => answer(true) }, confirmLabel);
    const no = h('button', { type: 'button', 'data-testid': 'confirm-no', onclick: () => answer(false) }, 'Cancel');
    body.append(detail ? h('p', {}, detail) : '', h('div', { class: 'form-actions' }, yes, no));
    no.focus();
  });
}

/** A small role/state label. */
export const pill = (text, kind = '') => h('span', { class: 'trip-pill ' + kind }, text);

/** A day's dates from a start to an end, inclusive (YYYY-MM-DD strings), at most 400. */
export function datesBetween(start, end) {
  const out = [];
  if (!start || !end) return out;
  let t = Date.parse(start + 'T00:00:00Z');
  const stop = Date.parse(end + 'T00:00:00Z');
  while (t <= stop && out.length < 400) {
    out.push(new Date(t).toISOString().slice(0, 10));
    t += 86400000;
  }
  return out;
}

/** The IANA zones this browser knows, for a <datalist> (empty where unsupported). */
export function timeZones() {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [];
  }
}
export const localZone = () => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
};

let zoneListId = null;
/** The id of a <datalist> of the browser's IANA zones (made once), for a zone input's `list`. */
export function zoneList() {
  if (zoneListId && document.getElementById(zoneListId)) return zoneListId;
  zoneListId = 'trip-zones';
  document.body.appendChild(
    h(
      'datalist',
      { id: zoneListId },
      ['UTC', ...timeZones()].map((zone) => h('option', { value: zone })),
    ),
  );
  return zoneListId;
}

/** Rewrites the address to `#/itineraries/<id>/<tab>[/<sub>]` without a re-render (no hashchange). */
export function setSubRoute(tripId, tab, sub) {
  const hash = `#/itineraries/${encodeURIComponent(tripId)}/${tab}${sub ? '/' + encodeURIComponent(sub) : ''}`;
  if (location.hash !== hash) history.replaceState(history.state, '', hash);
}

/**
 * A trip panel's first load and its `refresh`: the first load's error is shown in `list` as an
 * alert (the panel has nothing else to show), a later refresh's is flashed (the panel keeps
 * what it showed). The activity, warnings and map panels.
 */
export async function loadedPanel(list, load) {
  try {
    await load();
  } catch (error) {
    list.replaceChildren(h('li', { class: 'field-error', role: 'alert' }, describe(error)));
  }
  return {
    async refresh() {
      try {
        await load();
      } catch (error) {
        flash(describe(error));
      }
    },
  };
}

/**
 * A trip panel's small map in `mapEl`, map.js imported on first use: resolves to the map (kept
 * in `state.map`), or null when it cannot be shown (the reason replaces `mapEl`'s content) or
 * the panel closed meanwhile (`state.closed`: the map is destroyed). The plan's and the
 * route's maps.
 */
export function loadSmallMap(mapEl, label, state) {
  return import('../map.js')
    .then(({ createMap }) => createMap(mapEl, { height: 'small', label }))
    .then((m) => {
      if (state.closed) {
        m.destroy();
        return null;
      }
      state.map = m;
      return m;
    })
    .catch((error) => {
      mapEl.replaceChildren(h('p', { class: 'muted' }, 'No map: ' + describe(error)));
      return null;
    });
}
