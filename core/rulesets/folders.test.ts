// A ruleset is its own folders plus one registry line (issue 29): product code outside `core/rulesets/<id>/` and
// `renderer/src/rulesets/<id>/` must not name a ruleset id, nor import from one ruleset's folder. Tests, fixtures, the
// end-to-end specs, benchmarks and scripts may. The ids come from the registry, so this file names none.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULESETS } from './registry.ts';

const root = join(import.meta.dirname, '../..');
const PRODUCT = ['core', 'server', 'db', 'electron', 'renderer/src'];
const ids = RULESETS.map((r) => r.id as string);
const folders = [...ids.map((id) => `core/rulesets/${id}/`), ...ids.map((id) => `renderer/src/rulesets/${id}/`)];
/** The registry is the one place that names every ruleset. */
const REGISTRY = ['core/rulesets/registry.ts'];

function isProduct(path: string): boolean {
  if (!/\.(ts|svelte)$/.test(path) || /\.test\.ts$/.test(path) || path.endsWith('.d.ts')) return false;
  if (path.startsWith('db/fixtures/') || path.startsWith('server/testing/') || path.includes('/fixtures')) return false;
  return !folders.some((folder) => path.startsWith(folder)) && !REGISTRY.includes(path);
}

function walk(dir: string, found: string[] = []): string[] {
  for (const name of readdirSync(join(root, dir))) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = `${dir}/${name}`;
    if (statSync(join(root, path)).isDirectory()) walk(path, found);
    else found.push(path);
  }
  return found;
}

/** The code without its comments: a comment may name a ruleset as an example. */
function withoutComments(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

const escaped = ids.map((id) => id.replace(/[-]/g, '\\-'));
/**
 * A string equal to an id ('enigma'), a path into one ruleset's folder ('../rulesets/enigma/…'), or an id as an
 * object's key ({ teams: … }).
 */
const naming = new RegExp(`(['"\`])(?:${escaped.join('|')})\\1|rulesets/(?:${escaped.join('|')})/|(?<=[{,]\\s*)(?:${escaped.filter((id) => !id.includes('-')).join('|')})(?=\\s*:)`, 'g');

function offenders(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const top of PRODUCT) {
    for (const path of walk(top)) {
      if (!isProduct(path)) continue;
      const hits = withoutComments(readFileSync(join(root, path), 'utf8')).match(naming)?.length ?? 0;
      if (hits) counts[path.split(sep).join('/')] = hits;
    }
  }
  return counts;
}

describe('a ruleset is its own folders', () => {
  it('product code outside the ruleset folders names no ruleset id and imports nothing from one', () => {
    expect(offenders(), 'files that name a ruleset id outside its folder: ask the ruleset instead').toEqual({});
  });

  it('finds what it looks for', () => {
    const sample = `import x from '../rulesets/${ids[0]}/panel.ts';\nconst a = '${ids[1]}'; // '${ids[2]}' in a comment\n/* "${ids[3]}" */ const b = "${ids[4]}-like";\nconst c = { x: 1, ${ids[4]}: 2 };`;
    expect(withoutComments(sample).match(naming)).toEqual([`rulesets/${ids[0]}/`, `'${ids[1]}'`, ids[4]]);
    expect(isProduct(`renderer/src/rulesets/${ids[0]}/Panel.svelte`)).toBe(false);
    expect(isProduct('renderer/src/screens/EncounterRunner.svelte')).toBe(true);
    expect(isProduct('server/handlers/encounters.test.ts')).toBe(false);
  });
});
