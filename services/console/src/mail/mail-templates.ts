import { html, type SafeHtml } from '../pages/html.js';
import { PRODUCT_NAME } from '../pages/layout.js';

/** A mail's subject and its two parts; the plain-text part carries every link as a whole line. */
export type MailContent = { subject: string; text: string; html: string };

/** A small HTML mail: every value goes through the escaping `html` template, like the pages. */
function htmlMail(title: string, body: SafeHtml): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>${title}</title>
      </head>
      <body style="font-family: system-ui, sans-serif; color: #172033; line-height: 1.5">
        <h1 style="font-size: 1.3rem">${title}</h1>
        ${body}
        <p style="color: #5b6478; font-size: .85rem">${PRODUCT_NAME} Console</p>
      </body>
    </html>`.value;
}

function button(link: string, label: string): SafeHtml {
  return html`<p>
      <a
        href="${link}"
        style="display: inline-block; background: #0b6bcb; color: #fff; padding: .55rem 1rem; border-radius: .5rem; text-decoration: none; font-weight: 600"
        >${label}</a
      >
    </p>
    <p style="font-size: .85rem">Or open this address: <br /><a href="${link}">${link}</a></p>`;
}

/** The link that proves the account holder reads this address (sent at sign-up and on request). */
export function verificationMail(options: { email: string; link: string; validHours: number }): MailContent {
  const title = `Confirm your e-mail address`;
  return {
    subject: `${PRODUCT_NAME}: confirm your e-mail address`,
    text: [
      `Someone (we hope you) created a ${PRODUCT_NAME} Console account for ${options.email}.`,
      '',
      'Open this link to confirm the address; live API keys and webhooks need it:',
      '',
      options.link,
      '',
      `The link works once, for ${options.validHours} hours. If you did not sign up, ignore this mail: nothing happens.`,
      '',
    ].join('\n'),
    html: htmlMail(
      title,
      html`<p>
          Someone (we hope you) created a ${PRODUCT_NAME} Console account for
          <strong>${options.email}</strong>.
        </p>
        <p>Confirm the address to create live API keys and webhooks.</p>
        ${button(options.link, 'Confirm my address')}
        <p>
          The link works once, for ${options.validHours} hours. If you did not sign up, ignore this mail:
          nothing happens.
        </p>`,
    ),
  };
}

/** The link that lets the holder of the address choose a new password. */
export function passwordResetMail(options: { link: string; validMinutes: number }): MailContent {
  const title = 'Choose a new password';
  return {
    subject: `${PRODUCT_NAME}: reset your password`,
    text: [
      `Someone asked to reset the password of the ${PRODUCT_NAME} Console account of this address.`,
      '',
      'Open this link to choose a new password:',
      '',
      options.link,
      '',
      `The link works once, for ${options.validMinutes} minutes. Choosing a new password signs out every browser signed in to the account.`,
      'If you did not ask for this, ignore this mail: your password stays as it is.',
      '',
    ].join('\n'),
    html: htmlMail(
      title,
      html`<p>Someone asked to reset the password of the ${PRODUCT_NAME} Console account of this address.</p>
        ${button(options.link, 'Choose a new password')}
        <p>
          The link works once, for ${options.validMinutes} minutes. Choosing a new password signs out every
          browser signed in to the account.
        </p>
        <p>If you did not ask for this, ignore this mail: your password stays as it is.</p>`,
    ),
  };
}

/** Told after every password change or reset, so a change the holder did not make does not go unseen. */
export function passwordChangedMail(options: { resetLink: string }): MailContent {
  const title = 'Your password was changed';
  return {
    subject: `${PRODUCT_NAME}: your password was changed`,
    text: [
      `The password of your ${PRODUCT_NAME} Console account was just changed, and every other browser signed out.`,
      '',
      'If that was not you, choose a new password now:',
      '',
      options.resetLink,
      '',
    ].join('\n'),
    html: htmlMail(
      title,
      html`<p>
          The password of your ${PRODUCT_NAME} Console account was just changed, and every other browser
          signed out.
        </p>
        <p>If that was not you, choose a new password now:</p>
        ${button(options.resetLink, 'Reset my password')}`,
    ),
  };
}

/** The confirmation that the account of this address is deleted (the last mail it gets from us). */
export function accountDeletedMail(options: { keys: number; webhooks: number }): MailContent {
  const title = 'Your account is deleted';
  const what = `${options.keys} API key(s) revoked and ${options.webhooks} webhook endpoint(s) removed`;
  return {
    subject: `${PRODUCT_NAME}: your account is deleted`,
    text: [
      `Your ${PRODUCT_NAME} Console account was deleted at your request: ${what}.`,
      'Your e-mail address, password and sessions are erased; we keep only anonymous request counts.',
      '',
      'This is the last mail we send to this address about the account.',
      '',
    ].join('\n'),
    html: htmlMail(
      title,
      html`<p>Your ${PRODUCT_NAME} Console account was deleted at your request: ${what}.</p>
        <p>Your e-mail address, password and sessions are erased; we keep only anonymous request counts.</p>
        <p>This is the last mail we send to this address about the account.</p>`,
    ),
  };
}
