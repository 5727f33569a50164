// A QR Code encoder (ISO/IEC 18004, Model 2): a text in byte mode as UTF-8, the smallest
// version 1–40 that holds it, the data mask with the lowest penalty (rules N1–N4). A port of
// the project's Swift encoder (Sources/PlacesQR/QRCode.swift), same algorithm and tables,
// so the page draws share links locally: nothing about a link leaves the machine.
//
//   const code = encodeQR('places://join/…', 'M');  // { size, version, mask, dark(x, y) }
//   const svg = qrSVG('places://join/…', { label: 'QR code of the link' });

const LEVELS = { L: 0, M: 1, Q: 2, H: 3 };
const FORMAT_BITS = [1, 0, 3, 2]; // by level index L, M, Q, H

// Error-correction codewords per block and blocks, by level (L, M, Q, H) and version (index 0 unused).
const ECC_PER_BLOCK = [
  [0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
  [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28],
  [0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
  [0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
];
const BLOCKS = [
  [0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25],
  [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49],
  [0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68],
  [0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81],
];

/** Modules that hold codewords (data and error correction, plus remainder bits). */
function rawDataModules(version) {
  let result = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const alignments = Math.floor(version / 7) + 2;
    result -= (25 * alignments - 10) * alignments - 55;
    if (version >= 7) result -= 36;
  }
  return result;
}

function dataCodewords(version, level) {
  return Math.floor(rawDataModules(version) / 8) - ECC_PER_BLOCK[level][version] * BLOCKS[level][version];
}

const countBits = (version) => (version < 10 ? 8 : 16);

/** The most bytes one byte-mode segment holds in a version at a level. */
export function byteCapacity(version, level = 'M') {
  const l = LEVELS[level];
  return Math.floor((dataCodewords(version, l) * 8 - 4 - countBits(version)) / 8);
}

// Reed–Solomon over GF(2^8), polynomial 0x11D.
const EXP = new Uint8Array(512);
const LOG = new Int32Array(256);
{
  let value = 1;
  for (let i = 0; i < 255; i++) {
    EXP[i] = value;
    value <<= 1;
    if (value & 0x100) value ^= 0x11d;
  }
  for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255];
  for (let i = 0; i < 255; i++) LOG[EXP[i]] = i;
}
const multiply = (a, b) => (a === 0 || b === 0 ? 0 : EXP[LOG[a] + LOG[b]]);

function rsDivisor(degree) {
  const result = new Uint8Array(degree);
  result[degree - 1] = 1;
  let root = 1;
  for (let n = 0; n < degree; n++) {
    for (let i = 0; i < degree; i++) {
      result[i] = multiply(result[i], root);
      if (i + 1 < degree) result[i] ^= result[i + 1];
    }
    root = multiply(root, 2);
  }
  return result;
}

function rsRemainder(data, divisor) {
  const result = new Uint8Array(divisor.length);
  for (const byte of data) {
    const factor = byte ^ result[0];
    result.copyWithin(0, 1);
    result[result.length - 1] = 0;
    for (let i = 0; i < result.length; i++) result[i] ^= multiply(divisor[i], factor);
  }
  return result;
}

/** The final codewords: segment, terminator, padding, blocks with ECC, interleaved. */
function codewords(bytes, version, level) {
  const capacityBits = dataCodewords(version, level) * 8;
  const bits = [];
  const push = (value, count) => {
    for (let s = count - 1; s >= 0; s--) bits.push((value >>> s) & 1);
  };
  push(0b0100, 4);
  push(bytes.length, countBits(version));
  for (const byte of bytes) push(byte, 8);
  push(0, Math.min(4, capacityBits - bits.length));
  push(0, (8 - (bits.length % 8)) % 8);
  const data = [];
  for (let i = 0; i < bits.length; i += 8) {
    let byte = 0;
    for (let j = 0; j < 8; j++) byte = (byte << 1) | bits[i + j];
    data.push(byte);
  }
  for (let pad = 0xec; data.length * 8 < capacityBits; pad ^= 0xec ^ 0x11) data.push(pad);

  const blockCount = BLOCKS[level][version];
  const eccLength = ECC_PER_BLOCK[level][version];
  const raw = Math.floor(rawDataModules(version) / 8);
  const shortBlocks = blockCount - (raw % blockCount);
  const shortLength = Math.floor(raw / blockCount);
  const divisor = rsDivisor(eccLength);
  const dataBlocks = [];
  const eccBlocks = [];
  let offset = 0;
  for (let i = 0; i < blockCount; i++) {
    const length = shortLength - eccLength + (i < shortBlocks ? 0 : 1);
    const block = data.slice(offset, offset + length);
    offset += length;
    dataBlocks.push(block);
    eccBlocks.push(rsRemainder(block, divisor));
  }
  const result = [];
  for (let p = 0; p < shortLength - eccLength + 1; p++) {
    for (const block of dataBlocks) if (p < block.length) result.push(block[p]);
  }
  for (let p = 0; p < eccLength; p++) for (const block of eccBlocks) result.push(block[p]);
  return result;
}

class Grid {
  constructor(version) {
    this.version = version;
    this.size = version * 4 + 17;
    this.modules = new Uint8Array(this.size * this.size);
    this.isFunction = new Uint8Array(this.size * this.size);
  }

  clone() {
    const copy = new Grid(this.version);
    copy.modules.set(this.modules);
    copy.isFunction.set(this.isFunction);
    return copy;
  }

  setFunction(x, y, dark) {
    this.modules[y * this.size + x] = dark ? 1 : 0;
    this.isFunction[y * this.size + x] = 1;
  }

  drawFunctionPatterns() {
    const size = this.size;
    for (let i = 0; i < size; i++) {
      this.setFunction(6, i, i % 2 === 0);
      this.setFunction(i, 6, i % 2 === 0);
    }
    this.drawFinder(3, 3);
    this.drawFinder(size - 4, 3);
    this.drawFinder(3, size - 4);
    const positions = this.alignmentPositions();
    const last = positions.length - 1;
    positions.forEach((y, row) => {
      positions.forEach((x, column) => {
        const overlapsFinder = (row === 0 && column === 0) || (row === 0 && column === last) || (row === last && column === 0);
        if (!overlapsFinder) this.drawAlignment(x, y);
      });
    });
    this.drawFormatBits(LEVELS.M, 0);
    this.drawVersionBits();
  }

  drawFinder(cx, cy) {
    for (let dy = -4; dy <= 4; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        const x = cx + dx;
        const y = cy + dy;
        if (x < 0 || y < 0 || x >= this.size || y >= this.size) continue;
        const distance = Math.max(Math.abs(dx), Math.abs(dy));
        this.setFunction(x, y, distance !== 2 && distance !== 4);
      }
    }
  }

  drawAlignment(cx, cy) {
    for (let dy = -2; dy <= 2; dy++) {
      for (let dx = -2; dx <= 2; dx++) this.setFunction(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
    }
  }

  alignmentPositions() {
    if (this.version === 1) return [];
    const count = Math.floor(this.version / 7) + 2;
    const step = Math.floor((this.version * 8 + count * 3 + 5) / (count * 4 - 4)) * 2;
    const result = [6];
    for (let i = 0; i < count - 1; i++) result.splice(1, 0, this.size - 7 - i * step);
    return result;
  }

  drawFormatBits(level, mask) {
    const data = (FORMAT_BITS[level] << 3) | mask;
    let remainder = data;
    for (let i = 0; i < 10; i++) remainder = (remainder << 1) ^ ((remainder >>> 9) * 0x537);
    const bits = ((data << 10) | remainder) ^ 0x5412;
    const bit = (i) => ((bits >>> i) & 1) === 1;
    const size = this.size;
    for (let i = 0; i <= 5; i++) this.setFunction(8, i, bit(i));
    this.setFunction(8, 7, bit(6));
    this.setFunction(8, 8, bit(7));
    this.setFunction(7, 8, bit(8));
    for (let i = 9; i < 15; i++) this.setFunction(14 - i, 8, bit(i));
    for (let i = 0; i < 8; i++) this.setFunction(size - 1 - i, 8, bit(i));
    for (let i = 8; i < 15; i++) this.setFunction(8, size - 15 + i, bit(i));
    this.setFunction(8, size - 8, true);
  }

  drawVersionBits() {
    if (this.version < 7) return;
    let remainder = this.version;
    for (let i = 0; i < 12; i++) remainder = (remainder << 1) ^ ((remainder >>> 11) * 0x1f25);
    const bits = (this.version << 12) | remainder;
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >>> i) & 1) === 1;
      const a = this.size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      this.setFunction(a, b, dark);
      this.setFunction(b, a, dark);
    }
  }

  drawCodewords(words) {
    const size = this.size;
    const total = words.length * 8;
    let index = 0;
    for (let right = size - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      const upward = ((right + 1) & 2) === 0;
      for (let v = 0; v < size; v++) {
        const y = upward ? size - 1 - v : v;
        for (let offset = 0; offset < 2; offset++) {
          const at = y * size + right - offset;
          if (this.isFunction[at] || index >= total) continue;
          this.modules[at] = (words[index >>> 3] >>> (7 - (index & 7))) & 1;
          index++;
        }
      }
    }
  }

  applyMask(mask) {
    const size = this.size;
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        if (this.isFunction[y * size + x]) continue;
        let invert;
        switch (mask) {
          case 0:
            invert = (x + y) % 2 === 0;
            break;
          case 1:
            invert = y % 2 === 0;
            break;
          case 2:
            invert = x % 3 === 0;
            break;
          case 3:
            invert = (x + y) % 3 === 0;
            break;
          case 4:
            invert = (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0;
            break;
          case 5:
            invert = ((x * y) % 2) + ((x * y) % 3) === 0;
            break;
          case 6:
            invert = (((x * y) % 2) + ((x * y) % 3)) % 2 === 0;
            break;
          default:
            invert = (((x + y) % 2) + ((x * y) % 3)) % 2 === 0;
        }
        if (invert) this.modules[y * size + x] ^= 1;
      }
    }
  }

  /** ISO/IEC 18004 7.8.3: N1 runs, N2 2×2 blocks, N3 finder-like patterns, N4 dark balance. */
  penalty() {
    const size = this.size;
    const m = this.modules;
    let score = 0;
    const line = new Uint8Array(size);
    for (const horizontal of [true, false]) {
      for (let outer = 0; outer < size; outer++) {
        for (let inner = 0; inner < size; inner++) line[inner] = horizontal ? m[outer * size + inner] : m[inner * size + outer];
        score += runPenalty(line) + finderLikePenalty(line);
      }
    }
    for (let y = 0; y < size - 1; y++) {
      for (let x = 0; x < size - 1; x++) {
        const c = m[y * size + x];
        if (m[y * size + x + 1] === c && m[(y + 1) * size + x] === c && m[(y + 1) * size + x + 1] === c) score += 3;
      }
    }
    let dark = 0;
    for (const v of m) dark += v;
    const total = size * size;
    score += Math.floor(Math.abs(dark * 20 - total * 10) / total) * 10;
    return score;
  }
}

