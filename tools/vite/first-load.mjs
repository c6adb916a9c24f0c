// Vite plugin (the app's production build): each measured route's first load in as few files as
// possible. Left to itself, the bundler cuts what the screens share into one small chunk per set
// of screens that use it: a dozen files for the home, each with its own imports, exports and gzip
// header, none compressed with the others. This puts the entry's modules in the entry chunk, and
// for each route (FIRST_LOAD_ROUTES) the modules its first screen imports statically in one chunk
// of its own; what both routes' screens import goes with the entry, since each route loads it
// anyway. A barrel (an index.ts that only passes modules on) counts for the names read from it,
// not for everything it lists. Other screens load these chunks too when they use a module in
// them (a signed-in screen has the shell's already). bench/bundle.mjs measures the same routes.
import path from 'node:path';
import { parseAst } from 'vite';

/** The lazy modules each route renders before its screen shows (besides the entry). */
export const FIRST_LOAD_ROUTES = [
  { name: 'signed-out', path: '/login', modules: ['src/screens/Login/Login.tsx'] },
  {
    name: 'signed-in',
    path: '/dashboard',
    modules: ['src/app/layout/SignedInShell.tsx', 'src/screens/Dashboard/Dashboard.tsx'],
  },
];

const ENTRY = 'entry';

/** Which group each module goes to, filled once the module graph is known. */
const membership = new Map();

/** Chunk groups: the entry's modules (with what the routes share), and one per route. */
export const firstLoadChunks = [ENTRY, ...FIRST_LOAD_ROUTES.map(({ name }) => name)].map((name) => ({
  name,
  test: (id) => membership.get(id) === name,
  // The groups hold exactly the modules chosen (by default a group pulls in what its modules import).
  includeDependenciesRecursively: false,
}));

export function firstLoadGroups({ root }) {
  return {
    name: 'lectio-first-load-chunks',
    apply: 'build',
    async buildEnd() {
      membership.clear();
      const modules = new Map();
      const nameOf = (node) => node.name ?? node.value;
      /**
       * How a module reads others: `edges`, each module it imports with the names it reads ('*':
       * all of it); and for a barrel (a module that only passes on what it imports, such as an
       * index.ts), where each of its exports comes from, so that a reader of one name pulls in
       * only the module behind it.
       */
      const read = async (id) => {
        if (modules.has(id)) return modules.get(id);
        const info = this.getModuleInfo(id);
        const found = { edges: [], forwards: new Map(), stars: [], barrel: false };
        modules.set(id, found);
        if (!info?.code || !/\.[cm]?[jt]sx?$/.test(id)) {
          for (const imported of info?.importedIds ?? []) found.edges.push({ id: imported, names: ['*'] });
          return found;
        }
        const resolve = async (source) => {
          const resolved = await this.resolve(source, id);
          return resolved && !resolved.external ? resolved.id : null;
        };
        const locals = new Map();
        let barrel = true;
        for (const node of parseAst(info.code, { lang: 'js' }).body) {
          if (node.type === 'ImportDeclaration') {
            const target = await resolve(node.source.value);
            if (!target) continue;
            const names = node.specifiers.map((spec) =>
              spec.type === 'ImportSpecifier'
                ? nameOf(spec.imported)
                : spec.type === 'ImportDefaultSpecifier'
                  ? 'default'
                  : '*',
            );
            found.edges.push({ id: target, names: names.length > 0 ? names : ['*'] });
            node.specifiers.forEach((spec, index) => locals.set(spec.local.name, { id: target, name: names[index] }));
          } else if (node.type === 'ExportNamedDeclaration' && node.source) {
            const target = await resolve(node.source.value);
            if (!target) continue;
            const names = node.specifiers.map((spec) => nameOf(spec.local));
            found.edges.push({ id: target, names });
            for (const spec of node.specifiers)
              found.forwards.set(nameOf(spec.exported), { id: target, name: nameOf(spec.local) });
          } else if (node.type === 'ExportNamedDeclaration' && !node.declaration) {
            for (const spec of node.specifiers) {
              const from = locals.get(nameOf(spec.local));
              if (from) found.forwards.set(nameOf(spec.exported), from);
              else barrel = false;
            }
          } else if (node.type === 'ExportAllDeclaration') {
            const target = await resolve(node.source.value);
            if (!target) continue;
            found.edges.push({ id: target, names: ['*'] });
            if (node.exported) found.forwards.set(nameOf(node.exported), { id: target, name: '*' });
            else found.stars.push(target);
          } else if (!(node.type === 'ExpressionStatement' && node.directive)) {
            // A directive such as "use client" does not count; any other statement does.
            barrel = false;
          }
        }
        found.barrel = barrel;
        // What the parse does not show (a CommonJS require, a plugin's own import) counts whole.
        const parsed = new Set(found.edges.map((edge) => edge.id));
        for (const imported of info.importedIds) {
          if (!parsed.has(imported)) found.edges.push({ id: imported, names: ['*'] });
        }
        return found;
      };

      /** Modules the given ones import statically, following a barrel only for the names read. */
      const closure = async (ids) => {
        const taken = new Map();
        const stack = ids.map((id) => ({ id, names: ['*'] }));
        while (stack.length > 0) {
          const { id, names } = stack.pop();
          const module = await read(id);
          const before = taken.get(id) ?? new Set();
          const fresh = module.barrel && !before.has('*') ? names.filter((name) => !before.has(name)) : [];
          if (taken.has(id) && fresh.length === 0) continue;
          taken.set(id, new Set([...before, ...names]));
          if (!module.barrel || fresh.includes('*')) {
            for (const edge of module.edges) stack.push(edge);
            continue;
          }
          for (const name of fresh) {
            const from = module.forwards.get(name);
            if (from) stack.push({ id: from.id, names: [from.name] });
            // `export *`: the modules behind it that export the name.
            else
              for (const star of module.stars) {
                if (this.getModuleInfo(star)?.exports.includes(name)) stack.push({ id: star, names: [name] });
              }
          }
        }
        return new Set(taken.keys());
      };

      // The app's build only (Storybook builds its own entries from the same config).
      const html = path.join(root, 'index.html');
      if (!this.getModuleInfo(html)?.isEntry) return;
      const entry = await closure([html]);
      for (const id of entry) membership.set(id, ENTRY);
      for (const route of FIRST_LOAD_ROUTES) {
        const ids = route.modules.map((module) => path.join(root, module));
        const missing = route.modules.filter((module, index) => !this.getModuleInfo(ids[index]));
        if (missing.length > 0)
          this.error(`FIRST_LOAD_ROUTES names modules the app does not have: ${missing.join(', ')}`);
        for (const id of await closure(ids)) {
          if (entry.has(id)) continue;
          // What both first screens need goes with the entry: each route loads it anyway.
          membership.set(id, membership.has(id) ? ENTRY : route.name);
        }
      }
    },
  };
}
