// The Places tab: the trip's places to go (Itinerary.places) in list order, each with the
// day it is planned for; editors reorder them (POST …/places/{stop}/move), plan or clear a
// day (POST …/items/{stop}/move with a date; POST …/places/{stop}/move with date null),
// remove them (DELETE …/places/{stop}) and add places from their library (GET /v1/places,
// POST …/places).
// testids: place-to-go (data-id; buttons inside carry data-action = up | down | day |
// remove), place-add-form, place-add-search, place-add-select, place-add-submit,
// place-day-dialog, place-day-input, place-day-save, place-day-clear.

import { get, post, del, seg } from '../api.js';
import { h, form, action, flash, describe } from '../dom.js';
import { fieldError, labelled, rerender } from '../ui.js';
import { shortDay, confirmDialog, closeDialogs, openDialog } from './trip-common.js';

export async function renderTab(container, trip, ctx) {
  const base = `/v1/itineraries/${seg(trip.id)}`;
  const list = h('ol', { class: 'list trip-places', 'data-testid': 'places-to-go', 'aria-label': 'Places to go' });
  const count = h('p', { class: 'muted' });
  let library = [];
  const search = h('input', { type: 'search', name: 'search', 'data-testid': 'place-add-search', placeholder: 'Filter your places', autocomplete: 'off' });
  const select = h('select', { name: 'placeId', 'data-testid': 'place-add-select', 'data-field': 'placeId' });
  const position = h('input', { type: 'number', name: 'position', min: '1', placeholder: 'at the end', class: 'trip-narrow' });

  function fillSelect() {
    const needle = search.value.trim().toLowerCase();
    const chosen = select.value;
    const matches = library.filter((p) => !needle || p.name.toLowerCase().includes(needle) || (p.address || '').toLowerCase().includes(needle));
    select.replaceChildren(
      ...(matches.length
        ? matches.slice(0, 500).map((p) => h('option', { value: p.id, selected: p.id === chosen }, p.name + (p.address ? ' — ' + p.address : '')))
        : [h('option', { value: '' }, library.length ? 'No place matches' : 'Your library is empty')]),
    );
  }
  search.addEventListener('input', fillSelect);

  const addForm = trip.canEdit
    ? form(
        { class: 'card trip-add-place', 'data-testid': 'place-add-form' },
        [
          h('h3', {}, 'Add from your library'),
          h('div', { class: 'row' }, labelled('Find', search), labelled('Place', select), labelled('Position', position)),
          h(
            'div',
            { class: 'form-actions' },
            h('button', { type: 'submit', class: 'primary', 'data-testid': 'place-add-submit' }, 'Add place to go'),
            h('a', { href: '#/discover' }, 'Find new places'),
          ),
        ],
        async () => {
          if (!select.value) throw fieldError('placeId', 'Choose a place from your library (add places on the Discover page).');
          const request = { placeId: select.value };
          if (position.value) request.position = Number(position.value);
          apply(await post(`${base}/places`, request));
          position.value = '';
          flash('Added to the places to go.', 'ok');
        },
      )
    : null;

  container.append(h('div', { class: 'toolbar' }, h('h3', { class: 'trip-tab-title' }, 'Places to go'), count), list, addForm);

  function draw() {
    const places = trip.itinerary.places || [];
    count.textContent = `${places.length} place${places.length === 1 ? '' : 's'}`;
    rerender(list, () =>
      places.length
        ? places.map((stop, index) => row(stop, index, places.length))
        : h('li', { class: 'empty' }, 'No places to go yet.' + (trip.canEdit ? ' Add some from your library below.' : '')),
    );
  }

  function row(stop, index, total) {
    return h(
      'li',
      { class: 'trip-place', 'data-testid': 'place-to-go', dataset: { id: stop.id, position: stop.position } },
      h('span', { class: 'trip-place-number', 'aria-hidden': 'true' }, String(index + 1)),
      h(
        'div',
        { class: 'grow' },
        h('div', { class: 'trip-item-title' }, stop.name),
        stop.address ? h('div', { class: 'muted' }, stop.address) : null,
        h(
          'div',
          { class: 'muted' },
          stop.day ? h('a', { href: `#/itineraries/${trip.id}/days?item=${stop.id}` }, '🗓 ' + shortDay(stop.day)) : 'No day planned',
          ' · ',
          h('a', { href: `#/itineraries/${trip.id}/map?place=${stop.id}` }, 'on the map'),
        ),
      ),
      trip.canEdit
        ? h(
            'div',
            { class: 'trip-item-actions' },
            h('button', { type: 'button', dataset: { action: 'up' }, disabled: index === 0, 'aria-label': `Move ${stop.name} up` }, '↑'),
            h('button', { type: 'button', dataset: { action: 'down' }, disabled: index === total - 1, 'aria-label': `Move ${stop.name} down` }, '↓'),
            h('button', { type: 'button', dataset: { action: 'day' }, 'aria-label': `Plan a day for ${stop.name}` }, stop.day ? 'Change day' : 'Plan a day'),
            h('button', { type: 'button', class: 'danger', dataset: { action: 'remove' }, 'aria-label': `Remove ${stop.name}` }, 'Remove'),
          )
        : null,
    );
  }

  function apply(itinerary) {
    if (itinerary && itinerary.places) trip.itinerary = itinerary;
    draw();
  }

  function dayDialog(stop) {
    const { body, close } = openDialog('Plan a day for “' + stop.name + '”', { 'data-testid': 'place-day-dialog' });
    const date = h('input', {
      type: 'date',
      name: 'date',
      'data-testid': 'place-day-input',
      value: stop.day || trip.itinerary.startDate || '',
      min: trip.itinerary.startDate,
      max: trip.itinerary.endDate,
    });
    body.appendChild(
      form(
        {},
        [
          labelled('Day', date),
          h(
            'div',
            { class: 'form-actions' },
            h('button', { type: 'submit', class: 'primary', 'data-testid': 'place-day-save' }, 'Save'),
            stop.day
              ? action(
                  'Take it off its day',
                  async () => {
                    apply(await post(`${base}/places/${seg(stop.id)}/move`, { date: null }));
                    close();
                  },
                  { 'data-testid': 'place-day-clear' },
                )
              : null,
            h('button', { type: 'button', onclick: close }, 'Cancel'),
          ),
        ],
        async () => {
          if (!date.value) throw fieldError('date', 'Choose a day.');
          await post(`${base}/items/${seg(stop.id)}/move`, { date: date.value });
          close();
          await refresh();
        },
      ),
    );
    date.focus();
  }

  list.addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-action]');
    if (!button) return;
    const rowEl = button.closest('[data-testid="place-to-go"]');
    const stop = (trip.itinerary.places || []).find((p) => p.id === (rowEl && rowEl.dataset.id));
    if (!stop) return;
    const at = trip.itinerary.places.indexOf(stop) + 1;
    try {
      if (button.dataset.action === 'up' || button.dataset.action === 'down') {
        button.disabled = true;
        apply(await post(`${base}/places/${seg(stop.id)}/move`, { position: button.dataset.action === 'up' ? at - 1 : at + 1 }));
      } else if (button.dataset.action === 'day') {
        dayDialog(stop);
      } else if (button.dataset.action === 'remove') {
        if (!(await confirmDialog(`Remove “${stop.name}” from the places to go?`, 'Remove', 'The place stays in your library.'))) return;
        apply(await del(`${base}/places/${seg(stop.id)}`));
      }
    } catch (error) {
      if (rowEl.isConnected) rowEl.appendChild(h('p', { class: 'field-error', role: 'alert' }, describe(error)));
      else flash(describe(error));
    }
  });

  async function loadLibrary() {
    if (!addForm) return;
    try {
      library = (await get('/v1/places')).places;
    } catch {
      library = [];
    }
    fillSelect();
  }

  // After a change of our own: the itinerary again (trip.js does the same on events).
  async function refresh() {
    try {
      trip.itinerary = await get(base);
      draw();
    } catch (error) {
      flash(describe(error));
    }
  }

  draw();
  await loadLibrary();
  // The library is another document: its changes (a place added elsewhere) refill the select.
  const off = ctx.onEvent((event) => {
    if ((event.type === 'changed' && event.docKind === 'library') || event.type === 'resync') loadLibrary();
  });
  // trip.js has fetched the itinerary again before it calls refresh(event).
  return {
    refresh: () => draw(),
    cleanup: () => {
      off();
      closeDialogs();
    },
  };
}
