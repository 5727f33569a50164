// Photos, wherever the app takes or shows them (posts, messages, pins, the profile picture):
// the upload with progress (POST /v1/photos: the daemon strips the location and camera
// serials), the photo picker of a compose form, a photo served by the daemon that says
// "Photo not arrived yet" instead of showing a broken image while a friend's photo has not
// reached this device (GET /v1/photos/{id} answers 404 until then), and the grid of a post's
// or a message's photos. Views import these from here, as they import ui.js.

import { upload } from './api.js';
import { h } from './dom.js';
import { fieldError } from './ui.js';

/** A post or a message holds at most this many photos (Protocol/control-api.yaml). */
export const MAX_PHOTOS = 10;
const MAX_BYTES = 20 * 1024 * 1024;

/** Uploads one image with POST /v1/photos; `onProgress(fraction)`. Resolves to the Photo. */
export function uploadPhoto(file, onProgress) {
  // The daemon recognizes the format by the bytes; a HEIC file often comes without a type.
  const contentType = file.type && file.type.startsWith('image/') ? file.type : 'application/octet-stream';
  return upload('/v1/photos', file, { contentType, onProgress: onProgress ? (done, total) => onProgress(done / total) : null });
}

/**
 * The photos of a compose form: a labelled file input and the chosen photos, each uploaded
 * as soon as it is chosen (a thumbnail, its name, a <progress>, then its size; a Remove
 * button). `prefix` names the test ids: `PREFIX-photos` (the file input, also its id),
 * `PREFIX-photo-item` (a chosen photo, data-state uploading|done|failed),
 * `PREFIX-photo-progress`, `PREFIX-photo-remove`. `noun` says what holds them in errors.
 * Answers { el, input, ids(), check(), clear() }: `ids()` the uploaded photos' ids in the
 * order chosen, `check()` throws a field error (field `photos`) while one is uploading or
 * failed, `clear()` empties the list after sending.
 */
export function photoPicker({ prefix, label = `Photos (up to ${MAX_PHOTOS})`, noun = 'post' }) {
  const chosen = []; // { file, url, state: 'uploading'|'done'|'failed', photo, li }
  const input = h('input', { id: `${prefix}-photos`, type: 'file', accept: 'image/*,.heic,.heif', multiple: true, dataset: { testid: `${prefix}-photos`, field: 'photos' } });
  const list = h('ul', { class: 'compose-photos', 'aria-label': 'Chosen photos' });

  input.addEventListener('change', () => {
    const files = [...input.files];
    input.value = '';
    for (const file of files) add(file);
  });

  function add(file) {
    const entry = { file, state: 'uploading', photo: null, url: URL.createObjectURL(file) };
    const progress = h('progress', { max: 100, value: 0, 'aria-label': 'Uploading ' + file.name, dataset: { testid: `${prefix}-photo-progress` } });
    const status = h('span', { class: 'muted' }, 'Uploading…');
    const remove = h('button', { type: 'button', class: 's-link', 'aria-label': 'Remove ' + file.name, dataset: { testid: `${prefix}-photo-remove` } }, 'Remove');
    entry.li = h(
      'li',
      { class: 'compose-photo', dataset: { testid: `${prefix}-photo-item`, state: 'uploading' } },
      h('img', { src: entry.url, alt: file.name, class: 'compose-thumb' }),
      h('div', { class: 'compose-photo-info' }, h('span', { class: 'file-name' }, file.name), progress, status),
      remove,
    );
    remove.addEventListener('click', () => {
      const at = chosen.indexOf(entry);
      if (at >= 0) chosen.splice(at, 1);
      entry.li.remove();
      URL.revokeObjectURL(entry.url);
      input.focus();
    });
    chosen.push(entry);
    list.appendChild(entry.li);
    const fail = (message) => {
      entry.state = 'failed';
      entry.li.dataset.state = 'failed';
      progress.remove();
      status.className = 'field-error';
      status.setAttribute('role', 'alert');
      status.textContent = message;
    };
    if (chosen.length > MAX_PHOTOS) {
      fail(`A ${noun} holds at most ${MAX_PHOTOS} photos; remove this one or another.`);
      return;
    }
    if (file.size > MAX_BYTES) {
      fail('This photo is over 20 MiB.');
      return;
    }
    uploadPhoto(file, (fraction) => {
      progress.value = Math.round(fraction * 100);
    })
      .then((photo) => {
        entry.photo = photo;
        entry.state = 'done';
        entry.li.dataset.state = 'done';
        progress.value = 100;
        progress.hidden = true;
        status.textContent = `${photo.width}×${photo.height}`;
      })
      .catch((error) => fail(error.message));
  }

  function check() {
    if (chosen.some((p) => p.state === 'uploading')) throw fieldError('photos', 'Wait until the photos have finished uploading.');
    if (chosen.some((p) => p.state === 'failed')) throw fieldError('photos', 'Remove the photos that could not be added first.');
  }

  function clear() {
    for (const p of chosen) URL.revokeObjectURL(p.url);
    chosen.length = 0;
    list.replaceChildren();
  }

  const el = h('div', { class: 'field' }, h('label', { for: input.id }, label), input, list);
  return { el, input, ids: () => chosen.map((p) => p.photo.id), check, clear };
}

