// Writing a post: text, photos (each uploaded as soon as it is chosen, with a
// <progress>, then named by id in the post), an optional place from the library, and the
// audience (only you, your friends, or one of your groups).
// testids: post-compose (form), post-text, post-photos (file input), post-photo-item
//   (a chosen photo, data-state uploading|done|failed), post-photo-progress,
//   post-photo-remove, post-place (select), post-audience (select), post-submit

import { csrfToken, ApiError, post as postJSON } from '../api.js';
import { h, form, clearErrors } from '../dom.js';
import { audienceLabel } from './social-common.js';

const MAX_PHOTOS = 10;
const MAX_BYTES = 20 * 1024 * 1024;

/** Uploads one file with POST /v1/photos; `onProgress(fraction)`. Resolves to the Photo. */
export function uploadPhoto(file, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/v1/photos');
    xhr.setRequestHeader('Content-Type', file.type && file.type.startsWith('image/') ? file.type : 'application/octet-stream');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('X-Places-CSRF', csrfToken());
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && onProgress) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON */
      }
      if (xhr.status >= 200 && xhr.status < 300 && body) resolve(body);
      else reject(new ApiError(xhr.status, body || { detail: xhr.statusText || `Upload failed (HTTP ${xhr.status}).` }));
    };
    xhr.onerror = () => reject(new ApiError(0, { code: 'unreachable', detail: 'The upload did not reach the app server.' }));
    xhr.send(file);
  });
}

/**
 * The compose form. opts: { groups, places, onPosted(post) }.
 * Answers { el, setGroups(groups), setPlaces(places) }.
 */
export function composeForm(opts) {
  const photos = []; // { file, url, state: 'uploading'|'done'|'failed', photo, li }
  const text = h('textarea', { id: 'post-text', name: 'text', rows: 3, maxlength: 2000, placeholder: 'Share something with your friends…', dataset: { testid: 'post-text' } });
  const counter = h('span', { class: 'muted char-count', 'aria-live': 'polite' }, '0 / 2000');
  text.addEventListener('input', () => {
    counter.textContent = `${[...text.value].length} / 2000`;
  });
  const fileInput = h('input', { id: 'post-photos', type: 'file', accept: 'image/*,.heic,.heif', multiple: true, dataset: { testid: 'post-photos', field: 'photos' } });
  const photoList = h('ul', { class: 'compose-photos', 'aria-label': 'Chosen photos' });
  const audience = h('select', { id: 'post-audience', name: 'audience', dataset: { testid: 'post-audience' } });
  const place = h('select', { id: 'post-place', name: 'placeId', dataset: { testid: 'post-place' } });
  const submit = h('button', { type: 'submit', class: 'primary', dataset: { testid: 'post-submit' } }, 'Post');

  fileInput.addEventListener('change', () => {
    const files = [...fileInput.files];
    fileInput.value = '';
    for (const file of files) addPhoto(file);
  });

  function addPhoto(file) {
    const entry = { file, state: 'uploading', photo: null, url: URL.createObjectURL(file) };
    const progress = h('progress', { max: 100, value: 0, 'aria-label': 'Uploading ' + file.name, dataset: { testid: 'post-photo-progress' } });
    const status = h('span', { class: 'muted' }, 'Uploading…');
    const remove = h('button', { type: 'button', class: 's-link', 'aria-label': 'Remove ' + file.name, dataset: { testid: 'post-photo-remove' } }, 'Remove');
    entry.li = h(
      'li',
      { class: 'compose-photo', dataset: { testid: 'post-photo-item', state: 'uploading' } },
      h('img', { src: entry.url, alt: file.name, class: 'compose-thumb' }),
      h('div', { class: 'compose-photo-info' }, h('span', { class: 'file-name' }, file.name), progress, status),
      remove,
    );
    remove.addEventListener('click', () => {
      const at = photos.indexOf(entry);
      if (at >= 0) photos.splice(at, 1);
      entry.li.remove();
      URL.revokeObjectURL(entry.url);
      fileInput.focus();
    });
    photos.push(entry);
    photoList.appendChild(entry.li);
    const fail = (message) => {
      entry.state = 'failed';
      entry.li.dataset.state = 'failed';
      progress.remove();
      status.className = 'field-error';
      status.setAttribute('role', 'alert');
      status.textContent = message;
    };
    if (photos.length > MAX_PHOTOS) {
      fail(`A post holds at most ${MAX_PHOTOS} photos; remove this one or another.`);
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

  function setGroups(groups) {
    const value = audience.value || 'friends';
    audience.replaceChildren(
      ...[
        h('option', { value: 'friends' }, audienceLabel('friends')),
        h('option', { value: 'only-me' }, audienceLabel('only-me')),
        groups.length
          ? h(
              'optgroup',
              { label: 'Your groups' },
              groups.map((g) => h('option', { value: g.id }, g.name)),
            )
          : null,
      ].filter(Boolean),
    );
    audience.value = [...audience.options].some((o) => o.value === value) ? value : 'friends';
  }

  function setPlaces(places) {
    const value = place.value;
    place.replaceChildren(h('option', { value: '' }, 'No place'), ...places.map((p) => h('option', { value: p.id }, p.name)));
    place.value = [...place.options].some((o) => o.value === value) ? value : '';
  }

  const el = form(
    { class: 'card compose', dataset: { testid: 'post-compose' }, 'aria-label': 'New post' },
    [
      h('h3', { class: 'compose-title' }, 'New post'),
      h('div', { class: 'field' }, h('label', { for: 'post-text' }, 'What is new?'), text, counter),
      h('div', { class: 'field' }, h('label', { for: 'post-photos' }, 'Photos (up to 10)'), fileInput, photoList),
      h(
        'div',
        { class: 'row compose-options' },
        h('div', { class: 'field' }, h('label', { for: 'post-place' }, 'Place'), place),
        h('div', { class: 'field' }, h('label', { for: 'post-audience' }, 'Who sees it'), audience),
      ),
      h('div', { class: 'form-actions' }, submit),
    ],
    async (values, formEl) => {
      if (photos.some((p) => p.state === 'uploading')) {
        throw Object.assign(new Error('Wait until the photos have finished uploading.'), { field: 'photos' });
      }
      if (photos.some((p) => p.state === 'failed')) {
        throw Object.assign(new Error('Remove the photos that could not be added first.'), { field: 'photos' });
      }
      const body = { text: (values.text || '').trim() || null, audience: values.audience || 'friends' };
      const ids = photos.map((p) => p.photo.id);
      if (ids.length) body.photos = ids;
      if (values.placeId) body.placeId = values.placeId;
      if (!body.text && !ids.length) throw Object.assign(new Error('Write something or add a photo.'), { field: 'text' });
      const created = await postJSON('/v1/posts', body);
      for (const p of photos) URL.revokeObjectURL(p.url);
      photos.length = 0;
      photoList.replaceChildren();
      text.value = '';
      counter.textContent = '0 / 2000';
      place.value = '';
      clearErrors(formEl);
      if (opts.onPosted) opts.onPosted(created);
    },
  );

  setGroups(opts.groups || []);
  setPlaces(opts.places || []);
  return { el, setGroups, setPlaces };
}
