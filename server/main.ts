import { createApp } from './app';
import { ConfigError, loadConfig } from './config';
import { exitOnSignals, surviveDatabaseOutages } from './process';

/** Entry point: `node --import tsx server/main.ts` (npm start) or `tsx watch server/main.ts` (npm run dev). */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Lectio cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }

  /** Connections the kernel holds for the server before it accepts them (see the listen call). */
  const LISTEN_BACKLOG = 4096;

  const app = await createApp(config);
  surviveDatabaseOutages(app.log);
  try {
    // Connections not yet accepted wait in the kernel's queue: Node's 511 overflows when a crowd of
    // players (re)connects at once and the dropped ones retry after 1, 3, 7 s. The kernel caps it
    // at net.core.somaxconn (4096 on current Linux).
    await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  } catch (error) {
    await app.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(`Lectio cannot start: port ${config.port} is already in use; set PORT to a free port`);
      process.exit(1);
    }
    throw error;
  }
  console.log(`Lectio is running at http://localhost:${config.port}`);

  exitOnSignals(
    app.log,
    'shutting down: refusing new requests, handing running jobs back, letting in-flight requests finish',
    async () => {
      // In-flight requests get the grace period; connections still open after it are cut.
      const cut = setTimeout(() => app.server.closeAllConnections(), config.shutdownGraceSeconds * 1000);
      cut.unref();
      await app.close();
      clearTimeout(cut);
    },
    config.shutdownGraceSeconds,
  );
}

main().catch((error: unknown) => {
  console.error('Lectio failed to start:', error);
  process.exit(1);
});
