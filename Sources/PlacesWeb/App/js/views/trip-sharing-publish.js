// Publishing controls of the Sharing tab (owner only): publish a read-only copy of the trip
// to your friends, a group or the network, preview exactly what would go (a dry run), publish
// again, and unpublish. Whether and where the trip is published is read from two dry runs
// (their answer carries the published trip's id when publishing would keep it) and explore.
// testids: publish (the section), publish-status (data-state="none|published"),
//   publish-form, publish-audience, publish-preview, publish-submit, publish-withdraw,
//   publish-result (the preview or the published copy), publish-open (link to explore).

import { get, post, del, seg, query } from '../api.js';
import { h, field, form, formatDate, formatTime, empty } from '../dom.js';
import { confirmButton } from '../ui.js';
import { moneyOf } from './trip-expenses-money.js';

const AUDIENCE_WORDS = { friends: 'your friends', group: 'a group of your friends', network: 'everyone on the network' };

/** Where the trip is published now: { id, audience, publishedAt } or null. */
async function currentPublication(tripId) {
  const path = `/v1/itineraries/${seg(tripId)}/publish`;
  const [friends, network, explore] = await Promise.all([
    post(path, { audience: 'friends', dryRun: true }).catch(() => null),
    post(path, { audience: 'network', dryRun: true }).catch(() => null),
    get('/v1/explore' + query({ limit: 500 })).catch(() => ({ trips: [] })),
  ]);
  // A withdrawn trip keeps its id (publishing again revives it) but explore lists live ones only.
  const ids = [friends && friends.id, network && network.id].filter(Boolean);
  const listed = (explore.trips || []).find((t) => t.mine && ids.includes(t.id));
  if (!listed) return null;
  return { id: listed.id, audience: listed.audience, publishedAt: listed.publishedAt, updatedAt: listed.updatedAt };
}

/** What a publication holds, for the preview and after publishing. */
function publicationView(pub) {
  const trip = pub.trip;
  const items = trip.items || [];
  const places = trip.places || [];
  const dates = trip.startDate ? `${formatDate(trip.startDate)}${trip.endDate ? ' – ' + formatDate(trip.endDate) : ''}` : 'no dates';
  return h(
    'div',
    { class: 'card publish-result', dataset: { testid: 'publish-result', dryRun: pub.dryRun ? 'true' : 'false' } },
    h('h4', {}, pub.dryRun ? 'What would go' : 'Published copy'),
    h('p', {}, h('strong', {}, trip.name), ` · ${dates} · ${(trip.days || []).length} day${(trip.days || []).length === 1 ? '' : 's'}`),
    h(
      'p',
      { class: 'muted' },
      `To ${AUDIENCE_WORDS[pub.audience] || pub.audience}${pub.groupName ? ' (' + pub.groupName + ')' : ''} · `,
      `${items.length} item${items.length === 1 ? '' : 's'}, ${places.length} place${places.length === 1 ? '' : 's'} to go`,
      trip.cities && trip.cities.length ? ` · ${trip.cities.join(', ')}` : '',
      trip.countries && trip.countries.length ? ` (${trip.countries.join(', ')})` : '',
    ),
    trip.totalCost && trip.totalCost.length ? h('p', {}, 'Prices shown: ', trip.totalCost.map(moneyOf).join(' + ')) : null,
    items.length || places.length
      ? h(
          'details',
          {},
          h('summary', {}, 'Items and places in the copy'),
          h(
            'ul',
            { class: 'plain' },
            [...items, ...places]
              .slice(0, 200)
              .map((it) => h('li', {}, `${it.title}`, h('span', { class: 'muted' }, ` · ${it.type}${it.start ? ' · ' + it.start.replace('T', ' ') : ''}`))),
          ),
        )
      : null,
    h('p', { class: 'muted' }, 'Never in a published copy: expenses, checklists, booking references, confirmation codes, contacts, notes, links or members.'),
  );
}

