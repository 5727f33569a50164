// #/friends/:id — a friend's profile: picture, name, username, bio, since / last seen,
// their map (#/map/friend/ID), and tabs for the posts of theirs you can see (like and
// comment as in the feed), the places they share with you (save one to your library) and
// the trips they published to you (→ #/explore/TRIP). Live: new posts, likes, comments,
// trips and card changes show within a second; an open comment keeps its text.
// testids: friend-profile (data-id, data-state), friend-name, friend-username, friend-bio,
//   friend-picture, friend-map-link, friend-remove (+ friend-remove-confirm),
//   friend-tab-posts, friend-tab-places, friend-tab-trips (role=tab), friend-posts
//   (post-item inside, see social-post.js), friend-places, friend-place (data-id),
//   friend-place-save, friend-trips, friend-trip (data-id; like explore-trip inside),
//   friend-gone

import { get, post as postJSON, del, seg } from '../api.js';
import { h, mount, tabs, action, formatTime, flash } from '../dom.js';
import { confirmButton, plural } from '../ui.js';
import { refresher, reconcile, avatar, timeAgo } from './social-common.js';
import { syncCards } from './social-post.js';
import { syncTripCards } from './social-trip.js';
import { sharedPlace } from './social-contacts.js';

export async function render(main, params, ctx) {
  const me = ctx.status && ctx.status.id;
  const id = params.id;
  let profile;
  let groups = [];
  try {
    [profile, groups] = await Promise.all([
      get('/v1/friends/' + seg(id)),
      get('/v1/groups')
        .then((g) => g.groups)
        .catch(() => []),
    ]);
  } catch (error) {
    if (error.status === 404 || error.status === 400) {
      gone(main, error);
      return undefined;
    }
    throw error;
  }

  const friends = new Map([[profile.friend.id, profile.friend]]);
  const postCards = new Map();
  const tripCards = new Map();
  const postOpts = { me, myName: ctx.status && ctx.status.name, friends, groups, onDeleted: () => refresh() };
  const tripOpts = { me, friends, testid: 'friend-trip' };
  let tab = ['posts', 'places', 'trips'].includes(ctx.query.get('tab')) ? ctx.query.get('tab') : 'posts';

  const head = h('header', { class: 'card friend-head' });
  const tabStrip = h('div');
  const postList = h('ul', { class: 'list post-list', 'aria-label': 'Posts', dataset: { testid: 'friend-posts' } });
  const postsEmpty = h('p', { class: 'empty', hidden: true }, 'No posts of theirs that you can see yet.');
  const placesBox = h('div', { dataset: { testid: 'friend-places' } });
  const tripList = h('ul', { class: 'list ex-list', 'aria-label': 'Trips', dataset: { testid: 'friend-trips' } });
  const tripsEmpty = h('p', { class: 'empty', hidden: true }, 'They have published no trip to you.');
  const panels = {
    posts: h('div', { role: 'tabpanel', id: 'panel-posts', 'aria-labelledby': 'tab-posts' }, postList, postsEmpty),
    places: h('div', { role: 'tabpanel', id: 'panel-places', 'aria-labelledby': 'tab-places' }, placesBox),
    trips: h('div', { role: 'tabpanel', id: 'panel-trips', 'aria-labelledby': 'tab-trips' }, tripList, tripsEmpty),
  };

  mount(
    main,
    h(
      'article',
      { class: 'friend-page', dataset: { testid: 'friend-profile', id: profile.friend.id, state: profile.friend.state } },
      h('p', {}, h('a', { href: '#/friends' }, '← Friends')),
      head,
      tabStrip,
      Object.values(panels),
    ),
  );

  let headKey = '';
  let placesKey = '';
  function show(next) {
    profile = next;
    friends.set(profile.friend.id, profile.friend);
    const f = profile.friend;
    const key = JSON.stringify(f);
    if (key !== headKey && !head.contains(document.activeElement)) {
      headKey = key;
      renderHead(f);
    }
    renderTabs();
    reconcile(postList, syncCards(postCards, profile.posts, postOpts));
    postsEmpty.hidden = profile.posts.length > 0;
    const pk = JSON.stringify(profile.places);
    if (pk !== placesKey) {
      placesKey = pk;
      renderPlaces();
    }
    const trips = profile.trips || [];
    reconcile(tripList, syncTripCards(tripCards, trips, tripOpts));
    tripsEmpty.hidden = trips.length > 0;
  }

  function renderHead(f) {
    const name = f.name || f.id.split('-')[0];
    const picture = avatar(f.picture, name, 'large');
    picture.dataset.testid = 'friend-picture';
    mount(
      head,
      h(
        'div',
        { class: 'row friend-head-row' },
        picture,
        h(
          'div',
          { class: 'grow' },
          h('h2', { dataset: { testid: 'friend-name' } }, name),
          f.username ? h('p', { class: 'muted', dataset: { testid: 'friend-username' } }, '@' + f.username) : null,
          f.bio ? h('p', { class: 'friend-bio', dataset: { testid: 'friend-bio' } }, f.bio) : null,
          h(
            'p',
            { class: 'muted' },
            f.state === 'requested' ? 'Your request waits for their answer · asked ' : 'Friends since ',
            new Date(f.since).toLocaleDateString(),
            ' · ',
            f.lastSeen ? h('span', { title: formatTime(f.lastSeen) }, 'last seen ', timeAgo(f.lastSeen)) : 'not seen yet',
          ),
          h('p', { class: 'muted s-mono', title: 'Their public id' }, f.id),
        ),
      ),
      h(
        'div',
        { class: 'row' },
        h('a', { class: 'button', href: '#/map/friend/' + encodeURIComponent(f.id), dataset: { testid: 'friend-map-link' } }, 'Their map'),
        confirmButton(
          f.state === 'requested' ? 'Withdraw request' : 'Remove friend',
          async () => {
            await del('/v1/friends/' + seg(f.id));
            flash('You and ' + name + ' are no longer friends.', 'ok');
            ctx.navigate('#/friends');
          },
          { confirmLabel: 'Yes, remove ' + name, dataset: { testid: 'friend-remove' } },
        ),
      ),
    );
  }

  // The strip is built once; counts and the selection change in place, so a tab keeps
  // its node (and focus) when a post arrives.
  function renderTabs() {
    const labels = {
      posts: 'Posts (' + profile.posts.length + ')',
      places: 'Places (' + profile.places.length + ')',
      trips: 'Trips (' + (profile.trips || []).length + ')',
    };
    if (!tabStrip.firstChild) {
      const select = (next) => {
        tab = next;
        renderTabs();
        const t = tabStrip.querySelector('[aria-selected=true]');
        if (t) t.focus();
      };
      const strip = tabs(
        Object.keys(labels).map((k) => ({ id: k, label: labels[k] })),
        tab,
        select,
        'About ' + (profile.friend.name || 'this friend'),
      );
      for (const button of strip.querySelectorAll('[role=tab]')) {
        button.dataset.testid = 'friend-tab-' + button.dataset.tab;
        button.setAttribute('aria-controls', 'panel-' + button.dataset.tab);
      }
      mount(tabStrip, strip);
    }
    for (const button of tabStrip.querySelectorAll('[role=tab]')) {
      const on = button.dataset.tab === tab;
      if (button.textContent !== labels[button.dataset.tab]) button.textContent = labels[button.dataset.tab];
      button.setAttribute('aria-selected', on ? 'true' : 'false');
      button.tabIndex = on ? 0 : -1;
      button.classList.toggle('active', on);
    }
    for (const [name, panel] of Object.entries(panels)) panel.hidden = name !== tab;
  }

  function renderPlaces() {
    const places = profile.places;
    if (!places.length) {
      mount(placesBox, h('p', { class: 'empty' }, 'They share no places with you.'));
      return;
    }
    mount(
      placesBox,
      h('p', {}, plural(places.length, 'place') + ' they share with you · ', h('a', { href: '#/map/friend/' + encodeURIComponent(profile.friend.id) }, 'see them on a map')),
      h(
        'ul',
        { class: 'list shared-places' },
        places.map((p) => {
          const li = sharedPlace(
            p,
            action(
              'Save to my places',
              async (button) => {
                await postJSON('/v1/places', { fromFriend: profile.friend.id, placeId: p.id });
                button.textContent = 'Saved';
                flash('“' + p.name + '” is in your places now.', 'ok');
              },
              { 'aria-label': 'Save ' + p.name + ' to my places', dataset: { testid: 'friend-place-save' } },
            ),
          );
          li.dataset.testid = 'friend-place';
          return li;
        }),
      ),
    );
  }

  const refresh = refresher(async () => {
    try {
      show(await get('/v1/friends/' + seg(id)));
    } catch (error) {
      if (error.status === 404) {
        refresh.stop();
        gone(main, error);
        return;
      }
      throw error;
    }
  });

  show(profile);

  ctx.onEvent((event) => {
    switch (event.type) {
      case 'post':
      case 'like':
      case 'comment':
      case 'friend':
      case 'unfriended':
      case 'peer':
      case 'resync':
        refresh();
        break;
      case 'changed':
        // Their card (name, bio, picture, places) arrives as a change of a document of
        // theirs, whatever its kind; a published trip as `published`.
        if (event.author === id || event.docKind !== 'itinerary') refresh();
        break;
      default:
    }
  });
  return () => refresh.stop();
}

function gone(main, error) {
  mount(
    main,
    h(
      'section',
      { class: 'card', dataset: { testid: 'friend-gone' } },
      h('h2', {}, 'Not a friend'),
      h('p', {}, 'This person is not (or no longer) your friend. ', h('span', { class: 'muted' }, error.message)),
      h('p', {}, h('a', { href: '#/friends' }, 'Your friends')),
    ),
  );
}
