// The allowed arrows between the rooms of the repository (docs/architecture.md draws them):
// - SPA (src/): shared (api, components, styles, voice-transport, mocks, lib, entities) -> features
//   -> screens -> app. Features never import each other, screens never import each other.
// - The SPA and the server never import each other's code; both may import proto/, the voice
//   wire format they share, and proto/ imports neither.
// - Server domains (jobs, tts, audio, ...) never import the HTTP edge (routes/, http/) or the
//   composition root (app.ts, main.ts, worker.ts, backup.ts): the edge calls the domains, not the reverse.
// - Production code never imports the test kit (src/testing, server/testing, tests/) or bench/.
// - Production code never imports the msw mocks (src/mocks, the generated *.msw handlers with faker)
//   statically: only the demo mode's dynamic import() may load them, so they stay out of the bundle.
import { dirname, relative, resolve, sep } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const shared = new Set(['api', 'components', 'styles', 'voice-transport', 'mocks', 'lib', 'entities']);
const rank = { features: 1, screens: 2, app: 3 };
// Units of these layers are their sub-folders (one feature, one screen); the app shell is one unit.
const unitsAreFolders = new Set(['features', 'screens']);
/** Server folders (and top-level files) that form the HTTP edge or the composition root. */
const serverEdge = new Set(['routes', 'http', 'ops', 'app', 'main', 'worker', 'backup']);

const isTestFile = (parts) => /\.(test|stories|pact\.test|e2e\.test)\.[cm]?[jt]sx?$/.test(parts.at(-1) ?? '');

/** Where a file sits: { area, layer, unit, kit, production } */
function locate(file) {
  const parts = relative(root, file).split(sep);
  const top = parts[0];
  if (top === 'proto') return { area: 'proto', production: !isTestFile(parts) };
  if (top === 'bench') return { area: 'bench', kit: true };
  if (top === 'tests' || top === '.storybook') return { area: 'tests', kit: true };
  if (top === 'server') {
    // A sub-folder, or a top-level file by its name without extension (app, main, config, ...).
    const room = parts.length === 2 ? (parts[1] ?? '').replace(/\.[^.]+$/, '') : (parts[1] ?? '');
    const kit = room === 'testing';
    return { area: 'server', room, kit, production: !kit && !isTestFile(parts), edge: serverEdge.has(room) };
  }
  if (top !== 'src') return { area: 'other' };
  const second = parts[1] ?? '';
  const kit = second === 'testing';
  const production = !kit && !isTestFile(parts);
  // src/main.tsx and friends: the entry point sits above everything.
  if (parts.length === 2) return { area: 'src', layer: 4, unit: 'entry', production };
  if (kit) return { area: 'src', layer: 0, unit: 'testing', kit, production };
  if (shared.has(second)) return { area: 'src', layer: 0, unit: second, production };
  if (second in rank) {
    return {
      area: 'src',
      layer: rank[second],
      unit: unitsAreFolders.has(second) ? `${second}/${parts[2] ?? ''}` : second,
      production,
    };
  }
  return { area: 'src', layer: 0, unit: second, production };
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Keep imports flowing along the allowed arrows between the rooms of the repository.' },
    schema: [],
  },
  create(context) {
    const from = locate(context.filename);
    if (from.area === 'other') return {};
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const to = locate(resolve(dirname(context.filename), source));
      const report = (message) => context.report({ node, message });
      if (from.production && to.kit) {
        return report(
          `Production code must not import the test kit or benches (${source}); only tests, stories and benches may.`,
        );
      }
      const mocks = to.unit === 'mocks' || /\.msw(\.[cm]?[jt]sx?)?$/.test(source);
      if (from.production && from.unit !== 'mocks' && mocks && node.type !== 'ImportExpression') {
        return report(
          `Production code must not import the msw mocks (${source}) statically; load them with import() for the demo mode.`,
        );
      }
      if (from.area === 'proto' && to.area !== 'proto' && to.area !== 'other') {
        return report(`proto/ is shared by the SPA and the server and imports neither (${source}).`);
      }
      if (
        (from.area === 'src' || from.area === 'server') &&
        (to.area === 'src' || to.area === 'server') &&
        from.area !== to.area
      ) {
        return report(`${from.area}/ must not import from ${to.area}/ (${source}).`);
      }
      if (from.area === 'server' && to.area === 'server' && from.production && !from.edge && to.edge) {
        return report(
          `Server domains must not import the HTTP edge or the composition root: ${from.room} must not import ${to.room} (${source}).`,
        );
      }
      if (from.area !== 'src' || to.area !== 'src') return;
      if (to.layer > from.layer) {
        report(`Imports flow shared -> features -> screens -> app: ${from.unit} must not import ${to.unit}.`);
      } else if (to.layer === from.layer && from.layer > 0 && to.unit !== from.unit) {
        report(
          `${from.unit} must not import another ${from.unit.split('/')[0].replace(/s$/, '')} (${to.unit}); move the shared part down a layer.`,
        );
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};
