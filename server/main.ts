import { createApp } from './app';
import { ConfigError, loadConfig } from './config';

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

  const app = await createApp(config);
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(`Lectio cannot start: port ${config.port} is already in use; set PORT to a free port`);
      process.exit(1);
    }
    throw error;
  }
  console.log(`Lectio is running at http://localhost:${config.port}`);

  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Error while shutting down:', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  console.error('Lectio failed to start:', error);
  process.exit(1);
});
