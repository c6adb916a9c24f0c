/** What the SQL of the jobs table shares. */

/** An unfinished job. */
export const ACTIVE = `status IN ('PENDING', 'PROCESSING')`;

export const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
