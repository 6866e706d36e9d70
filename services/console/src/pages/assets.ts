// The console's only stylesheet and script, served from /assets so the CSP can forbid inline code.

export const CONSOLE_CSS = `
:root { --bg: #f4f6fb; --card: #fff; --text: #172033; --muted: #5b6478; --line: #dfe3ec; --brand: #0b6bcb;
  --brand-dark: #0856a3; --danger: #c62828; --ok: #1b7f4b; --warn-bg: #fff8e1; --warn-line: #f2c94c; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--text); background: var(--bg); }
a { color: var(--brand); }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .92em; }
.skip-link { position: absolute; left: -999px; } .skip-link:focus { left: 1rem; top: 1rem; background: #fff; padding: .5rem; }
.site-header { display: flex; align-items: center; justify-content: space-between; gap: 1rem; padding: .8rem 1.5rem;
  background: #fff; border-bottom: 1px solid var(--line); }
.site-header nav { display: flex; align-items: center; gap: .8rem; }
.brand { display: flex; align-items: center; gap: .5rem; font-weight: 700; font-size: 1.1rem; color: var(--text); text-decoration: none; }
.brand-sub { font-weight: 500; color: var(--muted); }
.logo { display: inline-grid; place-items: center; width: 1.8rem; height: 1.8rem; border-radius: .45rem; background: var(--brand); color: #fff; font-weight: 800; }
.container { max-width: 920px; margin: 2rem auto; padding: 0 1rem; } .container.wide { max-width: 1040px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: .8rem; padding: 1.5rem; margin-bottom: 1.25rem;
  box-shadow: 0 1px 2px rgba(16, 24, 40, .05); }
.card.narrow { max-width: 440px; margin: 3rem auto; }
h1 { font-size: 1.6rem; margin: 0 0 .4rem; } h2 { font-size: 1.15rem; margin: 0 0 1rem; }
.page-title { display: flex; align-items: baseline; justify-content: space-between; flex-wrap: wrap; margin-bottom: 1rem; }
.muted { color: var(--muted); } .small { font-size: .85rem; }
.field { margin-bottom: 1rem; } .field.grow { flex: 1; margin-bottom: 0; }
label { display: block; font-weight: 600; margin-bottom: .3rem; }
input[type=email], input[type=password], input[type=text], input[type=url] { width: 100%; padding: .6rem .75rem; border: 1px solid #c5ccd9;
  border-radius: .5rem; font: inherit; background: #fff; }
input:focus, button:focus-visible, a:focus-visible { outline: 3px solid rgba(11, 107, 203, .35); outline-offset: 1px; }
input[aria-invalid=true] { border-color: var(--danger); }
.hint { margin: .1rem 0 .4rem; font-size: .88rem; color: var(--muted); }
.field-error { margin: .1rem 0 .4rem; font-size: .88rem; color: var(--danger); font-weight: 600; }
button, .button { display: inline-block; border: 1px solid transparent; border-radius: .5rem; padding: .55rem 1rem; font: inherit;
  font-weight: 600; cursor: pointer; text-decoration: none; line-height: 1.4; }
.primary { background: var(--brand); color: #fff; } .primary:hover { background: var(--brand-dark); }
.secondary { background: #fff; color: var(--text); border-color: #c5ccd9; } .secondary:hover { background: #f0f2f7; }
.danger { background: var(--danger); color: #fff; }
.danger-outline { background: #fff; color: var(--danger); border-color: #e7b3b3; padding: .35rem .8rem; }
.danger-outline:hover { background: #fdecec; }
.block { width: 100%; margin-top: .5rem; }
.inline { display: inline; margin: 0; }
.button-row { display: flex; gap: .75rem; margin-top: 1.25rem; }
.switch { margin: 1.2rem 0 0; text-align: center; color: var(--muted); }
.create-form { display: flex; gap: .75rem; align-items: flex-end; flex-wrap: wrap; }
.alert { border-radius: .6rem; padding: .8rem 1rem; margin-bottom: 1.25rem; border: 1px solid; }
.alert.error { background: #fdecec; border-color: #f3b7b7; color: #8e1c1c; }
.alert.warning-banner { background: var(--warn-bg); border-color: var(--warn-line); color: #5c4400; }
.alert.success { background: #e8f6ee; border-color: #a8dcbf; color: #145c37; }
.secret-card { border-color: var(--warn-line); background: var(--warn-bg); }
.warning { margin: 0 0 1rem; }
.secret-row { display: flex; gap: .75rem; align-items: center; flex-wrap: wrap; }
.secret { flex: 1; min-width: 0; padding: .7rem .9rem; background: #fff; border: 1px dashed #c9a227; border-radius: .5rem;
  word-break: break-all; font-size: .95rem; user-select: all; }
.table-wrap { overflow-x: auto; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: .7rem .6rem; border-bottom: 1px solid var(--line); vertical-align: middle; }
thead th { font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
tbody th { font-weight: 600; } .key-id { font-weight: 400; font-size: .75rem; font-family: ui-monospace, monospace; }
td.actions { text-align: right; }
time { white-space: nowrap; }
.badge { display: inline-block; padding: .1rem .55rem; border-radius: 999px; font-size: .8rem; font-weight: 700; }
.badge.active { background: #e3f5eb; color: var(--ok); } .badge.revoked { background: #eceff4; color: var(--muted); }
.badge.retiring { background: #e8f0fb; color: var(--brand-dark); } .badge.expired { background: #fdecec; color: #8e1c1c; }
.badge.warn { background: var(--warn-bg); color: #7a5b00; border: 1px solid var(--warn-line); }
.badge.mode-live { background: #eef1f6; color: var(--text); border: 1px solid #c5ccd9; }
.badge.mode-test { background: #f3e8fd; color: #5b2a86; border: 1px dashed #b48ad8; }
select { padding: .55rem .6rem; border: 1px solid #c5ccd9; border-radius: .5rem; font: inherit; background: #fff; }
.create-form .field { margin-bottom: 0; }
.small-button { padding: .35rem .8rem; }
.limited-count { color: var(--danger); font-weight: 600; }
.choices { border: 1px solid var(--line); border-radius: .5rem; padding: .6rem 1rem; margin: 1rem 0 0; }
.choice { font-weight: 400; display: flex; gap: .5rem; align-items: center; margin: .3rem 0; }
.facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); gap: .75rem 1.5rem; margin: 0 0 1.25rem; }
.facts dt { font-size: .8rem; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
.facts dd { margin: .1rem 0 0; font-weight: 600; }
.usage-chart { margin: 0; } .usage-chart svg { width: 100%; height: auto; display: block; }
.usage-chart .bar-slot { fill: #f0f2f7; } .usage-chart .bar-served { fill: var(--brand); } .usage-chart .bar-limited { fill: var(--danger); }
.usage-chart .axis { font-size: 9px; fill: var(--muted); }
.legend { display: inline-block; width: .8rem; height: .8rem; border-radius: .15rem; vertical-align: middle; margin-left: .75rem; }
.legend.served { background: var(--brand); } .legend.limited { background: var(--danger); }
.empty { color: var(--muted); margin: 0; }
.endpoint-url { overflow-wrap: anywhere; }
.site-footer { text-align: center; color: var(--muted); font-size: .85rem; padding: 2rem 1rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

export const CONSOLE_JS = `'use strict';
// Progressive enhancement only: every page works without it.
document.addEventListener('DOMContentLoaded', function () {
  // A page rendered as the answer to a POST: make a reload a GET of this URL, not a re-post.
  var replaceUrl = document.body.getAttribute('data-replace-url');
  if (replaceUrl) history.replaceState(null, '', replaceUrl);
  document.querySelectorAll('[data-copy-target]').forEach(function (button) {
    var target = document.getElementById(button.getAttribute('data-copy-target'));
    if (!target || !navigator.clipboard) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      navigator.clipboard.writeText(target.textContent.trim()).then(function () {
        button.textContent = 'Copied';
      }, function () {
        button.textContent = 'Select and copy';
      });
    });
  });
});
`;
