// Helpers of the library area's views (identity, profile, discover, favorites, places,
// peers, notifications): quiet background polling, and the name folding discover uses to
// tell places apart. What every view shares is in ../ui.js; uploads with progress are
// ../api.js `upload`, photos ../photos.js.

/** A place's name folded as the daemon folds it: no case, accents or punctuation. */
export function fold(name) {
  return String(name || '')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Great-circle distance in metres. */
export function distanceMeters(lat1, lon1, lat2, lon2) {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * A GET for background polling, without the page's progress bar (api.js shows it for every
 * request). Answers the JSON, or null when the request fails.
 */
export async function quietGet(path) {
  try {
    const response = await fetch(path, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}
