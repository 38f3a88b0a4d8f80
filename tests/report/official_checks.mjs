// Holds checks.json files to the official MCP conformance suite's own result format, read from
// that suite's package (node/node_modules/@modelcontextprotocol/conformance and conformance-next),
// which ships no type declarations and no schema for its results: so from its code.
//   node official_checks.mjs RESULTS_DIR
// prints one JSON object: {statuses, members, reader: {PACKAGE: the suite's own results reader's
// verdict on RESULTS_DIR}, problems: [...]} and exits 0, or 1 when a problem was found.
// - statuses: the suite's status union, its severity table {FAILURE:3,WARNING:2,SUCCESS:1,INFO:1,SKIPPED:0}
//   (conformance-next), checked against every `status:` literal in both packages;
// - members: every member name a check literal in the packages carries (the literals with a
//   `timestamp:new Date().toISOString()`), required: those every such literal has;
// - reader: the function the suite's tier-check scores a results folder with (it globs
//   **/checks.json, counts SUCCESS and FAILURE per scenario, and counts a file it cannot read as a
//   failure), taken out of the bundle and run on RESULTS_DIR.
import { existsSync, globSync, readFileSync } from 'fs';
import path from 'path';
import { fileURLToPath } from 'url';

const here = path.dirname(fileURLToPath(import.meta.url));
const modules = path.join(here, '..', '..', 'node', 'node_modules', '@modelcontextprotocol');
const packages = ['conformance', 'conformance-next'];
const problems = [];
const bundles = {};
for (const p of packages) bundles[p] = readFileSync(path.join(modules, p, 'dist', 'index.js'), 'utf8');

// The status union.
const table = bundles['conformance-next'].match(/\{FAILURE:\d,WARNING:\d,SUCCESS:\d,INFO:\d,SKIPPED:\d\}/);
if (!table) throw new Error('the severity table is not in conformance-next');
const statuses = [...table[0].matchAll(/([A-Z]+):/g)].map((m) => m[1]);
for (const p of packages)
  for (const m of bundles[p].matchAll(/status:`([A-Z]+)`/g))
    if (!statuses.includes(m[1])) throw new Error(`${p} uses status ${m[1]}, not in ${statuses}`);

// The member names of a check, from every object literal that stamps a timestamp.
const stamp = 'timestamp:new Date().toISOString()';
const members = new Set();
let required = null;
for (const p of packages) {
  const text = bundles[p];
  for (let at = text.indexOf(stamp); at >= 0; at = text.indexOf(stamp, at + 1)) {
    // the enclosing literal: back to its unmatched '{', forward to its unmatched '}'
    let depth = 0, start = at;
    for (; start > 0; --start) {
      const c = text[start - 1];
      if (c === '}' || c === ']' || c === ')') ++depth;
      else if (c === '{' || c === '[' || c === '(') { if (depth === 0) break; --depth; }
    }
    if (text[start - 1] !== '{') continue;
    let end = at; depth = 0;
    for (; end < text.length; ++end) {
      const c = text[end];
      if (c === '{' || c === '[' || c === '(') ++depth;
      else if (c === '}' || c === ']' || c === ')') { if (depth === 0) break; --depth; }
    }
    // top-level keys only
    const body = text.slice(start, end);
    const keys = new Set();
    depth = 0; let inString = false;
    for (let i = 0; i < body.length; ++i) {
      const c = body[i];
      if (c === '`') inString = !inString;
      if (inString) continue;
      if (c === '{' || c === '[' || c === '(') ++depth;
      else if (c === '}' || c === ']' || c === ')') --depth;
      else if (depth === 0 && (i === 0 || body[i - 1] === ',')) {
        const k = body.slice(i).match(/^([A-Za-z_$][\w$]*):/) || body.slice(i).match(/^\.\.\./);
        if (k && k[1]) keys.add(k[1]);
        else keys.add('...');
      }
    }
    if (!keys.has('status') || keys.has('...')) continue;  // not a check, or one spread from another
    for (const k of keys) members.add(k);
    required = required ? new Set([...required].filter((k) => keys.has(k))) : keys;
  }
}
const memberList = [...members].sort();
const requiredList = [...required].sort();

// The suite's own reader of a results folder, out of each bundle, its fs and path imports bound.
function reader(text) {
  const fn = text.match(/function ([\w$]+)\(e\)\{if\(![\w$]+\(e\)\)return\{status:`fail`,pass_rate:0,passed:0,failed:0,total:0,details:\[\]\};.*?details:t\}\}/);
  if (!fn) throw new Error('the results reader is not in the bundle');
  const bindings = {};
  const fs = { existsSync, globSync, readFileSync };
  const fsImport = text.match(/import\{([^}]*)\}from"fs"/)[1];
  for (const m of fsImport.matchAll(/(\w+) as ([\w$]+)/g)) if (fs[m[1]]) bindings[m[2]] = fs[m[1]];
  const pathImport = text.match(/import [\w$]+,\{([^}]*)\}from"path"/)[1];
  for (const m of pathImport.matchAll(/(\w+) as ([\w$]+)/g)) bindings[m[2]] = path[m[1]];
  return new Function(...Object.keys(bindings), `return (${fn[0]})`)(...Object.values(bindings));
}

const dir = process.argv[2];
const results = {};
for (const p of packages) results[p] = reader(bundles[p])(dir);

// Every file, every entry, held to the members and statuses.
const files = globSync('**/checks.json', { cwd: dir });
if (files.length === 0) problems.push('no checks.json under ' + dir);
for (const file of files) {
  let checks;
  try { checks = JSON.parse(readFileSync(path.join(dir, file), 'utf8')); } catch (e) { problems.push(`${file}: ${e.message}`); continue; }
  if (!Array.isArray(checks)) { problems.push(`${file}: not an array of checks`); continue; }
  checks.forEach((c, i) => {
    const where = `${file}[${i}]`;
    if (typeof c !== 'object' || c === null || Array.isArray(c)) return problems.push(`${where}: not an object`);
    for (const k of requiredList) if (!(k in c)) problems.push(`${where}: no ${k}`);
    for (const k of Object.keys(c)) if (!members.has(k)) problems.push(`${where}: ${k} is no member of a check`);
    for (const k of ['id', 'name', 'description', 'timestamp', 'errorMessage'])
      if (k in c && typeof c[k] !== 'string') problems.push(`${where}: ${k} is not a string`);
    if (!statuses.includes(c.status)) problems.push(`${where}: status ${JSON.stringify(c.status)} is not one of ${statuses.join(', ')}`);
    if ('timestamp' in c && Number.isNaN(Date.parse(c.timestamp))) problems.push(`${where}: timestamp is no date`);
    if ('specReferences' in c) {
      if (!Array.isArray(c.specReferences)) problems.push(`${where}: specReferences is not an array`);
      else for (const r of c.specReferences) if (typeof r?.id !== 'string') problems.push(`${where}: a specReference has no id`);
    }
    if ('details' in c && (typeof c.details !== 'object' || Array.isArray(c.details))) problems.push(`${where}: details is not an object`);
  });
}
console.log(JSON.stringify({ statuses, members: memberList, required: requiredList, reader: results, problems }, null, 2));
process.exit(problems.length ? 1 : 0);
