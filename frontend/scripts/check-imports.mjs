// Fails on an import cycle among the UI's modules, in the web build and
// in the desktop build (the @transport alias names http.ts or wails.ts,
// as vite.config.ts picks), and on Wails' generated code (wailsjs/)
// imported anywhere but src/desktop/bindings.ts, the one boundary where
// its types meet the API's. Type-only imports are erased at build time,
// so they cannot make a cycle and are not counted. Run by `npm test`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const boundary = join(src, 'desktop', 'bindings.ts');
const transports = { web: join(src, 'api', 'http.ts'), desktop: join(src, 'api', 'wails.ts') };

/** sources lists the non-test .ts and .tsx files under dir. */
function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [p] : [];
  });
}

/** specifiers returns the modules file imports or re-exports at run time. */
function specifiers(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const out = [];
  const from = /^\s*(import|export)\s+(type\s+)?[^'";]*?\bfrom\s+['"]([^'"]+)['"]/gm;
  for (const m of code.matchAll(from)) if (!m[2]) out.push(m[3]);
  for (const m of code.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) out.push(m[1]);
  return out;
}

function resolveSpec(from, spec, transport) {
  if (spec === '@transport') return transport;
  if (!spec.startsWith('.')) return null; // a package
  const base = resolve(dirname(from), spec);
  for (const p of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(p) && statSync(p).isFile()) return p;
  }
  return null;
}

/** cycles returns each import cycle once, as a list of files. */
function cycles(graph) {
  const found = [];
  const state = new Map(); // 1: on the current path, 2: done
  const path = [];
  const visit = (f) => {
    state.set(f, 1);
    path.push(f);
    for (const g of graph.get(f) ?? []) {
      if (state.get(g) === 1) found.push([...path.slice(path.indexOf(g)), g]);
      else if (!state.has(g)) visit(g);
    }
    path.pop();
    state.set(f, 2);
  };
  for (const f of [...graph.keys()].sort()) if (!state.has(f)) visit(f);
  return found;
}

function main() {
  const files = sources(src);
  const problems = [];
  const rel = (f) => relative(root, f);
  for (const [build, transport] of Object.entries(transports)) {
    const graph = new Map();
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      const deps = [];
      for (const spec of specifiers(text)) {
        if (build === 'web' && spec.includes('wailsjs/') && f !== boundary) {
          problems.push(`${rel(f)} imports ${spec}: only ${rel(boundary)} may import Wails' generated code`);
        }
        const to = resolveSpec(f, spec, transport);
        if (to && to.startsWith(src)) deps.push(to);
      }
      graph.set(f, deps);
    }
    for (const c of cycles(graph)) problems.push(`import cycle in the ${build} build: ${c.map(rel).join(' → ')}`);
  }
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  console.log(`imports: no cycle, wailsjs/ only from ${rel(boundary)} (${files.length} modules)`);
}

main();
