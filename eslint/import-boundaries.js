// Imports point one way: shared (api, components, styles, voice, mocks) -> features -> screens -> app.
// Features never import each other, screens never import each other, and the SPA (src/) and the
// server (server/) never import each other's code.
import { dirname, relative, resolve, sep } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const shared = new Set(['api', 'components', 'styles', 'voice', 'mocks', 'lib']);
const rank = { features: 1, screens: 2, app: 3 };
// Units of these layers are their sub-folders (one feature, one screen); the app shell is one unit.
const unitsAreFolders = new Set(['features', 'screens']);

/** Where a file sits: { area: 'src' | 'server' | 'other', layer, unit } */
function locate(file) {
  const parts = relative(root, file).split(sep);
  if (parts[0] === 'server') return { area: 'server' };
  if (parts[0] !== 'src') return { area: 'other' };
  const top = parts[1] ?? '';
  // src/main.tsx and friends: the entry point sits above everything.
  if (parts.length === 2) return { area: 'src', layer: 4, unit: 'entry' };
  if (shared.has(top)) return { area: 'src', layer: 0, unit: top };
  if (top in rank) return { area: 'src', layer: rank[top], unit: unitsAreFolders.has(top) ? `${top}/${parts[2] ?? ''}` : top };
  return { area: 'src', layer: 0, unit: top };
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Keep imports flowing one way between the layers of the SPA and out of the server.' },
    schema: [],
  },
  create(context) {
    const from = locate(context.filename);
    if (from.area === 'other') return {};
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const to = locate(resolve(dirname(context.filename), source));
      if (from.area !== to.area && to.area !== 'other') {
        context.report({ node, message: `${from.area}/ must not import from ${to.area}/ (${source}).` });
        return;
      }
      if (from.area !== 'src' || to.area !== 'src') return;
      if (to.layer > from.layer) {
        context.report({ node, message: `Imports flow shared -> features -> screens -> app: ${from.unit} must not import ${to.unit}.` });
      } else if (to.layer === from.layer && from.layer > 0 && to.unit !== from.unit) {
        context.report({ node, message: `${from.unit} must not import another ${from.unit.split('/')[0].replace(/s$/, '')} (${to.unit}); move the shared part down a layer.` });
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
