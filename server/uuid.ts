/**
 * The one spelling of a UUID (8-4-4-4-12 hexadecimal digits): the ids of users, jobs and rows, and
 * the random part of temporary file names. A string that does not match can never name a row, so
 * lookups answer "not found" without asking the database (which would refuse it as a uuid).
 */
export const UUID_PATTERN = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

const UUID = new RegExp(`^${UUID_PATTERN}$`);

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
