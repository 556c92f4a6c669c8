// An MCP Apps server: the tally board view (a ui:// resource) and the two tools that render and drive it.
import { Module, uiResource } from 'mcp-kiln';
import { TallyService } from './tally.service.js';
import { IncrementTool, ShowBoardTool, TALLY_BOARD_URI } from './tally.tools.js';
import { TALLY_BOARD_HTML } from './tally-board.html.js';

@Module({
  providers: [TallyService],
  tools: [ShowBoardTool, IncrementTool],
  uiResources: [
    uiResource(TALLY_BOARD_URI, {
      name: 'tally-board',
      title: 'Tally board',
      description: 'Every tally with a button to add to it; the buttons call tally_increment.',
      html: TALLY_BOARD_HTML,
      // The board reaches nothing beyond the host: every call goes through it, so no origins are declared.
      csp: { connectDomains: [], resourceDomains: [] },
      permissions: { clipboardWrite: {} },
      prefersBorder: true,
    }),
  ],
})
export class TallyAppsModule {}
