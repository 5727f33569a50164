// #/notifications: likes, comments, friend requests and acceptances, invitations, views,
// joins, trip likes and new messages (a friend's, or a member's in a trip's conversation),
// newest first; unread ones marked; mark one or all read; each links
// to what it is about. Live on `notification` events.
// Testids:
//   notifications-unread ("2 unread"), notifications-read-all, notifications-list,
//   notification-item (li, data-id, data-type, data-read="true|false"), notification-text,
//   notification-link (to the post's feed, the itinerary, the trip, the person, the
//   conversation),
//   notification-read (the "Mark read" button of an unread one).

import { get, post } from '../api.js';
import { h, mount, action, empty, flash, formatTime, shortID } from '../dom.js';
import { debounce, rerender } from '../ui.js';
import { quietGet } from './library-util.js';

const TEXT = {
  like: 'liked your post',
  comment: 'commented on your post',
  'friend-request': 'wants to be your friend',
  'friend-accepted': 'accepted your friend request',
  invitation: 'invites you to an itinerary',
  viewed: 'viewed your itinerary',
  joined: 'joined your itinerary',
  'trip-liked': 'liked your published trip',
  message: 'wrote to you',
};

/** What a notification says after its actor's name. */
function text(n) {
  // A trip's conversation is `trip:ITIN` (docs/messages.md).
  if (n.type === 'message' && String(n.subject).startsWith('trip:')) return "wrote in a trip's conversation";
  return TEXT[n.type] || n.type;
}

/** Where a notification leads, and how the link reads. */
function target(n) {
  const id = encodeURIComponent(n.subject);
  switch (n.type) {
    case 'like':
    case 'comment':
      return ['#/feed', 'Open the feed'];
    case 'friend-request':
      return ['#/friends', 'Answer in Friends'];
    case 'friend-accepted':
      return ['#/friends/' + id, 'See their profile'];
    case 'invitation':
      return ['#/itineraries', 'Answer the invitation'];
    case 'viewed':
    case 'joined':
      return ['#/itineraries/' + id, 'Open the itinerary'];
    case 'trip-liked':
      return ['#/explore/' + id, 'Open the trip'];
    case 'message':
      return ['#/messages/' + id, 'Open the conversation'];
    default:
      return ['#/notifications', 'Notifications'];
  }
}

export async function render(main, _params, ctx) {
  const unread = h('p', { class: 'count', 'data-testid': 'notifications-unread', 'aria-live': 'polite' });
  const list = h('ol', { class: 'list notifications-list', 'data-testid': 'notifications-list', 'aria-label': 'Notifications, newest first' });
  const readAll = action(
    'Mark all read',
    async () => {
      show(await post('/v1/notifications/read', {}));
      ctx.refreshUnread();
    },
    { 'data-testid': 'notifications-read-all' },
  );

  mount(main, h('h2', {}, 'Notifications'), h('div', { class: 'toolbar' }, unread, readAll), list);

  async function markRead(ids) {
    const answer = await post('/v1/notifications/read', { ids });
    show(answer);
    ctx.refreshUnread();
  }

  function item(n) {
    const who = n.actorName || shortID(n.actor);
    const [href, label] = target(n);
    const link = h('a', { href, 'data-testid': 'notification-link' }, label);
    if (!n.read)
      link.addEventListener('click', () => {
        markRead([n.id]).catch(() => {});
      });
    return h(
      'li',
      { class: n.read ? 'notification' : 'notification unread', 'data-testid': 'notification-item', 'data-id': n.id, 'data-type': n.type, 'data-read': String(n.read) },
      n.read ? null : h('span', { class: 'new-badge' }, 'New'),
      h(
        'div',
        { class: 'grow' },
        h('p', { class: 'notification-text', 'data-testid': 'notification-text' }, h('span', { class: 'person', title: n.actor }, who), ' ', text(n)),
        h('div', { class: 'muted' }, h('time', { datetime: n.at }, formatTime(n.at)), ' · ', link),
      ),
      n.read ? null : action('Mark read', () => markRead([n.id]), { 'data-testid': 'notification-read', 'aria-label': `Mark read: ${who} ${text(n)}` }),
    );
  }

  let last = '';
  function show(answer) {
    last = JSON.stringify(answer);
    unread.textContent = answer.unread ? `${answer.unread} unread` : 'All read';
    readAll.hidden = !answer.unread;
    rerender(
      list,
      answer.notifications.length
        ? answer.notifications.map(item)
        : [h('li', { class: 'placeholder' }, empty('Nothing yet. Likes, comments, friend requests and views of your trips appear here.'))],
    );
  }

  async function load() {
    show(await get('/v1/notifications?limit=200'));
  }
  await load();
  const refresh = debounce(
    () =>
      load().catch((error) => {
        if (error.code !== 'logged-out') flash(error.message);
      }),
    100,
  );
  ctx.onEvent((event) => {
    if (event.type === 'notification' || event.type === 'resync') refresh();
  });
  // Marked read from the CLI or another tab: no event says so; a quiet poll notices.
  const poll = setInterval(async () => {
    if (document.hidden) return;
    const answer = await quietGet('/v1/notifications?limit=200');
    if (answer && JSON.stringify(answer) !== last) {
      show(answer);
      ctx.refreshUnread();
    }
  }, 1000);
  return () => {
    refresh.cancel();
    clearInterval(poll);
  };
}
