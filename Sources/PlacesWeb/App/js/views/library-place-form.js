// The form for a library place, to add one (POST /v1/places) or edit one
// (PATCH /v1/places/{id}). Fields are named as the API names them, so an error's `field`
// lands beside its input. Testids (prefix `place-` when adding, `place-edit-` when editing):
//   …form, …name, …lookup (fills the coordinates from Discover), …latitude, …longitude,
//   …address, …category (checkboxes, value = category name), …categories (other
//   categories, comma-separated), …rating, …price, …hours (opening hours), …visit (visit
//   minutes), …entry-amount, …entry-currency (entry price), …url, …notes, …submit, …cancel.

import { get, query } from '../api.js';
import { h, form, showError } from '../dom.js';
import { parseMoney, moneyAmountText } from './trip-common.js';

let seq = 0;

/**
 * placeForm({ place, categories, onSubmit(body), onCancel, testid: 'place-create' })
 * `place` is the place being edited (null when adding); `categories` the known ones.
 * `onSubmit` gets the request body: only changed fields when editing.
 */
export function placeForm({ place, categories, onSubmit, onCancel, testid }) {
  const editing = !!place;
  const prefix = editing ? 'place-edit-' : 'place-';
  const uid = 'pf' + ++seq + '-';
  const p = place || {};
  const known = new Set(categories.map((c) => c.name));
  const own = new Set(p.categories || []);
  const extra = (p.categories || []).filter((c) => !known.has(c));

  const input = (label, name, attrs = {}, control = 'input') => {
    const id = uid + name;
    return h(
      'div',
      { class: 'field field-' + name },
      h('label', { for: id }, label),
      h(control, { id, name, 'data-testid': prefix + (attrs.testid || name), ...attrs, testid: null }),
    );
  };
  const lookup = h('button', { type: 'button', 'data-testid': prefix + 'lookup' }, 'Find coordinates');
  const hint = h('p', { class: 'muted lookup-hint', 'aria-live': 'polite', 'data-testid': prefix + 'lookup-result' });
  const priceSelect = h(
    'select',
    { id: uid + 'priceLevel', name: 'priceLevel', 'data-testid': prefix + 'price' },
    ['', '1', '2', '3', '4'].map((v) => h('option', { value: v, selected: String(p.priceLevel || '') === v }, v ? '€'.repeat(Number(v)) + ` (${v})` : 'Not set')),
  );

  const el = form(
    { class: 'place-form card', 'data-testid': testid, 'aria-label': editing ? `Edit ${p.name}` : 'Add a place' },
    [
      h('div', { class: 'row place-form-name' }, input('Name', 'name', { value: p.name || '', maxlength: 200, required: true, autocomplete: 'off' }), lookup),
      hint,
      h(
        'div',
        { class: 'row' },
        input('Latitude', 'latitude', { value: p.latitude ?? '', inputmode: 'decimal', placeholder: '38.6916' }),
        input('Longitude', 'longitude', { value: p.longitude ?? '', inputmode: 'decimal', placeholder: '-9.2160' }),
      ),
      input('Address', 'address', { value: p.address || '', maxlength: 500, autocomplete: 'off' }),
      h(
        'fieldset',
        { class: 'categories-field' },
        h('legend', {}, 'Categories'),
        h(
          'div',
          { class: 'chips' },
          categories.map((c) =>
            h(
              'label',
              { class: 'chip' },
              h('input', { type: 'checkbox', name: 'category', value: c.name, checked: own.has(c.name), 'data-testid': prefix + 'category' }),
              ' ',
              h('span', { 'aria-hidden': 'true' }, c.emoji),
              ' ',
              c.name,
            ),
          ),
        ),
        input('Other categories (comma-separated)', 'categories', { value: extra.join(', '), autocomplete: 'off' }),
      ),
      h(
        'div',
        { class: 'row' },
        input('Rating (0–5)', 'rating', { type: 'number', min: 0, max: 5, step: 0.5, value: p.rating ?? '' }),
        h('div', { class: 'field field-priceLevel' }, h('label', { for: uid + 'priceLevel' }, 'Price level'), priceSelect),
      ),
      input('Opening hours', 'openingHours', {
        value: p.openingHours || '',
        maxlength: 255,
        autocomplete: 'off',
        placeholder: 'Mo-Fr 09:00-18:00; Sa 10:00-14:00; Su off',
        testid: 'hours',
      }),
      h(
        'div',
        { class: 'row' },
        input('Visit (minutes)', 'visitMinutes', { type: 'number', min: 5, max: 720, step: 5, value: p.visitMinutes ?? '', testid: 'visit' }),
        input('Entry price', 'entryPrice-amount', { inputmode: 'decimal', value: moneyAmountText(p.entryPrice), placeholder: '0.00', testid: 'entry-amount' }),
        input('Currency', 'entryPrice-currency', { value: p.entryPrice ? p.entryPrice.currency : 'EUR', maxlength: 3, testid: 'entry-currency' }),
      ),
      input('Link', 'url', { type: 'url', value: p.url || '', maxlength: 2000, placeholder: 'https://…' }),
      input('Notes', 'notes', { value: p.notes || '', maxlength: 10000, rows: 3 }, 'textarea'),
      h(
        'div',
        { class: 'form-actions' },
        h('button', { type: 'submit', class: 'primary', 'data-testid': prefix + 'submit' }, editing ? 'Save place' : 'Add place'),
        onCancel ? h('button', { type: 'button', 'data-testid': prefix + 'cancel', onclick: onCancel }, 'Cancel') : null,
      ),
    ],
    async (values, formEl) => {
      const body = bodyFrom(values, formEl, p, editing);
      if (!body) return;
      if (editing && !Object.keys(body).length) {
        if (onCancel) onCancel();
        return;
      }
      await onSubmit(body);
    },
  );

  lookup.addEventListener('click', async () => {
    const name = el.elements.name.value.trim();
    hint.classList.remove('field-error');
    if (!name) {
      hint.textContent = 'Type a name first.';
      hint.classList.add('field-error');
      return;
    }
    lookup.disabled = true;
    try {
      const { results } = await get('/v1/discover' + query({ q: name, limit: 1, sort: 'off' }));
      if (!results.length) {
        hint.textContent = `Discover knows no “${name}”: type the coordinates.`;
        hint.classList.add('field-error');
        return;
      }
      const [first] = results;
      el.elements.latitude.value = first.latitude;
      el.elements.longitude.value = first.longitude;
      const where = [first.name, first.region, first.country].filter((x, i, a) => x && a.indexOf(x) === i).join(', ');
      if (!el.elements.address.value && first.kind !== 'place') el.elements.address.value = where;
      hint.textContent = `Coordinates of ${where} (${first.kind}).`;
    } catch (error) {
      hint.textContent = error.message;
      hint.classList.add('field-error');
    } finally {
      lookup.disabled = false;
    }
  });
  return el;
}

