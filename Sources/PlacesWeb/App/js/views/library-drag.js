// Reordering a list by dragging a handle, with Pointer Events (mouse, pen and touch alike,
// and what WebDriver's pointer actions drive) rather than the HTML5 draggable API; and with
// the keyboard: the handle is a button, ArrowUp/ArrowDown (Home/End) move the item.
//
// sortable(list, { item, handle, onMove(itemEl, from, to), onDragChange(active) })
// `item` and `handle` are selectors; `from`/`to` are 0-based indexes among the items.
// The item is moved in the page at once; `onMove` tells the daemon (and may re-render).

export function sortable(list, { item, handle, onMove, onDragChange }) {
  let drag = null;

  const items = () => [...list.querySelectorAll(item)].filter((el) => el.parentElement === list);

  function clear() {
    for (const el of items()) {
      el.style.transform = '';
      el.classList.remove('dragging', 'shifted');
    }
    list.classList.remove('sorting');
  }

  function targetIndex(center) {
    const { mids, from } = drag;
    let to = from;
    for (let i = 0; i < from; i++)
      if (center < mids[i]) {
        to = i;
        break;
      }
    for (let i = mids.length - 1; i > from; i--)
      if (center > mids[i]) {
        to = i;
        break;
      }
    return to;
  }

  function shiftOthers(to) {
    const { els, from, step } = drag;
    for (let i = 0; i < els.length; i++) {
      if (i === from) continue;
      let shift = 0;
      if (from < to && i > from && i <= to) shift = -step;
      if (to < from && i >= to && i < from) shift = step;
      els[i].style.transform = shift ? `translateY(${shift}px)` : '';
      els[i].classList.toggle('shifted', shift !== 0);
    }
  }

  list.addEventListener('pointerdown', (event) => {
    const grip = event.target.closest(handle);
    if (!grip || !list.contains(grip) || drag) return;
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    const el = grip.closest(item);
    const els = items();
    const from = els.indexOf(el);
    if (from < 0) return;
    event.preventDefault();
    grip.focus({ preventScroll: true });
    grip.setPointerCapture(event.pointerId);
    // One read of the layout per drag; moves only write transforms.
    const rects = els.map((node) => node.getBoundingClientRect());
    const scrollY = window.scrollY;
    const mids = rects.map((r) => r.top + scrollY + r.height / 2);
    const next = rects[from + 1] || null;
    const prev = rects[from - 1] || null;
    const gap = next ? next.top - rects[from].bottom : prev ? rects[from].top - prev.bottom : 0;
    drag = {
      el,
      els,
      from,
      to: from,
      grip,
      pointerId: event.pointerId,
      startY: event.clientY + scrollY,
      top: rects[from].top + scrollY,
      height: rects[from].height,
      mids,
      step: rects[from].height + gap,
    };
    el.classList.add('dragging');
    list.classList.add('sorting');
    if (onDragChange) onDragChange(true);
  });

  list.addEventListener('pointermove', (event) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    event.preventDefault();
    const y = event.clientY + window.scrollY;
    const dy = y - drag.startY;
    drag.el.style.transform = `translateY(${dy}px)`;
    const to = targetIndex(drag.top + drag.height / 2 + dy);
    if (to !== drag.to) {
      drag.to = to;
      shiftOthers(to);
    }
    // Near the window's edges, scroll so long lists can be reordered end to end.
    if (event.clientY < 40) window.scrollBy(0, -12);
    else if (event.clientY > window.innerHeight - 40) window.scrollBy(0, 12);
  });

  function finish(event, commit) {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const { el, from, to, grip } = drag;
    drag = null;
    clear();
    if (grip.hasPointerCapture && grip.hasPointerCapture(event.pointerId)) grip.releasePointerCapture(event.pointerId);
    if (onDragChange) onDragChange(false);
    if (commit && to !== from) move(el, from, to);
  }
  list.addEventListener('pointerup', (event) => finish(event, true));
  list.addEventListener('pointercancel', (event) => finish(event, false));
  list.addEventListener('lostpointercapture', (event) => {
    if (drag && event.pointerId === drag.pointerId) finish(event, true);
  });

  list.addEventListener('keydown', (event) => {
    const grip = event.target.closest(handle);
    if (!grip || drag) return;
    const els = items();
    const el = grip.closest(item);
    const from = els.indexOf(el);
    let to = from;
    if (event.key === 'ArrowUp') to = from - 1;
    else if (event.key === 'ArrowDown') to = from + 1;
    else if (event.key === 'Home') to = 0;
    else if (event.key === 'End') to = els.length - 1;
    else return;
    event.preventDefault();
    if (to < 0 || to >= els.length || to === from) return;
    move(el, from, to);
  });

  function move(el, from, to) {
    const els = items();
    const focused = document.activeElement;
    if (to > from) els[to].after(el);
    else els[to].before(el);
    if (focused && el.contains(focused)) focused.focus({ preventScroll: true });
    onMove(el, from, to);
  }

  return {
    get dragging() {
      return drag !== null;
    },
  };
}
