// Checks that a screenshot shows something: a PNG that decodes, with
// enough pixel variance and colours that it cannot be a blank page.
import { readFileSync } from 'node:fs';
import { PNG } from 'pngjs';

/**
 * pngStats decodes a PNG and returns its size, the standard deviation of
 * its luminance and the number of distinct (quantised) colours.
 */
export function pngStats(path) {
  const png = PNG.sync.read(readFileSync(path));
  const { width, height, data } = png;
  let sum = 0;
  let sumSq = 0;
  const colours = new Set();
  const n = width * height;
  for (let i = 0; i < data.length; i += 4) {
    const y = 0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2];
    sum += y;
    sumSq += y * y;
    colours.add(((data[i] >> 4) << 8) | ((data[i + 1] >> 4) << 4) | (data[i + 2] >> 4));
  }
  const mean = sum / n;
  return { width, height, stddev: Math.sqrt(Math.max(0, sumSq / n - mean * mean)), colours: colours.size };
}

/** assertNotBlank throws unless the screenshot has real content. */
export function assertNotBlank(path) {
  const s = pngStats(path);
  if (s.width < 300 || s.height < 300) throw new Error(`${path}: too small (${s.width}x${s.height})`);
  if (s.stddev < 8) throw new Error(`${path}: looks blank (luminance stddev ${s.stddev.toFixed(2)})`);
  if (s.colours < 16) throw new Error(`${path}: looks blank (${s.colours} colours)`);
  return s;
}