function runPenalty(line) {
  let score = 0;
  let run = 1;
  for (let i = 1; i <= line.length; i++) {
    if (i < line.length && line[i] === line[i - 1]) run++;
    else {
      if (run >= 5) score += run - 2;
      run = 1;
    }
  }
  return score;
}

const FINDER = [1, 0, 1, 1, 1, 0, 1];
function finderLikePenalty(line) {
  const light = (from, to) => {
    for (let i = from; i < to; i++) if (i >= 0 && i < line.length && line[i]) return false;
    return true;
  };
  let score = 0;
  for (let start = 0; start <= line.length - 7; start++) {
    let match = true;
    for (let k = 0; k < 7; k++)
      if (line[start + k] !== FINDER[k]) {
        match = false;
        break;
      }
    if (match && (light(start - 4, start) || light(start + 7, start + 11))) score += 40;
  }
  return score;
}

/**
 * Encodes `text` (UTF-8, byte mode) at level 'L', 'M' (default), 'Q' or 'H'. `options.version`
 * and `options.mask` fix them (for tests). Throws an Error whose message says why it does not fit.
 */
export function encodeQR(text, level = 'M', options = {}) {
  const l = LEVELS[level];
  if (l === undefined) throw new Error(`the error-correction level is ${level}; it is L, M, Q or H`);
  const bytes = new TextEncoder().encode(String(text));
  let version = options.version;
  if (version !== undefined) {
    if (!(version >= 1 && version <= 40)) throw new Error(`the version is ${version}; QR code versions are 1 to 40`);
    if (bytes.length > byteCapacity(version, level))
      throw new Error(`the text is ${bytes.length} bytes; a version ${version} QR code holds at most ${byteCapacity(version, level)} at this error-correction level`);
  } else {
    for (let v = 1; v <= 40 && version === undefined; v++) if (bytes.length <= byteCapacity(v, level)) version = v;
    if (version === undefined) throw new Error(`the text is ${bytes.length} bytes; a QR code holds at most ${byteCapacity(40, level)} at this error-correction level`);
  }
  if (options.mask !== undefined && !(options.mask >= 0 && options.mask <= 7)) throw new Error(`the mask is ${options.mask}; QR code masks are 0 to 7`);

  const grid = new Grid(version);
  grid.drawFunctionPatterns();
  grid.drawCodewords(codewords(bytes, version, l));
  let mask = options.mask;
  if (mask === undefined) {
    let best = Infinity;
    for (let candidate = 0; candidate < 8; candidate++) {
      const trial = grid.clone();
      trial.applyMask(candidate);
      trial.drawFormatBits(l, candidate);
      const penalty = trial.penalty();
      if (penalty < best) {
        best = penalty;
        mask = candidate;
      }
    }
  }
  grid.applyMask(mask);
  grid.drawFormatBits(l, mask);
  const { size, modules } = grid;
  return {
    size,
    version,
    mask,
    level,
    modules,
    dark: (x, y) => x >= 0 && y >= 0 && x < size && y < size && modules[y * size + x] === 1,
  };
}

