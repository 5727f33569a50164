// Money in the expenses views: amounts are integer minor units of an ISO 4217 currency,
// read from what the user typed and shown back exactly, never through floating point.
// The digits per currency are ISO 4217's (as Sources/PlacesModel/Expenses/CurrencyTable
// keeps them), not the browser's CLDR display digits (IQD has 3 in ISO, 0 in CLDR).

import { fieldError } from '../ui.js';

// Every active code with a minor unit; those not listed in EXPONENTS have 2 digits.
const CODES = (
  'AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BHD BIF BMD BND BOB BOV BRL BSD BTN BWP ' +
  'BYN BZD CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ' +
  'ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK ' +
  'JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD ' +
  'MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP ' +
  'PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP ' +
  'SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES VND VUV ' +
  'WST XAD XAF XCD XCG XOF XPF YER ZAR ZMW ZWG'
).split(' ');
const EXPONENTS = {
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
};
const KNOWN = new Set(CODES);

export const CURRENCIES = CODES;
export const MAX_MINOR = 1e12;

/** Minor-unit digits of a currency (2 for a code this table does not know, as the daemon shows it). */
export function digits(currency) {
  return currency in EXPONENTS ? EXPONENTS[currency] : 2;
}

export const isCurrency = (code) => KNOWN.has(code);

/**
 * Reads an amount typed in major units ("84.50", "84,5", "1500") as integer minor units of
 * `currency`. One decimal separator (a point or a comma); no sign, exponent or grouping; at
 * most the currency's digits after it; 1 … 10^12 minor units unless `allowZero`.
 * Throws fieldError(field, …) with the reason in words.
 */
export function parseAmount(text, currency, field = 'amount', { allowZero = false } = {}) {
  const raw = String(text || '').trim();
  if (!isCurrency(currency)) throw fieldError(field.endsWith('amount') ? 'currency' : field, `'${currency}' is not an ISO 4217 currency code such as EUR or JPY`);
  if (!raw) throw fieldError(field, 'Enter an amount, such as 84.50.');
  if (/[+-]/.test(raw)) throw fieldError(field, `An amount is written without a sign: '${raw}' is not an amount.`);
  const separators = raw.match(/[.,]/g) || [];
  if (separators.length > 1) throw fieldError(field, `'${raw}' has more than one separator: write the amount without grouping, such as 1234.50.`);
  const [whole, fraction = null] = raw.split(/[.,]/);
  if (!/^[0-9]+$/.test(whole) || (fraction !== null && !/^[0-9]+$/.test(fraction))) {
    throw fieldError(field, `'${raw}' is not an amount: write digits 0-9 with at most one decimal point, such as 84.50.`);
  }
  const places = digits(currency);
  const decimals = fraction ? fraction.length : 0;
  if (decimals > places) {
    throw fieldError(field, `'${raw}' has ${decimals} decimal${decimals === 1 ? '' : 's'} but ${currency} has ${places === 0 ? 'none' : 'only ' + places}.`);
  }
  const wholeDigits = whole.replace(/^0+/, '');
  if (wholeDigits.length + places > 13) throw fieldError(field, `'${raw}' is too large: an amount is at most ${formatMinor(MAX_MINOR, currency)} ${currency}.`);
  const minor = Number((wholeDigits || '0') + (fraction || '').padEnd(places, '0'));
  if (minor > MAX_MINOR) throw fieldError(field, `'${raw}' is too large: an amount is at most ${formatMinor(MAX_MINOR, currency)} ${currency}.`);
  if (minor < 1 && !allowZero) throw fieldError(field, 'An amount is more than zero.');
  return minor;
}

/** Minor units as plain decimal text with the currency's digits: 8450 EUR → "84.50". */
export function formatMinor(minor, currency) {
  const places = digits(currency);
  const negative = minor < 0;
  const text = String(Math.abs(minor)).padStart(places + 1, '0');
  const body = places ? text.slice(0, -places) + '.' + text.slice(-places) : text;
  return (negative ? '-' : '') + body;
}

const formatters = new Map();
function formatter(currency) {
  if (!formatters.has(currency)) {
    const places = digits(currency);
    let f = null;
    try {
      f = new Intl.NumberFormat(undefined, { style: 'currency', currency, currencyDisplay: 'code', minimumFractionDigits: places, maximumFractionDigits: places });
    } catch {
      f = null;
    }
    formatters.set(currency, f);
  }
  return formatters.get(currency);
}

/** Money for reading: "EUR 1,234.50" in the page's locale, exact (the decimal text goes to Intl as a string). */
export function money(minor, currency) {
  if (currency === null || currency === undefined) return String(minor);
  const text = formatMinor(minor, currency);
  const f = formatter(currency);
  if (f) {
    try {
      return f.format(text);
    } catch {
      /* an engine without string decimals */
    }
  }
  return `${text} ${currency}`;
}

/** `Money` objects ({amountMinor, currency}). */
export const moneyOf = (m) => (m ? money(m.amountMinor, m.currency) : '');

/**
 * A percentage typed as text ("33.33", "33,3") as a number with at most two decimals, for
 * `split.among[].percent` (the daemon keeps basis points, so 33.33 is exact).
 */
export function parsePercent(text, field) {
  const raw = String(text || '').trim();
  const match = /^([0-9]{1,3})(?:[.,]([0-9]{1,2}))?$/.exec(raw);
  if (!match) throw fieldError(field, `'${raw}' is not a percentage: write a number with at most two decimals, such as 33.33.`);
  const basis = Number(match[1]) * 100 + Number((match[2] || '').padEnd(2, '0'));
  if (basis < 1 || basis > 10000) throw fieldError(field, 'A percentage is between 0.01 and 100.');
  return { basis, value: basis / 100 };
}

/** A whole number of shares, 1 … 1,000,000. */
export function parseShares(text, field) {
  const raw = String(text || '').trim();
  if (!/^[0-9]{1,7}$/.test(raw) || Number(raw) < 1 || Number(raw) > 1e6) throw fieldError(field, `'${raw}' is not a number of shares: a whole number from 1 to 1,000,000.`);
  return Number(raw);
}

/** An exchange rate as typed ("0.92", "1,0834") in the canonical form the API takes, or throws. */
export function parseRate(text, field = 'rate') {
  const raw = String(text || '')
    .trim()
    .replace(',', '.');
  if (!/^[0-9]+(\.[0-9]+)?$/.test(raw) || !/[1-9]/.test(raw)) throw fieldError(field, `'${String(text).trim()}' is not a rate: a positive decimal number such as 0.92.`);
  return raw;
}

/** Today as YYYY-MM-DD in the page's zone (the default date of a new expense). */
export function today() {
  const now = new Date();
  const pad = (n) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
