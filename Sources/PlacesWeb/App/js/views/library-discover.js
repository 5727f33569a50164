// Discover results and the library: which library place a result is (made when needed),
// hearting and un-hearting a result, adding it to an itinerary as a place to go, and the
// popularity sort toggle's states. Used by discover.js.

import { get, post, del, seg } from '../api.js';
import { fold, distanceMeters } from './library-util.js';

/** The toggle's cycle: off → descending → ascending → off (the seed's one button). */
export const SORTS = {
  off: { next: 'descending', name: 'off', text: 'Popularity: off', arrow: '↕', words: 'off (best match first)', order: 'best match first' },
  descending: { next: 'ascending', name: 'descending', text: 'Popularity: descending', arrow: '↓', words: 'descending (most saved first)', order: 'most saved first' },
  ascending: { next: 'off', name: 'ascending', text: 'Popularity: ascending', arrow: '↑', words: 'ascending (least saved first)', order: 'least saved first' },
};

export const KINDS = [
  ['', 'All kinds'],
  ['city', 'Cities'],
  ['region', 'Regions'],
  ['country', 'Countries'],
  ['continent', 'Continents'],
  ['place', 'Places (yours and contacts’)'],
];

const GAZETTEER = /^(city|region|country|continent):/;

/** For `place:<32 hex>`: the library place id; null for a contact's place or a gazetteer entry. */
export function ownPlaceID(result) {
  if (!result.id.startsWith('place:')) return null;
  const rest = result.id.slice(6);
  return rest.includes('.') ? null : rest;
}

/** Whether library place `place` is the same place as `result` (as popularity reads it). */
function samePlace(place, result) {
  const own = ownPlaceID(result);
  if (own) return place.id === own;
  if (GAZETTEER.test(result.id) && place.gazetteerId) return place.gazetteerId === result.id;
  return fold(place.name) === fold(result.name) && distanceMeters(place.latitude, place.longitude, result.latitude, result.longitude) <= 100;
}

/**
 * The library place id for a result: its own place, the library place made from the same
 * gazetteer entry, or a new one (from the gazetteer id, or a copy of a contact's place).
 */
export async function libraryPlaceFor(result) {
  const own = ownPlaceID(result);
  if (own) return own;
  const { places } = await get('/v1/places');
  const existing = places.find((place) => samePlace(place, result));
  if (existing) return existing.id;
  const body = GAZETTEER.test(result.id) ? { gazetteerId: result.id } : { name: result.name, latitude: result.latitude, longitude: result.longitude };
  return (await post('/v1/places', body)).id;
}

/** Hearts a result (a new library place when needed). */
export async function heart(result) {
  const placeId = await libraryPlaceFor(result);
  try {
    await post('/v1/favorites', { placeId });
  } catch (error) {
    if (error.code !== 'already-favorite') throw error;
  }
}

/** Removes the favorites that are this result's place (the library places stay). */
export async function unheart(result) {
  const { places } = await get('/v1/places');
  const hearted = places.filter((place) => place.favorite && samePlace(place, result));
  if (!hearted.length) throw new Error('None of your favorites is this place any more.');
  for (const place of hearted) await del('/v1/favorites/' + seg(place.id));
}

/** Adds a result to an itinerary as a place to go; answers the itinerary. */
export async function addToItinerary(result, itineraryId) {
  const placeId = await libraryPlaceFor(result);
  return post(`/v1/itineraries/${seg(itineraryId)}/places`, { placeId });
}

/** Where a result is, in words: "Île-de-France, France" / "Europe". */
export function whereText(result) {
  const parts = [];
  if (result.region && result.region !== result.name) parts.push(result.region);
  if (result.country && result.country !== result.name) parts.push(result.country);
  if (!parts.length && result.continent && result.continent !== result.name) parts.push(result.continent);
  return parts.join(', ');
}

export function popularityText(count) {
  if (!count) return 'No one you know saved it';
  return `Saved by ${count} ${count === 1 ? 'person' : 'people'} you know`;
}

/** Stable local re-sort by popularity, for instant feedback while the daemon answers. */
export function sortLocally(results, sort) {
  if (sort === 'off') return results;
  const sign = sort === 'descending' ? -1 : 1;
  return results
    .map((r, i) => [r, i])
    .sort((a, b) => sign * (a[0].popularity - b[0].popularity) || a[1] - b[1])
    .map((p) => p[0]);
}
