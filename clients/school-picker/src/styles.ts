// The picker's stylesheet, adopted by its shadow root (a constructed stylesheet: no <style>
// element, so a page whose CSP allows no inline style still styles the picker). Everything a
// page may want to change is a custom property (--school-picker-*) or a part (::part(input)).
// The defaults meet WCAG AA contrast on a white page; the focus ring is 3 px.
export const STYLES = `
:host {
  display: block;
  position: relative;
  font-family: var(--school-picker-font, inherit);
  color: var(--school-picker-color, #1f1f1f);
}
:host([hidden]) { display: none; }
*, *::before, *::after { box-sizing: border-box; }
label {
  display: block;
  margin-block-end: 0.25rem;
  font-weight: var(--school-picker-label-weight, 600);
}
.field { position: relative; }
input {
  display: block;
  inline-size: 100%;
  min-block-size: 2.75rem;
  margin: 0;
  padding: 0.5rem 0.75rem;
  font: inherit;
  font-size: max(1rem, 16px);
  color: inherit;
  background: var(--school-picker-background, #fff);
  border: 1px solid var(--school-picker-border-color, #6b6b6b);
  border-radius: var(--school-picker-radius, 0.375rem);
}
input:focus-visible {
  outline: 3px solid var(--school-picker-focus-color, #1a5fd0);
  outline-offset: 2px;
}
input:disabled { opacity: 0.6; }
[role='listbox'] {
  position: absolute;
  z-index: var(--school-picker-z-index, 10);
  inset-inline: 0;
  inset-block-start: calc(100% + 0.25rem);
  margin: 0;
  padding: 0.25rem 0;
  list-style: none;
  max-block-size: var(--school-picker-max-height, 20rem);
  overflow-y: auto;
  background: var(--school-picker-background, #fff);
  border: 1px solid var(--school-picker-border-color, #6b6b6b);
  border-radius: var(--school-picker-radius, 0.375rem);
  box-shadow: var(--school-picker-shadow, 0 0.25rem 0.75rem rgb(0 0 0 / 0.15));
}
[role='listbox'][hidden] { display: none; }
[role='option'] {
  display: flex;
  flex-direction: column;
  justify-content: center;
  gap: 0.125rem;
  min-block-size: 2.75rem;
  padding: 0.375rem 0.75rem;
  cursor: pointer;
}
[role='option']:hover { background: var(--school-picker-hover-background, #eef3fc); }
[role='option'][aria-selected='true'] {
  color: var(--school-picker-active-color, #fff);
  background: var(--school-picker-active-background, #1a5fd0);
}
.name { font-weight: 600; overflow-wrap: anywhere; }
.detail { font-size: 0.875rem; color: var(--school-picker-muted-color, #595959); }
[role='option'][aria-selected='true'] .detail { color: inherit; }
.status {
  min-block-size: 1.25rem;
  margin-block-start: 0.25rem;
  font-size: 0.875rem;
  color: var(--school-picker-muted-color, #595959);
}
.status.error { color: var(--school-picker-error-color, #b3261e); }
@media (forced-colors: active) {
  [role='option'][aria-selected='true'] {
    forced-color-adjust: none;
    color: HighlightText;
    background: Highlight;
  }
}
`;
