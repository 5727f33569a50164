// Writing a post: text, photos (../photos.js `photoPicker`: each uploaded as soon as it is
// chosen, with a <progress>, then named by id in the post), an optional place from the
// library, and the audience (only you, your friends, or one of your groups).
// testids: post-compose (form), post-text, post-photos (file input), post-photo-item
//   (a chosen photo, data-state uploading|done|failed), post-photo-progress,
//   post-photo-remove, post-place (select), post-audience (select), post-submit

import { post as postJSON } from '../api.js';
import { h, form, clearErrors } from '../dom.js';
import { photoPicker } from '../photos.js';
import { audienceLabel } from './social-common.js';

/**
 * The compose form. opts: { groups, places, onPosted(post) }.
 * Answers { el, setGroups(groups), setPlaces(places) }.
 */
export function composeForm(opts) {
  const text = h('textarea', { id: 'post-text', name: 'text', rows: 3, maxlength: 2000, placeholder: 'Share something with your friends…', dataset: { testid: 'post-text' } });
  const counter = h('span', { class: 'muted char-count', 'aria-live': 'polite' }, '0 / 2000');
  text.addEventListener('input', () => {
    counter.textContent = `${[...text.value].length} / 2000`;
  });
  const photos = photoPicker({ prefix: 'post', noun: 'post' });
  const audience = h('select', { id: 'post-audience', name: 'audience', dataset: { testid: 'post-audience' } });
  const place = h('select', { id: 'post-place', name: 'placeId', dataset: { testid: 'post-place' } });
  const submit = h('button', { type: 'submit', class: 'primary', dataset: { testid: 'post-submit' } }, 'Post');

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
      photos.el,
      h(
        'div',
        { class: 'row compose-options' },
        h('div', { class: 'field' }, h('label', { for: 'post-place' }, 'Place'), place),
        h('div', { class: 'field' }, h('label', { for: 'post-audience' }, 'Who sees it'), audience),
      ),
      h('div', { class: 'form-actions' }, submit),
    ],
    async (values, formEl) => {
      photos.check();
      const body = { text: (values.text || '').trim() || null, audience: values.audience || 'friends' };
      const ids = photos.ids();
      if (ids.length) body.photos = ids;
      if (values.placeId) body.placeId = values.placeId;
      if (!body.text && !ids.length) throw Object.assign(new Error('Write something or add a photo.'), { field: 'text' });
      const created = await postJSON('/v1/posts', body);
      photos.clear();
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
