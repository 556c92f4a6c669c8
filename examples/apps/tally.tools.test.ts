// Each tenant counts on its own board: what one tenant adds, another never sees.
import { createTestingModule } from 'mcp-kiln/testing';
import { describe, expect, it } from 'vitest';
import { TallyAppsModule } from './apps.module.js';

describe('the tally board', () => {
  it("keeps each tenant's tallies apart", async () => {
    const testing = await createTestingModule({ imports: [TallyAppsModule] }).compile();
    try {
      const added = await testing.callTool('tally_increment', { name: 'coffee', by: 3 }, { tenantId: 'acme' });
      expect(added.structuredContent).toEqual({ name: 'coffee', count: 5 });
      const acme = await testing.callTool('tally_show_board', {}, { tenantId: 'acme' });
      const globex = await testing.callTool('tally_show_board', {}, { tenantId: 'globex' });
      expect(acme.structuredContent).toEqual({
        tallies: [
          { name: 'coffee', count: 5 },
          { name: 'tea', count: 1 },
        ],
      });
      expect(globex.structuredContent).toEqual({
        tallies: [
          { name: 'coffee', count: 2 },
          { name: 'tea', count: 1 },
        ],
      });
    } finally {
      await testing.close();
    }
  });
});
