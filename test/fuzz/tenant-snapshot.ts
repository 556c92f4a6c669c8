// Everything a tenant has in ctx.state, read straight from the app's storage: the "state" a rejected call must leave
// exactly as it found it.
import { STORAGE } from 'mcp-kiln';
import type { TestingApp } from 'mcp-kiln/testing';

export async function tenantSnapshot(app: TestingApp, tenantId = 'default'): Promise<Map<string, unknown>> {
  const state = app.get(STORAGE).forTenant(tenantId);
  const entries = new Map<string, unknown>();
  let cursor: string | undefined;
  do {
    const page = await state.list('', { cursor, limit: 100 });
    for (const item of page.items) entries.set(item.key, item.value);
    cursor = page.cursor;
  } while (cursor);
  return entries;
}
