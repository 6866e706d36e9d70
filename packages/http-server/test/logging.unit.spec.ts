import { describe, expect, it } from 'vitest';
import { generateApiKey } from '@directory/domain';
import { sanitizeUrl } from '../src/logging.js';

const secret = generateApiKey(new Uint8Array(32).fill(9)).secret;
const testSecret = generateApiKey(new Uint8Array(32).fill(9), 'test').secret;

describe('sanitizeUrl (what request logs show)', () => {
  it('keeps ordinary URLs readable', () => {
    expect(sanitizeUrl('/api/v1/doctors?country=de&q=praxis&limit=5')).toBe(
      '/api/v1/doctors?country=de&q=praxis&limit=5',
    );
    expect(sanitizeUrl('/api/v1/key')).toBe('/api/v1/key');
  });

  it('hides the value of key-like parameters and any secret, even percent-encoded', () => {
    for (const url of [
      `/api/v1/doctors?country=de&api_key=${secret}`,
      `/api/v1/doctors?country=de&token=abc&x=${secret}`,
      `/api/v1/doctors?${secret}`,
      `/api/v1/doctors?${secret}=1`,
      `/api/v1/doctors?q=${encodeURIComponent(secret).replace(/_/g, '%5F')}`,
      `/api/v1/doctors/${secret}`,
      `/api/v1/doctors/${secret.replace(/_/g, '%5F')}?country=de`,
    ]) {
      const logged = sanitizeUrl(url);
      expect(logged).not.toContain(secret.slice(8));
      expect(logged).toContain('[redacted]');
    }
    expect(sanitizeUrl('/api/v1/doctors?apiKey=whatever')).toBe('/api/v1/doctors?apiKey=[redacted]');
  });

  it('hides a sandbox (dk_test_) secret the same way', () => {
    for (const url of [
      `/api/v1/doctors?q=${testSecret}`,
      `/api/v1/doctors?${testSecret}=1`,
      `/api/v1/doctors/${testSecret}`,
    ]) {
      const logged = sanitizeUrl(url);
      expect(logged).not.toContain(testSecret.slice(8));
      expect(logged).toContain('[redacted]');
    }
  });
});
