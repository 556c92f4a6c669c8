// Text that still names a disabled tool: every description, field description, recovery hint or instruction a
// client reads that points at a @Disabled tool is a warning naming where the reference sits.
import { Disabled, Errors, Prompt, Resource, Tool } from 'mcp-kiln';
import { JsonRpcErrorCode } from 'mcp-kiln/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bootWarnings, closeBootedApps } from '../di/boot-app.js';

afterEach(closeBootedApps);

const Query = z.object({ query: z.string().describe('Words to search for') });
const references = (warnings: readonly string[]) => warnings.filter((w) => w.endsWith('[disabled-tool-reference]'));

@Tool('notes_export_notes', { description: 'Export notes as CSV; see notes_export_notes --help.', input: Query })
@Disabled({ reason: 'Exports are off.', hint: 'NOTES_ENABLE_EXPORT=true' })
class ExportNotesTool {
  handle() {
    return 'csv';
  }
}

const Full = [
  {
    reason: 'too_many',
    code: JsonRpcErrorCode.InvalidParams,
    when: 'More than 50 matches; notes_export_notes would take them all.',
    recovery: 'Narrow the query, or call notes_export_notes to get every match.',
  },
] as const;

describe('disabled-tool-reference', () => {
  it('names every place in a tool that points at the disabled tool, in one warning', async () => {
    @Tool('notes_search_notes', {
      title: 'Search notes (or notes_export_notes)',
      description: 'Search notes by title; for bulk use, call notes_export_notes.',
      input: z.object({ query: z.string().describe('Words; notes_export_notes takes the same words') }),
      output: z.object({ ids: z.array(z.string().describe('Id')).describe('Ids, exportable with notes_export_notes') }),
    })
    @Errors(Full)
    class SearchNotesTool {
      handle() {
        return { ids: [] };
      }
    }
    expect(references(await bootWarnings({ tools: [ExportNotesTool, SearchNotesTool] }))).toEqual([
      "Tool notes_search_notes (SearchNotesTool): its title, its description, input field 'query', output field " +
        "'ids' and recovery for 'too_many' name notes_export_notes, which is disabled (Exports are off.), so a client " +
        'following it reaches a tool it cannot call; reword the text, or name the tool only under the configuration ' +
        'that enables it. [disabled-tool-reference]',
    ]);
  });

  it('looks at resources, prompts and the server instructions too', async () => {
    @Resource('notes://all', { name: 'all_notes', description: 'Every note; notes_export_notes gives CSV.' })
    class AllNotesResource {
      handle() {
        return 'notes';
      }
    }
    @Prompt('weekly_review', {
      description: 'Review the week.',
      args: z.object({ tag: z.string().describe('Tag to export with notes_export_notes') }),
    })
    class WeeklyReviewPrompt {
      handle() {
        return 'review';
      }
    }
    const warnings = await bootWarnings(
      { tools: [ExportNotesTool], resources: [AllNotesResource], prompts: [WeeklyReviewPrompt] },
      { instructions: 'Search first; export with notes_export_notes.' },
    );
    expect(references(warnings).map((w) => w.slice(0, w.indexOf(' name')))).toEqual([
      'Resource all_notes (AllNotesResource): its description',
      "Prompt weekly_review (WeeklyReviewPrompt): argument 'tag'",
      'createApp: instructions',
    ]);
  });

  it('matches the whole name only, ignores the disabled tool itself and the errors when, and is quiet with nothing disabled', async () => {
    @Tool('notes_search_notes', {
      description: 'Search notes; notes_export_notes_v2 and my_notes_export_notes are other tools.',
      input: Query,
    })
    @Errors([{ ...Full[0], recovery: 'Narrow the query and call this tool again.' }])
    class UnrelatedTool {
      handle() {
        return 'found';
      }
    }
    expect(references(await bootWarnings({ tools: [ExportNotesTool, UnrelatedTool] }))).toEqual([]);

    @Tool('notes_list_notes', { description: 'List notes; notes_search_notes finds by words.', input: Query })
    class MentionsEnabledTool {
      handle() {
        return 'notes';
      }
    }
    expect(references(await bootWarnings({ tools: [UnrelatedTool, MentionsEnabledTool] }))).toEqual([]);
  });
});
