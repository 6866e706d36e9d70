import { html, type SafeHtml } from '../pages/html.js';
import { csrfField, layout, type PageContext } from '../pages/layout.js';
import { field } from '../pages/form-field.js';
import { MIN_PASSWORD_LENGTH } from './password.js';
import type { FieldErrors } from './auth.service.js';

type AuthFormOptions = {
  context: PageContext;
  email?: string;
  /** A message about the whole form (wrong password, throttled, email taken). */
  alert?: string;
  errors?: FieldErrors;
};

function alertBox(message: string | undefined): SafeHtml | '' {
  return message ? html`<div class="alert error" role="alert">${message}</div>` : '';
}

export function signInPage(options: AuthFormOptions): SafeHtml {
  return layout({
    title: 'Sign in',
    context: options.context,
    body: html`<section class="card narrow" aria-labelledby="title">
      <h1 id="title">Sign in</h1>
      <p class="muted">Manage the API keys of your Doctor Directory account.</p>
      ${alertBox(options.alert)}
      <form method="post" action="/sign-in" novalidate>
        ${csrfField(options.context.csrfToken)}
        ${field({ id: 'email', label: 'Email', type: 'email', autocomplete: 'username', value: options.email, error: options.errors?.email })}
        ${field({ id: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', error: options.errors?.password })}
        <button type="submit" class="primary block">Sign in</button>
      </form>
      <p class="switch"><a href="/forgot-password">Forgot your password?</a></p>
      <p class="switch">New here? <a href="/sign-up">Create an account</a></p>
    </section>`,
  });
}

export function signUpPage(options: AuthFormOptions): SafeHtml {
  return layout({
    title: 'Sign up',
    context: options.context,
    body: html`<section class="card narrow" aria-labelledby="title">
      <h1 id="title">Create your account</h1>
      <p class="muted">Create API keys for the Doctor Directory API in a minute.</p>
      ${alertBox(options.alert)}
      <form method="post" action="/sign-up" novalidate>
        ${csrfField(options.context.csrfToken)}
        ${field({ id: 'email', label: 'Email', type: 'email', autocomplete: 'username', value: options.email, error: options.errors?.email })}
        ${field({ id: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', hint: `At least ${MIN_PASSWORD_LENGTH} characters.`, error: options.errors?.password })}
        <button type="submit" class="primary block">Sign up</button>
      </form>
      <p class="switch">Already have an account? <a href="/sign-in">Sign in</a></p>
    </section>`,
  });
}