/**
 * A photo served by the daemon. A friend's photo arrives after what names it (404 until
 * then): meanwhile a dashed box says "Photo not arrived yet" where the image will be (the
 * <img> is hidden, never shown broken), and the image is asked for again, at growing
 * intervals up to 30 s, for as long as it is on the page. The <img> carries the test id
 * (data-state loading|loaded|missing); the box `TESTID-pending`. Answers the frame (a span)
 * holding both.
 */
export function photo(id, { alt = 'Photo', width, height, testid = 'post-photo', className = 'social-photo' } = {}) {
  const src = '/v1/photos/' + encodeURIComponent(id);
  const img = h('img', {
    src,
    alt,
    width: width || null,
    height: height || null,
    loading: 'lazy',
    decoding: 'async',
    class: className,
    dataset: { testid, id, state: 'loading' },
  });
  const pending = h(
    'span',
    { class: 'photo-pending', role: 'img', 'aria-label': `${alt}: not arrived yet`, hidden: true, dataset: { testid: `${testid}-pending` } },
    'Photo not arrived yet',
  );
  const frame = h('span', { class: 'photo-frame' }, img, pending);
  let tries = 0;
  img.addEventListener('error', () => {
    img.hidden = true;
    img.dataset.state = 'missing';
    pending.hidden = false;
    img.loading = 'eager'; // a hidden lazy image would never be asked for again
    tries += 1;
    setTimeout(
      () => {
        if (img.isConnected) img.src = `${src}?try=${tries}`;
      },
      Math.min(1500 * tries, 30000),
    );
  });
  img.addEventListener('load', () => {
    img.hidden = false;
    img.dataset.state = 'loaded';
    pending.hidden = true;
  });
  return frame;
}

/**
 * The photos of a post or a message: one large, or a grid of squares; each opens full size
 * in a new tab. `label(i, n)` is each image's alternative text; `testid` goes on each <img>.
 */
export function photoGrid(photos, { label, testid, className = 'post-photos' }) {
  const n = photos.length;
  if (!n) return null;
  return h(
    'div',
    { class: [className, n === 1 ? 'single' : 'many'] },
    photos.map((ph, i) =>
      h(
        'a',
        { href: '/v1/photos/' + encodeURIComponent(ph.id), target: '_blank', rel: 'noopener', class: 'photo-link', 'aria-label': `Open photo ${i + 1} of ${n} full size` },
        photo(ph.id, { alt: label(i, n), width: ph.width, height: ph.height, testid }),
      ),
    ),
  );
}
