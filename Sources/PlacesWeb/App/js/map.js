// Maps: Leaflet over an offline basemap (Natural Earth country outlines and the
// gazetteer's larger cities, App/data/, made by contrib/basemap/make-basemap.py), with a
// street map on top when the app's config names a tile server.
//
//   const map = await createMap(container, { tiles, height: 'small' | 'large', label })
//   map.setPlaces(places, { onSelect })   // [{id, name, latitude, longitude, category?, categories?, emoji?, day?, note?}]
//   map.setRoute(points)                  // [{latitude, longitude, name?}], numbered 1..n
//   map.setFilter({ category, day })      // hides the places that do not match
//   map.fit()                             // what is shown, or the world
//   map.focusPlace(id)                    // pans to a place and opens its popup
//   map.destroy()
//
// Leaflet 1.7 is not an ES module: it is loaded once, on first use, by a same-origin
// <script> (allowed by the page's Content-Security-Policy) that sets `window.L`. Every name
// on the map is a text node (a peer wrote it): no HTML string reaches Leaflet.

const LEAFLET = '/app/vendor/leaflet/leaflet.js';
const COUNTRIES = '/app/data/countries.json';
const CITIES = '/app/data/cities.json';
const CONFIG = '/app/config.json';
const WORLD = [
  [-58, -170],
  [78, 190],
];
const OFFLINE_MAX_ZOOM = 12; // the basemap is coarse there, but pins a few hundred metres apart part
const STREET_MAX_ZOOM = 19;

let leafletPromise = null;
let basemapPromise = null;
let configPromise = null;

function loadLeaflet() {
  if (window.L && window.L.map) return Promise.resolve(window.L);
  if (!leafletPromise) {
    leafletPromise = new Promise((resolve, reject) => {
      let script = document.querySelector('script[data-leaflet]');
      if (!script) {
        script = document.createElement('script');
        script.src = LEAFLET;
        script.async = true;
        script.dataset.leaflet = '';
        document.head.appendChild(script);
      }
      script.addEventListener('load', () => {
        if (window.L && window.L.map) resolve(window.L);
        else {
          leafletPromise = null;
          reject(new Error('The map library did not start.'));
        }
      });
      script.addEventListener('error', () => {
        leafletPromise = null;
        script.remove();
        reject(new Error('The map library could not be loaded.'));
      });
    });
  }
  return leafletPromise;
}

