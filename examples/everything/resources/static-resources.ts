// The fixed resources the resources-* scenarios read: a text document, a PNG blob, and a resource clients
// subscribe to (resources-subscribe / -unsubscribe).
import { Resource } from 'mcp-kiln';
import { TEST_PNG_BASE64 } from '../media.js';

@Resource('test://static-text', {
  name: 'static-text',
  title: 'Static Text Resource',
  description: 'A static text resource for testing.',
  mimeType: 'text/plain',
})
export class StaticTextResource {
  handle() {
    return 'This is the content of the static text resource.';
  }
}

@Resource('test://static-binary', {
  name: 'static-binary',
  title: 'Static Binary Resource',
  description: 'A static binary resource (a 1x1 PNG image) for testing.',
  mimeType: 'image/png',
})
export class StaticBinaryResource {
  handle() {
    return { blob: TEST_PNG_BASE64 };
  }
}

@Resource('test://watched-resource', {
  name: 'watched-resource',
  title: 'Watched Resource',
  description: 'A text resource clients subscribe to for update notifications.',
  mimeType: 'text/plain',
})
export class WatchedResource {
  handle() {
    return 'Watched resource content.';
  }
}

export const StaticResources = [StaticTextResource, StaticBinaryResource, WatchedResource];
