// The status line of the response (role=status, so a screen reader announces it): what the page is doing now.
import { byId } from './dom.js';

export function setStatus(text: string): void {
  byId('pg-status', HTMLElement).textContent = text;
}
