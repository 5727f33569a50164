// #/login: create your identity (no identity in the data dir yet) or log in.
// Testids:
//   init-form, init-name, init-username, init-bio, init-passphrase, init-passphrase-confirm,
//   init-no-passphrase (checkbox), init-submit;
//   login-form, login-passphrase (absent for an unsealed key), login-submit, login-id.

import { get, post } from '../api.js';
import { h, mount, form, field, showError } from '../dom.js';

export async function render(main, _params, ctx) {
  const status = await get('/v1/status');
  if (status.loggedIn) {
    await ctx.refreshStatus();
    ctx.navigate('#/home');
    return;
  }
  mount(main, status.initialized ? loginView(status, ctx) : initView(ctx));
  const first = main.querySelector('input');
  if (first) first.focus();
}

async function done(ctx) {
  await ctx.refreshStatus();
  ctx.navigate('#/home');
}

function input(label, attrs, control) {
  return field(label, { ...attrs, id: 'identity-' + attrs.name }, control);
}

function loginView(status, ctx) {
  const sealed = status.passphraseProtected !== false;
  const login = form(
    { class: 'card identity-form', 'data-testid': 'login-form', 'aria-labelledby': 'login-title' },
    [
      h('h2', { id: 'login-title' }, 'Log in'),
      h('p', { class: 'muted' }, 'Unlock your identity in the daemon so it signs and syncs again.'),
      status.id ? h('p', { class: 'identity-id' }, 'Identity ', h('code', { 'data-testid': 'login-id' }, status.id)) : null,
      // For password managers: which account this passphrase belongs to.
      h('input', { type: 'text', name: 'account', autocomplete: 'username', value: status.id || '', hidden: true, 'aria-hidden': 'true', tabindex: '-1' }),
      sealed
        ? input('Passphrase', { name: 'passphrase', type: 'password', autocomplete: 'current-password', required: true, 'data-testid': 'login-passphrase' })
        : h('p', { class: 'muted' }, 'This identity has no passphrase (an unsealed key file).'),
      h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'primary', 'data-testid': 'login-submit' }, 'Log in')),
    ],
    async (values, el) => {
      if (sealed && !values.passphrase) {
        showError(el.querySelector('[name=passphrase]'), 'Enter your passphrase.');
        return;
      }
      try {
        await post('/v1/login', sealed ? { passphrase: values.passphrase } : {});
      } catch (error) {
        const box = el.querySelector('[name=passphrase]');
        if (error.code !== 'wrong-passphrase' || !box) throw error;
        showError(box, 'Wrong passphrase: try again.');
        box.select();
        return;
      }
      await done(ctx);
    },
  );
  return h('section', { class: 'identity' }, login);
}

function initView(ctx) {
  const noPass = h('input', { type: 'checkbox', name: 'noPassphrase', id: 'identity-noPassphrase', 'data-testid': 'init-no-passphrase' });
  const secret = h(
    'div',
    { class: 'identity-secret' },
    input('Passphrase', { name: 'passphrase', type: 'password', autocomplete: 'new-password', 'data-testid': 'init-passphrase' }),
    input('Passphrase again', { name: 'confirm', type: 'password', autocomplete: 'new-password', 'data-testid': 'init-passphrase-confirm' }),
  );
  noPass.addEventListener('change', () => {
    secret.hidden = noPass.checked;
    for (const el of secret.querySelectorAll('input')) el.disabled = noPass.checked;
  });
  const create = form(
    { class: 'card identity-form', 'data-testid': 'init-form', 'aria-labelledby': 'init-title' },
    [
      h('h2', { id: 'init-title' }, 'Create your identity'),
      h('p', { class: 'muted' }, 'A key pair is made on this device; friends add you by its id. Your passphrase seals the key: it cannot be recovered.'),
      input('Name', { name: 'name', autocomplete: 'name', maxlength: 100, required: true, 'data-testid': 'init-name' }),
      input('Username (letters, digits, . _ -)', { name: 'username', autocomplete: 'username', maxlength: 32, required: true, 'data-testid': 'init-username' }),
      input('Bio (optional)', { name: 'bio', maxlength: 1000, rows: 2, 'data-testid': 'init-bio' }, 'textarea'),
      secret,
      h('div', { class: 'field field-check' }, h('label', { for: 'identity-noPassphrase' }, noPass, ' No passphrase (a headless device: the key file is stored unsealed)')),
      h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'primary', 'data-testid': 'init-submit' }, 'Create identity')),
    ],
    async (values, el) => {
      const problem = (name, message) => showError(el.querySelector(`[name=${name}]`), message);
      if (!values.name || !values.name.trim()) return problem('name', 'Enter your name.');
      if (!values.username || !values.username.trim()) return problem('username', 'Choose a username.');
      const body = { name: values.name.trim(), username: values.username.trim() };
      if (values.bio && values.bio.trim()) body.bio = values.bio;
      if (noPass.checked) {
        body.noPassphrase = true;
      } else {
        if (!values.passphrase) return problem('passphrase', 'Choose a passphrase (or tick “No passphrase”).');
        if (values.passphrase !== values.confirm) return problem('confirm', 'The two passphrases differ.');
        body.passphrase = values.passphrase;
      }
      await post('/v1/init', body);
      await done(ctx);
    },
  );
  return h('section', { class: 'identity' }, create);
}
