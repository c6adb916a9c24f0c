/**
 * The uploaded_files table's repository: the ONLY code that reads or writes `uploaded_files` (who
 * uploaded each file, so only they can use or delete its key, and its size for the storage quota).
 */
import type { DbExecutor } from '../../db/types';

/** The uploaded_files table's queries on one executor (the database, or one transaction). */
export function uploadedFilesTable(x: DbExecutor) {
  return {
    async insert(fileKey: string, userId: string, filename: string, sizeBytes: number): Promise<void> {
      await x.query('INSERT INTO uploaded_files (file_key, user_id, filename, size_bytes) VALUES ($1, $2, $3, $4)', [
        fileKey,
        userId,
        filename,
        sizeBytes,
      ]);
    },

    async remove(fileKey: string): Promise<void> {
      await x.query('DELETE FROM uploaded_files WHERE file_key = $1', [fileKey]);
    },

    /** The uploader of `fileKey`; null when no upload has that key. */
    async owner(fileKey: string): Promise<string | null> {
      const { rows } = await x.query<{ user_id: string }>('SELECT user_id FROM uploaded_files WHERE file_key = $1', [
        fileKey,
      ]);
      return rows[0]?.user_id ?? null;
    },

    /** The keys of the user's uploads: what deleting the account removes from storage. */
    async keysOf(userId: string): Promise<string[]> {
      const { rows } = await x.query<{ file_key: string }>('SELECT file_key FROM uploaded_files WHERE user_id = $1', [
        userId,
      ]);
      return rows.map((r) => r.file_key);
    },

    /** Bytes the user's uploads hold (the storage quota). */
    async bytesHeld(userId: string): Promise<number> {
      const { rows } = await x.query<{ used: string | number }>(
        'SELECT COALESCE(sum(size_bytes), 0) AS used FROM uploaded_files WHERE user_id = $1',
        [userId],
      );
      return Number(rows[0]?.used ?? 0);
    },
  };
}
