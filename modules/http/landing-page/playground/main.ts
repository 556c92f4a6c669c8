// The playground's entry: the page loads the bundled script with `defer`, so the page has parsed when this runs.
import { tokenGate } from './app.js';

tokenGate();
