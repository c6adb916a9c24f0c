// Makes the embedded database's template (see the note in server/db/pglite.ts):
// an empty PGlite data directory, initialised once here so that a new database is unpacked in
// about 2 s and 300 MB instead of running initdb (about 12 s and 800 MB) on every first start.
// Run it after upgrading @electric-sql/pglite; server/db/pglite-template.test.ts fails until then.
// The bytes differ on every run (Postgres stamps a new system identifier), so this is not part of
// `npm run generate`; the stamp beside the template records the PGlite version it belongs to.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

const dir = fileURLToPath(new URL('../server/db/template/', import.meta.url));
const pg = await PGlite.create();
const version = (await pg.query('select version() as v')).rows[0].v;
const pglite = /PGlite ([0-9][^ )]*)/.exec(version)?.[1];
if (!pglite) throw new Error(`Cannot tell the PGlite version from "${version}"`);
const blob = await pg.dumpDataDir('gzip');
await pg.close();
writeFileSync(`${dir}pglite-data.tar.gz`, Buffer.from(await blob.arrayBuffer()));
writeFileSync(`${dir}pglite-data.json`, `${JSON.stringify({ pglite, postgres: version.split(' ')[1] }, null, 2)}\n`);
console.log(`Wrote server/db/template/pglite-data.tar.gz (${(blob.size / 1e6).toFixed(1)} MB) for PGlite ${pglite}.`);
