// The "My places" tab of #/favorites: the library (GET/POST/PATCH/DELETE /v1/places),
// pin photos (…/places/{id}/photos), import (POST /v1/places/import) and export.
// Testids:
//   places-count, place-add (button opening the form), place-create (the add form; its
//   fields in library-place-form.js: place-name, place-latitude, place-longitude, …,
//   place-submit), places-import-input (file input: GeoJSON, KML, GPX), places-import-progress,
//   places-import-result, places-export-geojson, places-export-kml, places-export-gpx,
//   places-list, place-item (li, data-id = place id), place-name, place-heart (aria-pressed),
//   place-edit (opens place-edit-form inline), place-delete, place-delete-confirm,
//   place-delete-cancel, place-photo-add (button in each place: it names the place and
//   opens the picker), place-photo-input (ONE hidden file input for all places: click
//   place-photo-add in the item first, then send the file's path to this input),
//   place-photo-progress, place-photo (img, data-id = photo id), place-photo-remove,
//   place-notes, place-url.

import { get, post, patch, del, seg, upload } from '../api.js';
import { h, mount, action, empty, flash, download, showError } from '../dom.js';
import { bytes, confirmButton, coordinates, debounce, plural, rerender } from '../ui.js';
import { uploadPhoto } from '../photos.js';
import { placeForm } from './library-place-form.js';
import { money } from './trip-common.js';

const IMPORT_TYPES = {
  geojson: 'application/geo+json',
  json: 'application/geo+json',
  kml: 'application/vnd.google-earth.kml+xml',
  gpx: 'application/gpx+xml',
  xml: 'application/xml',
};

