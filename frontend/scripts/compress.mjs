// Writes NAME.gz and NAME.br beside each text file of dist/ after the
// Vite build, at the best levels, so the dashboard serves compressed
// files without compressing per request. The desktop build skips it: its
// window reads the files from memory, never over a network.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
const compressible = /\.(js|mjs|css|html|svg|json|txt|map)$/;
const minBytes = 1024; // smaller files gain too little to be worth a request's negotiation

if (process.env.VITE_TARGET === 'wails') {
  process.exit(0);
}

let before = 0;
let afterBr = 0;
let count = 0;
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      walk(path);
      continue;
    }
    if (!compressible.test(name)) continue;
    const raw = readFileSync(path);
    if (raw.length < minBytes) continue;
    const gz = gzipSync(raw, { level: 9 });
    const br = brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    });
    // A form no smaller than the file is useless; the server then sends the file.
    if (gz.length < raw.length) writeFileSync(path + '.gz', gz);
    if (br.length < raw.length) writeFileSync(path + '.br', br);
    before += raw.length;
    afterBr += Math.min(br.length, raw.length);
    count++;
  }
};
walk(dist);
console.log(`precompressed ${count} files: ${(before / 1024).toFixed(0)} KiB -> ${(afterBr / 1024).toFixed(0)} KiB brotli`);
