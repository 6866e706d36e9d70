import { html, type SafeHtml } from './html.js';

/** One labelled input of a console form, with its hint and its error tied to it for screen readers. */
export type FieldOptions = {
  id: string;
  label: string;
  type: 'email' | 'password' | 'text';
  /** For codes: `numeric` brings up a phone's digit keyboard. */
  inputmode?: 'numeric' | 'text';
  autocomplete: string;
  value?: string;
  hint?: string;
  error?: string;
};

export function field(options: FieldOptions): SafeHtml {
  const describedBy = [options.hint ? `${options.id}-hint` : '', options.error ? `${options.id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return html`<div class="field">
    <label for="${options.id}">${options.label}</label>
    ${options.hint ? html`<p class="hint" id="${options.id}-hint">${options.hint}</p>` : ''}
    ${options.error ? html`<p class="field-error" id="${options.id}-error">${options.error}</p>` : ''}
    <input
      id="${options.id}"
      name="${options.id}"
      type="${options.type}"
      autocomplete="${options.autocomplete}"
      ${options.inputmode === undefined ? '' : html`inputmode="${options.inputmode}"`}
      required
      ${options.value === undefined ? '' : html`value="${options.value}"`}
      ${describedBy ? html`aria-describedby="${describedBy}"` : ''}
      ${options.error ? html`aria-invalid="true"` : ''}
    />
  </div>`;
}