export function placesPanel() {
  let places = [];
  let categories = [];
  const editors = new Map(); // place id → its <li> while an edit form is open in it
  const count = h('p', { class: 'count', 'data-testid': 'places-count', 'aria-live': 'polite' });
  const list = h('ul', { class: 'list places-list', 'data-testid': 'places-list', 'aria-label': 'Your places' });
  const createSlot = h('div');
  const importResult = h('div', { 'data-testid': 'places-import-result', 'aria-live': 'polite' });
  const importProgress = h('progress', { max: 100, value: 0, hidden: true, 'data-testid': 'places-import-progress', 'aria-label': 'Importing' });
  const importInput = h('input', { type: 'file', id: 'places-import', class: 'visually-hidden', accept: '.geojson,.json,.kml,.gpx,.xml', 'data-testid': 'places-import-input' });
  const importLabel = h('label', { class: 'button' }, 'Import GeoJSON, KML or GPX…', importInput);

  const addButton = h('button', { type: 'button', class: 'primary', 'data-testid': 'place-add', 'aria-expanded': 'false' }, 'Add a place');
  addButton.addEventListener('click', () => openCreate());
  const exporter = (format, label) =>
    action(label, () => download('/v1/places/export?format=' + format, 'places.' + format), {
      'data-testid': 'places-export-' + format,
      'aria-label': `Export your places as ${label}`,
    });

  const element = h(
    'section',
    { class: 'places' },
    h(
      'div',
      { class: 'toolbar' },
      count,
      addButton,
      importLabel,
      importProgress,
      h('span', { class: 'row' }, h('span', { class: 'muted' }, 'Export:'), exporter('geojson', 'GeoJSON'), exporter('kml', 'KML'), exporter('gpx', 'GPX')),
    ),
    importResult,
    createSlot,
    list,
  );

  function openCreate() {
    if (createSlot.firstChild) {
      createSlot.querySelector('input').focus();
      return;
    }
    addButton.setAttribute('aria-expanded', 'true');
    const close = () => {
      mount(createSlot);
      addButton.setAttribute('aria-expanded', 'false');
      addButton.focus();
    };
    const el = placeForm({
      place: null,
      categories,
      testid: 'place-create',
      onCancel: close,
      async onSubmit(body) {
        const place = await post('/v1/places', body);
        close();
        await load();
        flash(`Added ${place.name}.`, 'ok');
      },
    });
    mount(createSlot, el);
    el.querySelector('input').focus();
  }

  importInput.addEventListener('change', async () => {
    const file = importInput.files && importInput.files[0];
    if (!file) return;
    const ext = (file.name.split('.').pop() || '').toLowerCase();
    mount(importResult);
    importProgress.hidden = false;
    importProgress.value = 0;
    try {
      const answer = await upload('/v1/places/import', file, {
        contentType: IMPORT_TYPES[ext] || file.type || 'application/xml',
        onProgress: (done, total) => {
          importProgress.value = Math.round((done / total) * 100);
        },
      });
      mount(
        importResult,
        h(
          'div',
          { class: 'card import-result' },
          h('p', {}, `${file.name}: imported ${plural(answer.imported, 'place')}, skipped ${answer.skipped} already in your library.`),
          answer.ignored.length
            ? h(
                'details',
                {},
                h('summary', {}, `${answer.ignored.length} not imported (not places)`),
                h(
                  'ul',
                  {},
                  answer.ignored.map((x) => h('li', {}, `#${x.index + 1}: ${x.reason}`)),
                ),
              )
            : null,
        ),
      );
      await load();
    } catch (error) {
      mount(
        importResult,
        h('p', { class: 'field-error', role: 'alert' }, `${file.name} (${bytes(file.size)}) was not imported: ${error.message}${error.field ? ` (at ${error.field})` : ''}`),
      );
    } finally {
      importProgress.hidden = true;
      importInput.value = '';
    }
  });

  // One file input for every place's "Add photo" (a file input per row made a list of 500
  // places take 350 ms to build): the button names the place, then opens the picker.
  let photoTarget = null;
  const photoInput = h('input', {
    type: 'file',
    class: 'visually-hidden',
    tabindex: '-1',
    'aria-hidden': 'true',
    accept: 'image/jpeg,image/png,image/webp,image/heic',
    'data-testid': 'place-photo-input',
  });
  photoInput.addEventListener('change', async () => {
    const file = photoInput.files && photoInput.files[0];
    const place = photoTarget;
    if (!file || !place) return;
    const row = () => list.querySelector(`[data-id="${CSS.escape(place.id)}"]`);
    const progress = row() && row().querySelector('[data-testid=place-photo-progress]');
    if (progress) {
      progress.hidden = false;
      progress.value = 0;
    }
    try {
      const photo = await uploadPhoto(file, (fraction) => {
        if (progress) progress.value = Math.round(fraction * 100);
      });
      await post(`/v1/places/${seg(place.id)}/photos`, { photo: photo.id });
      await load();
    } catch (error) {
      const button = row() && row().querySelector('[data-testid=place-photo-add]');
      if (button) showError(button, error);
      else flash(error.message);
    } finally {
      if (progress) progress.hidden = true;
      photoInput.value = '';
    }
  });

  element.append(photoInput);

  /** The pin's photos (thumbnails with a remove button) and the control that adds one. */
  function photos(place) {
    const progress = h('progress', { max: 100, value: 0, hidden: true, 'data-testid': 'place-photo-progress', 'aria-label': `Uploading a photo of ${place.name}` });
    const add = h(
      'button',
      { type: 'button', 'data-testid': 'place-photo-add', title: 'JPEG, PNG, WebP or HEIC; at most 10 a place', 'aria-label': `Add a photo of ${place.name}` },
      'Add photo',
    );
    add.addEventListener('click', () => {
      const old = add.nextElementSibling;
      if (old && old.classList.contains('field-error')) old.remove();
      photoTarget = place;
      photoInput.dataset.place = place.id;
      photoInput.click();
    });
    const full = (place.photos || []).length >= 10;
    const thumbs = (place.photos || []).length
      ? h(
          'div',
          { class: 'place-photos' },
          place.photos.map((photo) =>
            h(
              'figure',
              { class: 'thumb', 'data-photo': photo.id },
              h('img', {
                src: '/v1/photos/' + photo.id,
                alt: `Photo of ${place.name}`,
                width: photo.width,
                height: photo.height,
                loading: 'lazy',
                'data-testid': 'place-photo',
                'data-id': photo.id,
              }),
              action(
                '✕',
                async () => {
                  await del(`/v1/places/${seg(place.id)}/photos/${seg(photo.id)}`);
                  await load();
                },
                { class: 'thumb-remove', 'data-testid': 'place-photo-remove', 'aria-label': `Remove this photo of ${place.name}` },
              ),
            ),
          ),
        )
      : null;
    return { thumbs, control: full ? null : [add, progress] };
  }

  function details(place, pictures) {
    const byName = new Map(categories.map((c) => [c.name, c.emoji]));
    const facts = [];
    if (place.rating != null) facts.push(`★ ${place.rating}/5`);
    if (place.priceLevel) facts.push('€'.repeat(place.priceLevel));
    if (place.openingHours) facts.push('🕘 ' + place.openingHours);
    if (place.visitMinutes) facts.push(`${place.visitMinutes} min visit`);
    if (place.entryPrice) facts.push('entry ' + money(place.entryPrice));
    if (place.origin) facts.push(place.origin.startsWith('friend:') ? 'from a friend' : place.origin.startsWith('post:') ? 'from a post' : place.origin);
    return [
      h(
        'div',
        { class: 'row' },
        h('strong', { 'data-testid': 'place-name' }, place.name),
        place.categories.map((c) => h('span', { class: 'chip' }, byName.has(c) ? byName.get(c) + ' ' : '', c)),
      ),
      h('div', { class: 'muted' }, [place.address, coordinates(place.latitude, place.longitude), ...facts].filter(Boolean).join(' · ')),
      place.url ? h('a', { href: place.url, rel: 'noopener noreferrer', target: '_blank', 'data-testid': 'place-url' }, place.url) : null,
      place.notes ? h('p', { class: 'notes', 'data-testid': 'place-notes' }, place.notes) : null,
      pictures,
    ];
  }

  function item(place) {
    const li = h('li', { class: 'place-item', 'data-testid': 'place-item', 'data-id': place.id });
    const heart = action(
      place.favorite ? '♥' : '♡',
      async () => {
        if (place.favorite) await del('/v1/favorites/' + seg(place.id));
        else await post('/v1/favorites', { placeId: place.id });
        await load();
      },
      {
        class: place.favorite ? 'heart on' : 'heart',
        'data-testid': 'place-heart',
        'aria-pressed': place.favorite ? 'true' : 'false',
        'aria-label': place.favorite ? `Remove ${place.name} from favorites` : `Add ${place.name} to favorites`,
      },
    );
    const pictures = photos(place);
    const body = h('div', { class: 'grow' }, details(place, pictures.thumbs));
    const edit = h('button', { type: 'button', 'data-testid': 'place-edit', 'aria-label': `Edit ${place.name}` }, 'Edit');
    const remove = confirmButton(
      'Delete',
      async () => {
        await del('/v1/places/' + seg(place.id));
        editors.delete(place.id);
        flash(`Deleted ${place.name}.`, 'ok');
        await load();
      },
      {
        confirmLabel: `Delete ${place.name}`,
        cancelLabel: 'Keep it',
        'data-testid': 'place-delete',
        'aria-label': `Delete ${place.name}`,
        question: place.favorite ? 'Delete this place and its favorite? Itineraries keep their copies.' : 'Delete this place? Itineraries keep their copies.',
        // a live refresh keeps the question open
        onAsk: (asking) => {
          if (asking) editors.set(place.id, li);
          else editors.delete(place.id);
        },
      },
    );
    const actions = h('div', { class: 'row place-actions' }, pictures.control, edit, remove);
    edit.addEventListener('click', () => {
      editors.set(place.id, li);
      const close = () => {
        editors.delete(place.id);
        load();
      };
      mount(
        body,
        placeForm({
          place,
          categories,
          testid: 'place-edit-form',
          onCancel: close,
          async onSubmit(changes) {
            await patch('/v1/places/' + seg(place.id), changes);
            close();
          },
        }),
      );
      actions.hidden = true;
      body.querySelector('input').focus();
    });
    li.append(heart, body, actions);
    return li;
  }

  function show() {
    count.textContent = plural(places.length, 'place');
    const live = new Set(places.map((p) => p.id));
    for (const id of editors.keys()) if (!live.has(id)) editors.delete(id);
    rerender(
      list,
      places.length
        ? places.map((place) => editors.get(place.id) || item(place))
        : [h('li', { class: 'placeholder' }, empty('No places yet: add one, import a file, or heart a result in Discover.'))],
    );
  }

  async function load() {
    const [answer, cats] = await Promise.all([get('/v1/places'), categories.length ? null : get('/v1/categories')]);
    if (cats) categories = cats.categories;
    places = answer.places;
    show();
  }
  const refresh = debounce(() =>
    load().catch((error) => {
      if (error.code !== 'logged-out') flash(error.message);
    }),
  );
  return { element, load, refresh, cleanup: () => refresh.cancel() };
}
