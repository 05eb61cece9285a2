// The picker's module: importing it defines <school-picker> (once, however many times a page
// loads it). This file is what GET /picker/v1/school-picker.js serves, bundled.
import { SchoolPicker } from './school-picker.ts';

export { SchoolPicker, type SchoolSelectDetail } from './school-picker.ts';
export type { PickedSchool } from './labels.ts';

if (!customElements.get('school-picker')) customElements.define('school-picker', SchoolPicker);

declare global {
  interface HTMLElementTagNameMap {
    'school-picker': SchoolPicker;
  }
  interface HTMLElementEventMap {
    'school-select': CustomEvent<import('./school-picker.ts').SchoolSelectDetail>;
  }
}