function bodyFrom(values, formEl, p, editing) {
  const fail = (name, message) => {
    showError(formEl.elements[name], message);
    formEl.elements[name].focus();
    return null;
  };
  const name = values.name.trim();
  if (!name) return fail('name', 'Give the place a name.');
  const lat = values.latitude.trim() === '' ? NaN : Number(values.latitude);
  const lon = values.longitude.trim() === '' ? NaN : Number(values.longitude);
  if (!(lat >= -90 && lat <= 90)) return fail('latitude', 'A latitude from -90 to 90 (or “Find coordinates”).');
  if (!(lon >= -180 && lon <= 180)) return fail('longitude', 'A longitude from -180 to 180.');
  const categories = [...formEl.querySelectorAll('input[name=category]:checked')]
    .map((box) => box.value)
    .concat(
      values.categories
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean),
    );
  const rating = values.rating.trim() === '' ? null : Number(values.rating);
  if (rating !== null && !(rating >= 0 && rating <= 5)) return fail('rating', 'A rating from 0 to 5.');
  const visit = values.visitMinutes.trim() === '' ? null : Number(values.visitMinutes);
  if (visit !== null && !(Number.isInteger(visit) && visit >= 5 && visit <= 720)) return fail('visitMinutes', 'A visit of 5 to 720 whole minutes.');
  let entryPrice;
  try {
    entryPrice = parseMoney(values['entryPrice-amount'], values['entryPrice-currency'], 'entryPrice-amount');
  } catch (error) {
    return fail('entryPrice-amount', error.message);
  }
  const all = {
    name,
    latitude: lat,
    longitude: lon,
    address: values.address.trim() || null,
    categories: [...new Set(categories)],
    rating,
    priceLevel: values.priceLevel ? Number(values.priceLevel) : null,
    openingHours: values.openingHours.trim() || null,
    visitMinutes: visit,
    entryPrice,
    url: values.url.trim() || null,
    notes: values.notes.trim() ? values.notes : null,
  };
  if (!editing) {
    for (const key of Object.keys(all)) if (all[key] === null || (Array.isArray(all[key]) && !all[key].length)) delete all[key];
    return all;
  }
  const body = {};
  for (const [key, value] of Object.entries(all)) {
    const before = p[key] ?? null;
    const same = Array.isArray(value)
      ? JSON.stringify(value) === JSON.stringify(before || [])
      : value && typeof value === 'object'
        ? JSON.stringify(value) === JSON.stringify(before)
        : value === before;
    if (!same) body[key] = Array.isArray(value) && !value.length ? null : value;
  }
  return body;
}
