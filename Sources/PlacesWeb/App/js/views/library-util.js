// Helpers of the library area's views (identity, profile, discover, favorites, places,
// peers, notifications): uploads with progress, quiet background polling, and the name
// folding discover uses to tell places apart. What every view shares is in ../ui.js.

import { ApiError, csrfToken } from '../api.js';

/**
 * Sends a file as the raw request body with XMLHttpRequest so the upload's progress can
 * be shown (fetch has no upload progress). Answers the parsed JSON; throws ApiError.
 */
export function upload(path, file, { contentType, onProgress } = {}) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Content-Type', contentType || file.type || 'application/octet-stream');
    xhr.setRequestHeader('X-Places-CSRF', csrfToken());
    if (onProgress) {
      xhr.upload.addEventListener('progress', (event) => {
        if (event.lengthComputable) onProgress(event.loaded, event.total);
      });
    }
    xhr.addEventListener('load', () => {
      let body = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body);
        return;
      }
      const problem = body && typeof body === 'object' ? body : { title: xhr.statusText, detail: xhr.responseText };
      const error = new ApiError(xhr.status, problem);
      if (xhr.status === 401 && error.code === 'logged-out') window.dispatchEvent(new CustomEvent('places:logged-out'));
      reject(error);
    });
    xhr.addEventListener('error', () => reject(new ApiError(0, { code: 'unreachable', detail: 'The upload failed: the Places app server cannot be reached.' })));
    xhr.send(file);
  });
}

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
