import { randomBytes } from 'node:crypto';

/** A short random lowercase name, valid as a database, Redis prefix and Elasticsearch index prefix. */
export function uniqueName(label: string): string {
  const safeLabel = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 20);
  return `t_${safeLabel}_${randomBytes(5).toString('hex')}`;
}

export const TEMPLATE_DATABASE = 'doctor_directory_test_template';
export const TEST_DATABASE_PREFIX = 'dirtest_';
