import { createTransport } from 'nodemailer';
import type { MailContent } from './mail-templates.js';

/** Sends the console's mails (verification and password-reset links) over SMTP. */
export type Mailer = {
  send: (to: string, content: MailContent) => Promise<void>;
  close: () => void;
};

/**
 * nodemailer over the SMTP server of `smtpUrl` (config SMTP_URL: smtp:// or smtps://, credentials in the
 * URL). One pooled connection at most a few, so a burst of sign-ups does not open a connection each.
 * A mail's links carry single-use tokens: the message is never logged, here or by nodemailer.
 */
export function createSmtpMailer(options: { smtpUrl: string; from: string }): Mailer {
  const url = new URL(options.smtpUrl);
  const transport = createTransport({
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port === '' ? (url.protocol === 'smtps:' ? 465 : 587) : Number(url.port),
    secure: url.protocol === 'smtps:',
    ...(url.username === ''
      ? {}
      : { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }),
    pool: true,
    maxConnections: 3,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
    logger: false,
  });
  return {
    send: async (to, content) => {
      await transport.sendMail({
        from: options.from,
        to,
        subject: content.subject,
        text: content.text,
        html: content.html,
      });
    },
    close: () => transport.close(),
  };
}
