import { mkdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One mail as the receiver parsed it (mailparser): what a mail client would show. */
export type ReceivedMail = {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Every http(s) link in the plain-text part, in order. */
  links: string[];
  receivedAt: Date;
};

export type MailReceiver = {
  /** `smtp://127.0.0.1:<port>`: what SMTP_URL is set to. */
  url: string;
  port: number;
  /** Every mail received so far, oldest first. */
  mails: readonly ReceivedMail[];
  /** The first mail (received already or later) that `matches`; rejects after `timeoutMs`. */
  waitForMail: (matches: (mail: ReceivedMail) => boolean, timeoutMs?: number) => Promise<ReceivedMail>;
  close: () => Promise<void>;
};

// Linear: one character class, bounded by whitespace or the characters that end a link in text.
const LINK_PATTERN = /https?:\/\/[^\s<>"]+/g;

/**
 * A local SMTP server that keeps what it receives: tests point the console's SMTP_URL at it and read the
 * real mails (headers, both parts, links), and `npm run demo` runs one that also writes each mail to
 * `directory` as a `.eml` and a `.txt` file. Loopback only, no TLS, any sender, any recipient.
 */
export async function startMailReceiver(
  options: {
    port?: number;
    host?: string;
    directory?: string;
    onMail?: (mail: ReceivedMail) => void;
    /** Holds each mail's acceptance back this long: a slow mail server, for specs about timing. */
    delayMs?: number;
  } = {},
): Promise<MailReceiver> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<{
    matches: (mail: ReceivedMail) => boolean;
    resolve: (mail: ReceivedMail) => void;
  }>();
  if (options.directory !== undefined) await mkdir(options.directory, { recursive: true });

  const keep = async (raw: Buffer): Promise<void> => {
    const parsed = await simpleParser(raw);
    const text = parsed.text ?? '';
    const mail: ReceivedMail = {
      from: parsed.from?.text ?? '',
      to: addressesOf(parsed.to),
      subject: parsed.subject ?? '',
      text,
      html: typeof parsed.html === 'string' ? parsed.html : '',
      links: text.match(LINK_PATTERN) ?? [],
      receivedAt: new Date(),
    };
    mails.push(mail);
    if (options.directory !== undefined) {
      const name = `${mail.receivedAt.toISOString().replace(/[:.]/g, '-')}-${mails.length}`;
      await writeFile(join(options.directory, `${name}.eml`), raw);
      await writeFile(
        join(options.directory, `${name}.txt`),
        `From: ${mail.from}\nTo: ${mail.to.join(', ')}\nSubject: ${mail.subject}\n\n${text}`,
      );
    }
    options.onMail?.(mail);
    for (const waiter of waiters)
      if (waiter.matches(mail)) {
        waiters.delete(waiter);
        waiter.resolve(mail);
      }
  };

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 1024 * 1024,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const delayed = new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0));
        delayed
          .then(() => keep(Buffer.concat(chunks)))
          .then(
            () => callback(),
            (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
          );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    waitForMail: (matches, timeoutMs = 5_000) => {
      const already = mails.find(matches);
      if (already !== undefined) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const waiter = {
          matches,
          resolve: (mail: ReceivedMail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching mail within ${timeoutMs} ms (${mails.length} received)`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function addressesOf(field: AddressObject | AddressObject[] | undefined): string[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return objects.flatMap((object) => object.value.map((entry) => entry.address ?? '')).filter(Boolean);
}
