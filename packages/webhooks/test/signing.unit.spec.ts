import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { changePayload, testPayload } from '../src/payloads.js';
import { openSecret, sealSecret } from '../src/secret-box.js';
import { generateMessageId, generateSecret, signature, signedHeaders } from '../src/signing.js';
import { WHOLE_DOCTOR } from './doctor.fixture.js';

const DOCTOR = { ...WHOLE_DOCTOR, id: 'p-1' };

describe('Standard Webhooks signing', () => {
  it('makes whsec_ secrets of 32 random bytes and msg_ ids', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateSecret()).not.toBe(secret);
    expect(generateMessageId()).toMatch(/^msg_[\w-]{22}$/);
  });

  it('signs so that the independent standardwebhooks library verifies it', () => {
    const secret = generateSecret();
    const body = changePayload({
      placeId: 'p-1',
      country: 'it',
      version: 7,
      changedAt: '2026-11-27T10:00:00.000Z',
      doctor: DOCTOR,
    });
    const headers = signedHeaders(secret, 'msg_abc', body, new Date());
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('fails verification when the body, the timestamp, the id or the secret differ', () => {
    const secret = generateSecret();
    const body = testPayload('6f1c0a52-1111-4222-8333-444455556666', new Date());
    const headers = signedHeaders(secret, 'msg_abc', body, new Date());
    const webhook = new Webhook(secret);
    expect(() => webhook.verify(`${body} `, headers)).toThrow();
    const later = String(Number(headers['webhook-timestamp']) + 1);
    expect(() => webhook.verify(body, { ...headers, 'webhook-timestamp': later })).toThrow();
    expect(() => webhook.verify(body, { ...headers, 'webhook-id': 'msg_other' })).toThrow();
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow();
    // A signature too old for the receiver's tolerance (5 minutes) is refused even when it matches.
    const old = signedHeaders(secret, 'msg_abc', body, new Date(Date.now() - 10 * 60_000));
    expect(() => webhook.verify(body, old)).toThrow();
  });

  it('computes the documented HMAC over "<id>.<timestamp>.<body>"', () => {
    const secret = `whsec_${Buffer.alloc(32).toString('base64')}`;
    // HMAC-SHA256(32 zero bytes, "msg_1.1700000000.{}"), computed with Python's hmac module.
    expect(signature(secret, 'msg_1', 1_700_000_000, '{}')).toBe(
      'v1,LzeNxZHo3O8fwpFJpLh/0B99ugILNFJw+/9lTgx0APs=',
    );
    expect(new Webhook(secret).sign('msg_1', new Date(1_700_000_000_000), '{}')).toBe(
      signature(secret, 'msg_1', 1_700_000_000, '{}'),
    );
    expect(signedHeaders(secret, 'msg_1', '{}', new Date(1_700_000_000_999))).toEqual({
      'webhook-id': 'msg_1',
      'webhook-timestamp': '1700000000',
      'webhook-signature': signature(secret, 'msg_1', 1_700_000_000, '{}'),
    });
  });
});

describe('payloads', () => {
  it('tells upserts and deletes apart, with the version receivers order by', () => {
    const upsert = JSON.parse(
      changePayload({
        placeId: 'p-1',
        country: 'de',
        version: 3,
        changedAt: '2026-11-27T10:00:00.000Z',
        doctor: DOCTOR,
      }),
    ) as unknown;
    expect(upsert).toEqual({
      type: 'doctor.upserted',
      timestamp: '2026-11-27T10:00:00.000Z',
      data: { id: 'p-1', country: 'de', version: 3, changedAt: '2026-11-27T10:00:00.000Z', doctor: DOCTOR },
    });
    const removal = JSON.parse(
      changePayload({
        placeId: 'p-1',
        country: 'de',
        version: 4,
        changedAt: '2026-11-27T11:00:00.000Z',
        doctor: null,
      }),
    ) as unknown;
    expect(removal).toMatchObject({ type: 'doctor.deleted', data: { id: 'p-1', version: 4, doctor: null } });
    expect(JSON.parse(testPayload('e-1', new Date('2026-11-27T12:00:00.000Z'))) as unknown).toEqual({
      type: 'webhook.test',
      timestamp: '2026-11-27T12:00:00.000Z',
      data: { endpointId: 'e-1' },
    });
  });
});

describe('secrets at rest', () => {
  const key = 'a-webhook-secret-key-of-thirty-two-characters';

  it('seals with AES-256-GCM: opens with the key, never shows the secret, refuses another key or a change', () => {
    const secret = generateSecret();
    const sealed = sealSecret(secret, key);
    expect(sealed.toString('latin1')).not.toContain(secret);
    expect(sealed.toString('base64')).not.toContain(secret.slice(6, 30));
    expect(openSecret(sealed, key)).toBe(secret);
    expect(sealSecret(secret, key).equals(sealed)).toBe(false); // a fresh IV each time
    expect(() => openSecret(sealed, `${key}-other`)).toThrow();
    const altered = Buffer.from(sealed);
    altered[altered.length - 1] = (altered[altered.length - 1] ?? 0) ^ 1;
    expect(() => openSecret(altered, key)).toThrow();
  });
});
