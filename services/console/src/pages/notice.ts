import { html, type SafeHtml } from './html.js';

/** A message about the whole form or the outcome of one. */
export type Notice = { kind: 'error' | 'success'; text: string };

export function noticeBox(notice: Notice | undefined): SafeHtml | '' {
  if (notice === undefined) return '';
  return html`<div class="alert ${notice.kind}" role="${notice.kind === 'error' ? 'alert' : 'status'}">
    ${notice.text}
  </div>`;
}

/** A UTC time to the minute, machine-readable in its `datetime`. */
export function timestamp(date: Date): SafeHtml {
  const text = `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return html`<time datetime="${date.toISOString()}">${text}</time>`;
}