/** The owner's publish section. `ctl`: { trip }. Answers { element, reload() }. */
export function publishPanel(ctl) {
  const base = `/v1/itineraries/${seg(ctl.trip.id)}/publish`;
  const status = h('p', { class: 'publish-status', dataset: { testid: 'publish-status', state: 'loading' }, 'aria-live': 'polite' }, 'Checking whether this trip is published…');
  const result = h('div', { class: 'publish-result-slot' });
  const withdrawSlot = h('span');
  const audience = field('Publish to', { name: 'audience', dataset: { testid: 'publish-audience' } }, 'select');
  const select = audience.querySelector('select');
  select.append(h('option', { value: 'friends' }, 'My friends'), h('option', { value: 'network' }, 'Everyone (the network)'));
  const groups = h('optgroup', { label: 'A group of friends' });
  let dryRun = false;
  let published = null;

  const el = form(
    { class: 'row publish-form', dataset: { testid: 'publish-form' }, 'aria-label': 'Publish this trip' },
    [
      audience,
      h(
        'div',
        { class: 'form-actions' },
        h(
          'button',
          {
            type: 'submit',
            dataset: { testid: 'publish-preview' },
            onclick: () => {
              dryRun = true;
            },
          },
          'Preview',
        ),
        h(
          'button',
          {
            type: 'submit',
            class: 'primary',
            dataset: { testid: 'publish-submit' },
            onclick: () => {
              dryRun = false;
            },
          },
          'Publish',
        ),
        withdrawSlot,
      ),
    ],
    async (values) => {
      const asked = dryRun;
      dryRun = false;
      const pub = await post(base, { audience: values.audience, dryRun: asked });
      result.replaceChildren(publicationView(pub));
      if (!asked) await reload();
    },
  );

  function showStatus() {
    status.dataset.state = published ? 'published' : 'none';
    const submit = el.querySelector('[data-testid=publish-submit]');
    if (!published) {
      status.replaceChildren('Not published. Publishing sends a read-only copy that others can explore, like and use as a template.');
      submit.textContent = 'Publish';
      withdrawSlot.replaceChildren();
      return;
    }
    status.replaceChildren(
      `Published to ${AUDIENCE_WORDS[published.audience] || published.audience}`,
      published.publishedAt ? ` since ${formatTime(published.publishedAt)}` : '',
      published.updatedAt && published.updatedAt !== published.publishedAt ? `, updated ${formatTime(published.updatedAt)}` : '',
      '. ',
      h('a', { href: '#/explore/' + published.id, dataset: { testid: 'publish-open' } }, 'See it in Explore'),
    );
    submit.textContent = 'Publish again';
    if (published.audience === 'network' || published.audience === 'friends') select.value = published.audience;
    withdrawSlot.replaceChildren(
      confirmButton(
        'Unpublish',
        async () => {
          await del(base);
          result.replaceChildren();
          await reload();
        },
        { dataset: { testid: 'publish-withdraw' } },
      ),
    );
  }

  async function reload() {
    try {
      const [pub, list] = await Promise.all([currentPublication(ctl.trip.id), get('/v1/groups').catch(() => ({ groups: [] }))]);
      published = pub;
      const chosen = select.value;
      groups.replaceChildren(...list.groups.map((g) => h('option', { value: g.id }, g.name)));
      if (list.groups.length && !groups.isConnected) select.append(groups);
      select.value = chosen;
      showStatus();
    } catch (error) {
      status.dataset.state = 'error';
      status.textContent = 'Could not tell whether it is published: ' + error.message;
    }
  }

  const element = h(
    'section',
    { class: 'card publish', dataset: { testid: 'publish' }, 'aria-labelledby': 'publish-h' },
    h('h3', { id: 'publish-h' }, 'Publish to Explore'),
    status,
    el,
    result,
  );
  return { element, reload };
}

export const noPublish = () => empty('Only the trip’s owner publishes it.');