async function fetchJSON(url) {
  const response = await fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

// The basemap's two files, once per page; a file that fails leaves its layer out.
function loadBasemap() {
  if (!basemapPromise) {
    basemapPromise = Promise.all([
      fetchJSON(COUNTRIES).catch((error) => {
        console.warn('basemap countries', error);
        return null;
      }),
      fetchJSON(CITIES).catch((error) => {
        console.warn('basemap cities', error);
        return null;
      }),
    ]).then(([countries, cities]) => {
      if (!countries && !cities) basemapPromise = null;
      return { countries, cities };
    });
  }
  return basemapPromise;
}

/** The app's config (`GET /app/config.json`: {tiles?, version?}), once per page; {} when absent. */
export async function loadConfig() {
  if (!configPromise) {
    configPromise = fetchJSON(CONFIG)
      .then((config) => (config && typeof config === 'object' && !Array.isArray(config) ? config : {}))
      .catch(() => ({}));
  }
  return configPromise;
}

function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

function validTiles(url) {
  if (typeof url !== 'string' || !/^https?:\/\/[^/\s]+\/\S*$/i.test(url)) return null;
  return ['{z}', '{x}', '{y}'].every((part) => url.includes(part)) ? url : null;
}

function tileAttribution(url, config) {
  const given = config.tilesAttribution || config.tileAttribution || config.attribution;
  if (typeof given === 'string' && given.trim()) return escapeHTML(given.trim());
  let host = '';
  try {
    host = new URL(url.replace(/\{[^}]*\}/g, '0')).host;
  } catch {
    /* left empty */
  }
  return escapeHTML(host ? `Street map: ${host}` : 'Street map');
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

const lower = (value) =>
  String(value ?? '')
    .trim()
    .toLowerCase();

function placeCategories(place) {
  const list = [];
  if (place.category) list.push(place.category);
  if (Array.isArray(place.categories)) list.push(...place.categories);
  return list.map(lower);
}

function hasPoint(p) {
  return p && Number.isFinite(Number(p.latitude)) && Number.isFinite(Number(p.longitude)) && Math.abs(Number(p.latitude)) <= 90 && Math.abs(Number(p.longitude)) <= 180;
}

// City dots and names by zoom: the capitals and the largest from the start, names from
// zoom 4; cities of a million from zoom 3 (names at 5); the rest from 4 (names at 6).
function cityTiers(population, major) {
  if (major || population >= 5_000_000) return { dot: 2, label: 4, radius: 3 };
  if (population >= 1_000_000) return { dot: 3, label: 5, radius: 2.5 };
  return { dot: 4, label: 6, radius: 2 };
}

/**
 * A map in `container`. Options: `tiles` (a URL template; left out: the config's, if any;
 * null or '': none), `height` ('small' | 'large'; CSS sizes `.map`), `label` (the
 * accessible name, "Map" by default).
 */
export async function createMap(container, options = {}) {
  container.classList.add('map');
  if (options.height === 'small') container.classList.add('map-small');
  if (options.height === 'large') container.classList.add('map-large');
  container.setAttribute('role', 'region');
  container.setAttribute('aria-label', options.label || 'Map');

  const [L, basemap, config] = await Promise.all([loadLeaflet(), loadBasemap(), loadConfig()]);
  const tiles = validTiles(options.tiles === undefined ? config.tiles : options.tiles);

  const map = L.map(container, {
    keyboard: true,
    worldCopyJump: false,
    minZoom: 1,
    maxZoom: tiles ? STREET_MAX_ZOOM : OFFLINE_MAX_ZOOM,
    maxBounds: [
      [-89, -200],
      [89, 200],
    ],
    maxBoundsViscosity: 0.8,
    zoomSnap: 0.5,
    attributionControl: true,
  });
  container.setAttribute('aria-label', options.label || 'Map');
  map.attributionControl.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');
  L.control.scale({ imperial: false }).addTo(map);

  // Panes: the offline basemap under the tile pane (200), so a street map covers it and a
  // tile that fails to load (offline) shows it through.
  map.createPane('basemap').style.zIndex = '150';
  map.createPane('basemapLabels').style.zIndex = '160';
  map.getPane('basemapLabels').style.pointerEvents = 'none';
  map.createPane('route').style.zIndex = '450';
  const basemapRenderer = L.canvas({ pane: 'basemap', padding: 0.3 });

  if (basemap.countries) {
    L.geoJSON(basemap.countries, {
      pane: 'basemap',
      renderer: basemapRenderer,
      interactive: false,
      attribution: 'Countries: Natural Earth',
      style: () => ({ color: '#8d8a80', weight: 0.7, fillColor: '#f4f1e8', fillOpacity: 1, opacity: 1 }),
    }).addTo(map);
  }

  const cities = [];
  const cityDots = L.layerGroup([], { pane: 'basemap' }).addTo(map);
  const cityLabels = L.layerGroup([], { pane: 'basemapLabels' }).addTo(map);
  if (basemap.cities && Array.isArray(basemap.cities.cities)) {
    for (const [name, lat, lon, population, major] of basemap.cities.cities) {
      const tier = cityTiers(population, major);
      cities.push({
        name,
        population,
        tier,
        latlng: L.latLng(lat, lon),
        shown: false,
        labelled: false,
        dot: L.circleMarker([lat, lon], {
          pane: 'basemap',
          renderer: basemapRenderer,
          interactive: false,
          radius: tier.radius,
          color: '#5b5750',
          weight: 1,
          fillColor: '#fff',
          fillOpacity: 1,
        }),
        label: null,
      });
    }
    cityDots.getAttribution = () => 'Cities: <a href="https://www.geonames.org/">GeoNames</a> (CC BY 4.0)';
    map.attributionControl.addAttribution(cityDots.getAttribution());
  }

  function cityLabel(city) {
    if (!city.label) {
      city.label = L.marker(city.latlng, {
        pane: 'basemapLabels',
        interactive: false,
        keyboard: false,
        icon: L.divIcon({ className: 'map-city-label', html: el('span', null, city.name), iconSize: null }),
      });
    }
    return city.label;
  }

  // Dots by zoom; names by zoom for the cities in view, largest first, skipping one that
  // would overlap a name already placed.
  function updateCities() {
    if (!cities.length) return;
    const zoom = map.getZoom();
    for (const city of cities) {
      const show = zoom >= city.tier.dot;
      if (show !== city.shown) {
        if (show) cityDots.addLayer(city.dot);
        else cityDots.removeLayer(city.dot);
        city.shown = show;
      }
    }
    const bounds = map.getBounds().pad(0.1);
    const placed = [];
    for (const city of cities) {
      let label = zoom >= city.tier.label && bounds.contains(city.latlng);
      if (label) {
        const at = map.latLngToLayerPoint(city.latlng);
        const box = { x0: at.x + 3, y0: at.y - 8, x1: at.x + 9 + city.name.length * 6.2, y1: at.y + 8 };
        label = !placed.some((b) => box.x0 < b.x1 && box.x1 > b.x0 && box.y0 < b.y1 && box.y1 > b.y0);
        if (label) placed.push(box);
      }
      if (label !== city.labelled) {
        if (label) cityLabels.addLayer(cityLabel(city));
        else cityLabels.removeLayer(city.label);
        city.labelled = label;
      }
    }
  }
  map.on('zoomend moveend', updateCities);

  if (tiles) {
    const street = L.tileLayer(tiles, {
      maxZoom: STREET_MAX_ZOOM,
      attribution: tileAttribution(tiles, config),
      referrerPolicy: 'no-referrer',
    });
    const offline = L.layerGroup();
    street.addTo(map);
    L.control.layers({ 'Street map': street, 'Offline map': offline }, null, { collapsed: true, position: 'topright' }).addTo(map);
  }

  const placesLayer = L.layerGroup().addTo(map);
  const routeLayer = L.layerGroup().addTo(map);
  let entries = []; // {place, marker, visible}
  let filter = { category: null, day: null };
  let routePoints = [];
  let destroyed = false;

  function matches(place) {
    if (filter.category && !placeCategories(place).includes(lower(filter.category))) return false;
    if (filter.day !== null && String(place.day ?? '') !== String(filter.day)) return false;
    return true;
  }

  function applyFilter() {
    for (const entry of entries) {
      const visible = matches(entry.place);
      if (visible === entry.visible) continue;
      if (visible) placesLayer.addLayer(entry.marker);
      else placesLayer.removeLayer(entry.marker);
      entry.visible = visible;
    }
  }

  function popupContent(place) {
    const box = el('div', 'map-popup');
    box.appendChild(el('strong', 'map-popup-name', place.name || 'Unnamed place'));
    const facts = [];
    const categories = Array.isArray(place.categories) && place.categories.length ? place.categories : place.category ? [place.category] : [];
    if (categories.length) facts.push(categories.join(', '));
    if (place.day) facts.push(String(place.day));
    if (facts.length) box.appendChild(el('div', 'map-popup-facts', facts.join(' · ')));
    if (place.address) box.appendChild(el('div', 'map-popup-address', place.address));
    if (place.note) box.appendChild(el('p', 'map-popup-note', place.note));
    return box;
  }

  function pinIcon(place) {
    const pin = el('span', 'map-pin-face', place.emoji || '');
    return L.divIcon({
      className: place.emoji ? 'map-pin' : 'map-pin map-pin-plain',
      html: pin,
      iconSize: [30, 30],
      iconAnchor: [15, 15],
      popupAnchor: [0, -14],
      tooltipAnchor: [14, 0],
    });
  }

  const handle = {
    /** The Leaflet map itself, for what this module does not cover. */
    leaflet: map,

    setPlaces(places, { onSelect } = {}) {
      if (destroyed) return;
      placesLayer.clearLayers();
      entries = [];
      for (const place of places || []) {
        if (!hasPoint(place)) continue;
        const marker = L.marker([Number(place.latitude), Number(place.longitude)], {
          icon: pinIcon(place),
          keyboard: true,
          title: place.name || '',
          riseOnHover: true,
        });
        marker.bindTooltip(el('span', null, place.name || 'Unnamed place'), { direction: 'right' });
        marker.bindPopup(() => popupContent(place), { maxWidth: 280, autoPanPadding: [24, 24] });
        const select = () => {
          if (typeof onSelect === 'function') onSelect(place);
        };
        marker.on('click', select);
        marker.on('keypress', (event) => {
          const key = event.originalEvent && event.originalEvent.key;
          if (key === 'Enter' || key === ' ') select();
        });
        marker.on('add', () => {
          const icon = marker.getElement();
          if (!icon) return;
          icon.setAttribute('role', 'button');
          icon.setAttribute('aria-label', place.name || 'Unnamed place');
          icon.dataset.placeId = String(place.id ?? '');
          icon.addEventListener('focus', () => marker.openTooltip());
          icon.addEventListener('blur', () => marker.closeTooltip());
        });
        entries.push({ place, marker, visible: false });
      }
      applyFilter();
    },

    setRoute(points) {
      if (destroyed) return;
      routeLayer.clearLayers();
      routePoints = (points || []).filter(hasPoint);
      if (!routePoints.length) return;
      const latlngs = routePoints.map((p) => [Number(p.latitude), Number(p.longitude)]);
      if (latlngs.length > 1) {
        L.polyline(latlngs, { pane: 'route', color: '#b93a07', weight: 3, opacity: 0.85, interactive: false }).addTo(routeLayer);
      }
      routePoints.forEach((point, index) => {
        const number = String(index + 1);
        const title = point.name ? `${number}. ${point.name}` : `Stop ${number}`;
        const marker = L.marker(latlngs[index], {
          icon: L.divIcon({ className: 'map-route-stop', html: el('span', null, number), iconSize: [24, 24], iconAnchor: [12, 12] }),
          keyboard: true,
          title,
          zIndexOffset: 500,
        });
        marker.bindTooltip(el('span', null, title), { direction: 'top', offset: [0, -10] });
        marker.on('add', () => {
          const icon = marker.getElement();
          if (!icon) return;
          icon.setAttribute('aria-label', title);
          icon.addEventListener('focus', () => marker.openTooltip());
          icon.addEventListener('blur', () => marker.closeTooltip());
        });
        marker.addTo(routeLayer);
      });
    },

    setFilter({ category = null, day = null } = {}) {
      if (destroyed) return;
      filter = { category: category || null, day: day === undefined || day === null || day === '' ? null : day };
      applyFilter();
    },

    fit() {
      if (destroyed) return;
      const latlngs = entries
        .filter((e) => e.visible)
        .map((e) => e.marker.getLatLng())
        .concat(routePoints.map((p) => L.latLng(Number(p.latitude), Number(p.longitude))));
      const maxZoom = tiles ? 15 : 10;
      if (!latlngs.length) map.fitBounds(WORLD);
      else if (latlngs.length === 1) map.setView(latlngs[0], tiles ? 14 : 9);
      else map.fitBounds(L.latLngBounds(latlngs), { padding: [32, 32], maxZoom });
      updateCities();
    },

    /** Pans to a place shown on the map and opens its popup; false when it is hidden. */
    focusPlace(id, { focus = false } = {}) {
      if (destroyed) return false;
      const entry = entries.find((e) => String(e.place.id) === String(id));
      if (!entry || !entry.visible) return false;
      // Close enough to tell it from its neighbours, never farther out than now.
      const target = Math.max(map.getZoom(), Math.min(map.getMaxZoom(), tiles ? 15 : 10));
      map.setView(entry.marker.getLatLng(), target);
      entry.marker.openPopup();
      if (focus) {
        const icon = entry.marker.getElement();
        if (icon) icon.focus({ preventScroll: true });
      }
      return true;
    },

    destroy() {
      if (destroyed) return;
      destroyed = true;
      if (resize) resize.disconnect();
      map.remove();
      entries = [];
    },
  };

  // A map made in a container that was hidden or resized later needs to measure again.
  let resize = null;
  if (typeof ResizeObserver === 'function') {
    let last = '';
    resize = new ResizeObserver(() => {
      const size = `${container.clientWidth}x${container.clientHeight}`;
      if (size !== last) {
        last = size;
        map.invalidateSize();
      }
    });
    resize.observe(container);
  }

  map.fitBounds(WORLD);
  updateCities();
  return handle;
}
