// #/profile: your profile (name, username, bio, picture), your id, log out, which
// favorites your contacts receive, and the pin categories (library-sharing.js).
// Testids:
//   profile-card, profile-picture (img, when there is one), profile-picture-none,
//   profile-picture-input (file), profile-picture-progress, profile-picture-remove,
//   profile-form, profile-name, profile-username, profile-bio, profile-save,
//   profile-id (the full id), profile-id-copy, logout;
//   sharing-form, sharing-mode (radios, value off|all|selected), sharing-place (checkbox,
//   data-id = place id), sharing-save, sharing-count;
//   categories, category-item (data-id = name), category-create (form), category-name,
//   category-emoji, category-submit.

import { get, patch, post } from '../api.js';
import { h, mount, form, field, action, showError, clearErrors, flash } from '../dom.js';
import { bytes, debounce, isEditing } from '../ui.js';
import { uploadPhoto } from '../photos.js';
import { sharingSection, categoriesSection } from './library-sharing.js';

export async function render(main, _params, ctx) {
  let profile = await get('/v1/profile');
  const status = ctx.status || {};

  const picture = h('div', { class: 'profile-picture' });
  const progress = h('progress', { max: 100, value: 0, hidden: true, 'data-testid': 'profile-picture-progress', 'aria-label': 'Uploading the picture' });
  const fileInput = h('input', {
    type: 'file',
    accept: 'image/jpeg,image/png,image/webp,image/heic',
    id: 'profile-picture-input',
    class: 'visually-hidden',
    'data-testid': 'profile-picture-input',
  });
  const pictureLabel = h('label', { class: 'button' }, 'Choose a picture…', fileInput);
  const removePicture = action(
    'Remove picture',
    async () => {
      profile = await patch('/v1/profile', { picture: null });
      showProfile();
    },
    { 'data-testid': 'profile-picture-remove', class: 'danger' },
  );

  fileInput.addEventListener('change', async () => {
    const file = fileInput.files && fileInput.files[0];
    if (!file) return;
    const old = pictureLabel.nextElementSibling;
    if (old && old.classList.contains('field-error')) old.remove();
    progress.hidden = false;
    progress.value = 0;
    try {
      const photo = await uploadPhoto(file, (fraction) => {
        progress.value = Math.round(fraction * 100);
      });
      profile = await patch('/v1/profile', { picture: photo.id });
      showProfile();
      flash(`Picture updated (${bytes(photo.bytes)}, ${photo.width}×${photo.height}).`, 'ok');
    } catch (error) {
      showError(pictureLabel, error);
    } finally {
      progress.hidden = true;
      fileInput.value = '';
    }
  });

  let dirty = false;
  const profileForm = form(
    { class: 'profile-form', 'data-testid': 'profile-form', 'aria-label': 'Your profile' },
    [
      field('Name', { name: 'name', id: 'profile-name', maxlength: 100, autocomplete: 'name', 'data-testid': 'profile-name' }),
      field('Username (letters, digits, . _ -)', { name: 'username', id: 'profile-username', maxlength: 32, 'data-testid': 'profile-username' }),
      field('Bio', { name: 'bio', id: 'profile-bio', maxlength: 1000, rows: 3, 'data-testid': 'profile-bio' }, 'textarea'),
      h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'primary', 'data-testid': 'profile-save' }, 'Save profile')),
    ],
    async (values) => {
      const body = {};
      if (values.name.trim() !== profile.name) body.name = values.name;
      if (values.username.trim() !== profile.username) body.username = values.username;
      const bio = values.bio.trim() ? values.bio : null;
      if ((bio || null) !== (profile.bio || null)) body.bio = bio;
      if (Object.keys(body).length) profile = await patch('/v1/profile', body);
      dirty = false;
      showProfile(true);
      await ctx.refreshStatus();
      flash('Profile saved.', 'ok');
    },
  );
  profileForm.addEventListener('input', () => {
    dirty = true;
  });

  const idCode = h('code', { class: 'identity-id', 'data-testid': 'profile-id' });
  const copy = action(
    'Copy id',
    async (button) => {
      try {
        await navigator.clipboard.writeText(profile.id);
      } catch {
        const range = document.createRange();
        range.selectNodeContents(idCode);
        const selection = getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        throw new Error('Copying is not allowed here: the id is selected, press Ctrl+C.');
      }
      button.textContent = 'Copied';
      setTimeout(() => {
        button.textContent = 'Copy id';
      }, 2000);
    },
    { 'data-testid': 'profile-id-copy', 'aria-label': 'Copy your id' },
  );

  function showProfile(force) {
    const name = profile.name;
    mount(
      picture,
      profile.picture
        ? h('img', { src: '/v1/photos/' + profile.picture, alt: `Picture of ${name}`, class: 'avatar avatar-large', 'data-testid': 'profile-picture' })
        : h(
            'div',
            { class: 'avatar avatar-large avatar-none', 'data-testid': 'profile-picture-none', role: 'img', 'aria-label': 'No picture' },
            (name || '?').trim().charAt(0).toUpperCase(),
          ),
    );
    removePicture.hidden = !profile.picture;
    idCode.textContent = profile.id;
    heading.textContent = name;
    handle.textContent = '@' + profile.username;
    if (force || (!dirty && !isEditing(profileForm))) {
      profileForm.elements.name.value = profile.name;
      profileForm.elements.username.value = profile.username;
      profileForm.elements.bio.value = profile.bio || '';
      clearErrors(profileForm);
    }
  }

  const heading = h('h2', { class: 'profile-name' });
  const handle = h('p', { class: 'muted profile-handle' });
  const logout = action(
    'Log out',
    async () => {
      await post('/v1/logout');
      await ctx.refreshStatus();
      ctx.navigate('#/login');
    },
    { 'data-testid': 'logout', class: 'danger' },
  );

  const sharing = sharingSection();
  const categories = categoriesSection();

  mount(
    main,
    h(
      'section',
      { class: 'card profile-card', 'data-testid': 'profile-card', 'aria-labelledby': 'profile-heading' },
      h('div', { class: 'profile-head' }, picture, h('div', { class: 'grow' }, heading, handle, h('div', { class: 'row' }, pictureLabel, removePicture, progress))),
      profileForm,
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'id-heading' },
      h('h3', { id: 'id-heading' }, 'Your id'),
      h('p', { class: 'muted' }, 'Friends add you by this id. Compare it with them in person or over a channel you trust.'),
      h('div', { class: 'row id-row' }, idCode, copy),
    ),
    sharing.element,
    categories.element,
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'session-heading' },
      h('h3', { id: 'session-heading' }, 'This device'),
      h('p', { class: 'muted' }, `Daemon ${status.version || ''} · data in ${status.dataDir || '?'}. Logging out wipes your key from the daemon's memory; your data stays.`),
      logout,
    ),
  );
  heading.id = 'profile-heading';
  showProfile(true);
  await Promise.all([sharing.load(), categories.load()]);

  const refreshProfile = debounce(async () => {
    try {
      profile = await get('/v1/profile');
      showProfile();
    } catch (error) {
      if (error.code !== 'logged-out') flash(error.message);
    }
  });
  ctx.onEvent((event) => {
    if (event.type === 'resync') {
      refreshProfile();
      sharing.refresh();
      return;
    }
    if (event.type !== 'changed') return;
    if (event.docKind === 'profile') refreshProfile();
    if (event.docKind === 'library' || event.docKind === 'card') sharing.refresh();
  });
  return () => {
    refreshProfile.cancel();
    sharing.refresh.cancel();
  };
}
