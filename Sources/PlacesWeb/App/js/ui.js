// What views share, in one place (../shared/STYLE.md, "The browser app"): today the
// debounce every live view uses. Views import it from here; the view-area helper modules
// (social-common, library-util, trip-common, trip-expenses-util) re-export it for their
// existing importers.

/**
 * `fn` called once, `ms` after the last of a burst of calls (live events arrive in bursts),
 * with that last call's arguments. `.cancel()` drops a pending call.
 */
export function debounce(fn, ms = 100) {
  let timer = null;
  const wrapped = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => { timer = null; fn(...args); }, ms);
  };
  wrapped.cancel = () => clearTimeout(timer);
  return wrapped;
}