const SVG = 'http://www.w3.org/2000/svg';

/**
 * The code as an <svg> (one <path> of unit squares, a 4-module quiet zone, crisp edges), sized by
 * CSS (class `qr`). `options.label` is its accessible name; other options go to encodeQR.
 */
export function qrSVG(text, options = {}) {
  const code = encodeQR(text, options.level || 'M', options);
  const quiet = 4;
  const extent = code.size + quiet * 2;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${extent} ${extent}`);
  svg.setAttribute('class', 'qr');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', options.label || 'QR code');
  svg.setAttribute('shape-rendering', 'crispEdges');
  svg.dataset.version = String(code.version);
  const background = document.createElementNS(SVG, 'rect');
  background.setAttribute('width', String(extent));
  background.setAttribute('height', String(extent));
  background.setAttribute('fill', '#fff');
  svg.appendChild(background);
  const parts = [];
  for (let y = 0; y < code.size; y++) {
    for (let x = 0; x < code.size; x++) {
      if (!code.dark(x, y)) continue;
      let run = 1;
      while (code.dark(x + run, y)) run++;
      parts.push(`M${x + quiet} ${y + quiet}h${run}v1h-${run}z`);
      x += run - 1;
    }
  }
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', parts.join(''));
  path.setAttribute('fill', '#000');
  svg.appendChild(path);
  return svg;
}
