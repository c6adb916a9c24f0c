import { ConfigError, loadConfig } from './config';
import { BackupError, backupInstance, restoreInstance } from './ops/backup';

/**
 * `npm run backup -- DIR` and `npm run restore -- DIR`: one instance's database and stored files
 * into or out of DIR, with the same configuration (environment variables) as the server.
 */
async function main(): Promise<void> {
  const [command, dir] = process.argv.slice(2);
  if ((command !== 'backup' && command !== 'restore') || dir === undefined || dir === '') {
    console.error('Usage: npm run backup -- DIR   |   npm run restore -- DIR');
    process.exit(2);
  }
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Lectio ${command} cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const log = (line: string) => console.log(`  ${line}`);
  try {
    if (command === 'backup') {
      console.log(`Backing up to ${dir}`);
      await backupInstance(config, dir, log);
      console.log('Backup complete.');
    } else {
      console.log(`Restoring from ${dir}`);
      await restoreInstance(config, dir, log);
      console.log('Restore complete: start the server as usual.');
    }
  } catch (error) {
    if (error instanceof BackupError) {
      console.error(`Lectio ${command} failed: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

main().catch((error: unknown) => {
  console.error('Lectio backup failed:', error);
  process.exit(1);
});
