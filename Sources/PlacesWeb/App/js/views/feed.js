// #/feed — your posts and your friends' posts to you, newest first, with photos, likes
// and comments, and a form to write one. Live: posts, likes and comments from other
// devices or the CLI appear within a second; an open comment box keeps what you typed.
// testids: feed (section), post-compose (form; see social-compose.js), feed-list,
//   post-item (data-id; see social-post.js for the testids inside a post), feed-more,
//   feed-empty

import { get, query } from '../api.js';
import { h, mount, action } from '../dom.js';
import { refresher, reconcile } from './social-common.js';
import { composeForm } from './social-compose.js';
import { syncCards } from './social-post.js';

const PAGE = 20;

export async function render(main, _params, ctx) {
  const me = ctx.status && ctx.status.id;
  const state = { wanted: PAGE, next: null, posts: [], friends: new Map(), groups: [] };
  const cards = new Map();

  const [feed, friends, groups, places] = await Promise.all([
    get('/v1/feed' + query({ limit: PAGE })),
    get('/v1/friends').catch(() => ({ friends: [] })),
    get('/v1/groups').catch(() => ({ groups: [] })),
    get('/v1/places').catch(() => ({ places: [] })),
  ]);
  setFriends(friends.friends);
  state.groups = groups.groups;

  const opts = {
    me,
    myName: ctx.status && ctx.status.name,
    friends: state.friends,
    groups: state.groups,
    onDeleted: () => refreshFeed(),
  };

  const compose = composeForm({ groups: state.groups, places: places.places, onPosted: () => refreshFeed() });
  const list = h('ul', { class: 'list post-list', 'aria-label': 'Posts', 'aria-live': 'off', dataset: { testid: 'feed-list' } });
  const emptyLine = h('p', { class: 'empty', dataset: { testid: 'feed-empty' }, hidden: true }, 'No posts yet. Write the first one, or add friends to see theirs.');
  const more = action(
    'Show older posts',
    async () => {
      if (!state.next) return;
      const page = await get('/v1/feed' + query({ limit: PAGE, before: state.next }));
      const seen = new Set(state.posts.map((p) => p.id));
      show([...state.posts, ...page.posts.filter((p) => !seen.has(p.id))], page.next);
      state.wanted = state.posts.length;
    },
    { class: 'feed-more', dataset: { testid: 'feed-more' } },
  );

  mount(
    main,
    h(
      'section',
      { class: 'feed', dataset: { testid: 'feed' } },
      h('div', { class: 'toolbar' }, h('h2', {}, 'Feed'), h('a', { class: 'button', href: '#/friends' }, 'Friends'), h('a', { class: 'button', href: '#/groups' }, 'Groups')),
      compose.el,
      list,
      emptyLine,
      h('div', { class: 'form-actions' }, more),
    ),
  );

  show(feed.posts, feed.next);

  function setFriends(list) {
    state.friends.clear();
    for (const f of list) state.friends.set(f.id, f);
  }

  function show(posts, next) {
    state.posts = posts;
    state.next = next || null;
    reconcile(list, syncCards(cards, posts, opts));
    emptyLine.hidden = posts.length > 0;
    more.hidden = !state.next;
  }

  // Reads again as many posts as are on screen (at least a page), in pages of ≤ 100.
  const refreshFeed = refresher(async () => {
    const posts = [];
    let before = null;
    let next = null;
    const wanted = Math.max(PAGE, state.wanted);
    do {
      const page = await get('/v1/feed' + query({ limit: Math.min(100, wanted - posts.length), before }));
      posts.push(...page.posts);
      next = page.next || null;
      before = next;
    } while (next && posts.length < wanted);
    show(posts, next);
  });

  const refreshPeople = refresher(async () => {
    const [f, g] = await Promise.all([get('/v1/friends'), get('/v1/groups')]);
    setFriends(f.friends);
    state.groups.splice(0, state.groups.length, ...g.groups);
    compose.setGroups(state.groups);
  }, 150);

  const refreshPlaces = refresher(async () => {
    const p = await get('/v1/places');
    compose.setPlaces(p.places);
  }, 300);

  ctx.onEvent((event) => {
    switch (event.type) {
      case 'post':
      case 'like':
      case 'comment':
        refreshFeed();
        break;
      case 'friend':
      case 'unfriended':
        refreshPeople();
        refreshFeed();
        break;
      case 'resync':
        refreshPeople();
        refreshPlaces();
        refreshFeed();
        break;
      case 'changed':
        // Names come with the posts; a friend's new name arrives with their card (a
        // change of a document of theirs, of any kind).
        if (event.docKind === 'outbox' || event.docKind === 'profile' || event.docKind === 'card' || (event.author && event.author !== me)) refreshFeed();
        if (event.docKind === 'library') {
          refreshPeople();
          refreshPlaces();
        }
        break;
      default:
    }
  });

  return () => {
    refreshFeed.stop();
    refreshPeople.stop();
    refreshPlaces.stop();
  };
}
