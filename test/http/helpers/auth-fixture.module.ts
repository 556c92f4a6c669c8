// Definitions behind the auth tests: a probe reporting who a request runs as (and everything a handler can see of
// the request, to prove no token is among it), tenant-scoped state tools behind @Scopes of each form, a consent-gated
// delete, a tool checking a scope itself, a scoped resource and prompt, and a tool publishing a resource update.
import { type Context, type HandlerContext, Module, Prompt, RequiresConsent, Resource, Scopes, Tool } from 'mcp-kiln';
import { z } from 'zod';
import { SealedStateModule } from '../../integration/fixtures/sealed-state/sealed-state.module.js';

const WhoAmI = z.object({
  auth: z.unknown().describe('ctx.auth as the handler saw it'),
  tenantId: z.string().nullable().describe('ctx.tenantId, or null'),
  visible: z.string().describe('The handler context serialised: everything a handler can read of the request'),
});

@Tool('auth_whoami', {
  description: 'Reports the principal, the tenant and the whole context this request runs with.',
  annotations: { readOnlyHint: true },
  input: z.object({}),
  output: WhoAmI,
})
export class WhoAmITool {
  handle(_input: Record<string, never>, ctx: HandlerContext) {
    return { auth: ctx.auth ?? null, tenantId: ctx.tenantId ?? null, visible: JSON.stringify(ctx) };
  }
}

const Put = z.object({
  key: z.string().describe('State key'),
  value: z.string().describe('Value to store'),
});

@Tool('notes_put', {
  description: 'Stores a value under a key in the caller tenant state.',
  input: Put,
  output: z.object({ stored: z.boolean().describe('True once stored') }),
})
@Scopes('notes:write')
export class PutTool {
  async handle(input: z.output<typeof Put>, ctx: HandlerContext) {
    await ctx.state.set(input.key, input.value);
    return { stored: true };
  }
}

const Key = z.object({ key: z.string().describe('State key') });

@Tool('notes_get', {
  description: 'Reads the value stored under a key in the caller tenant state.',
  annotations: { readOnlyHint: true },
  input: Key,
  output: z.object({ value: z.string().nullable().describe('The stored value, or null') }),
})
@Scopes({ anyOf: ['notes:read', 'notes:admin'] })
export class GetTool {
  async handle(input: z.output<typeof Key>, ctx: HandlerContext) {
    return { value: await ctx.state.get(input.key, z.string()) };
  }
}

const List = z.object({
  cursor: z.string().optional().describe('Cursor of a previous page'),
  limit: z.number().int().min(1).max(50).optional().describe('Page size'),
});

@Tool('notes_list', {
  description: 'Lists the keys in the caller tenant state, one page at a time.',
  annotations: { readOnlyHint: true },
  input: List,
  output: z.object({
    keys: z.array(z.string()).describe('Keys on this page'),
    cursor: z.string().optional().describe('Cursor of the next page'),
  }),
})
@Scopes('notes:read')
export class ListTool {
  async handle(input: z.output<typeof List>, ctx: HandlerContext) {
    const page = await ctx.state.list('', { ...(input.cursor ? { cursor: input.cursor } : {}), limit: input.limit });
    return { keys: page.items.map((item) => item.key), ...(page.cursor ? { cursor: page.cursor } : {}) };
  }
}

@Tool('notes_purge', {
  description: 'Pretends to purge every note; needs both the admin and the write scope.',
  input: z.object({}),
  output: z.object({ purged: z.boolean().describe('True when purged') }),
})
@Scopes('notes:admin', 'notes:write')
export class PurgeTool {
  handle() {
    return { purged: true };
  }
}

@Tool('notes_delete', {
  description: 'Deletes the value under a key once the user confirms.',
  annotations: { destructiveHint: true },
  input: Key,
  output: z.object({ deleted: z.boolean().describe('True once deleted') }),
})
@RequiresConsent<z.output<typeof Key>>({ message: 'Delete this note?', target: (input) => input.key })
export class DeleteTool {
  async handle(input: z.output<typeof Key>, ctx: HandlerContext) {
    await ctx.state.delete(input.key);
    return { deleted: true };
  }
}

@Tool('notes_audit', {
  description: 'Reads the audit trail: checks for the audit scope itself, inside the handler.',
  annotations: { readOnlyHint: true },
  input: z.object({}),
  output: z.object({ entries: z.number().describe('Audit entries') }),
})
export class AuditTool {
  handle(_input: Record<string, never>, ctx: HandlerContext) {
    ctx.requireScopes('audit:read');
    return { entries: 0 };
  }
}

const Touch = z.object({ uri: z.string().describe('Resource URI to report as updated') });

@Tool('notes_touch', {
  description: 'Reports a resource as updated, for the caller tenant only.',
  input: Touch,
  output: z.object({ touched: z.string().describe('The URI reported') }),
})
export class TouchTool {
  handle(input: z.output<typeof Touch>, ctx: HandlerContext) {
    ctx.notifyResourceUpdated?.(input.uri);
    return { touched: input.uri };
  }
}

const NoteParams = z.object({ key: z.string().describe('State key') });

@Resource('tenant://notes/{key}', {
  name: 'tenant_note',
  description: 'The value stored under a key, as text.',
  mimeType: 'text/plain',
  params: NoteParams,
})
@Scopes('notes:read')
export class TenantNoteResource {
  async handle(params: z.output<typeof NoteParams>, ctx: Context) {
    return (await ctx.state.get(params.key, z.string())) ?? '';
  }
}

@Prompt('notes_brief', { description: 'Asks for a brief of the stored notes.' })
@Scopes('notes:read')
export class BriefPrompt {
  handle() {
    return 'Write a brief of the stored notes.';
  }
}

@Module({
  imports: [SealedStateModule],
  tools: [WhoAmITool, PutTool, GetTool, ListTool, PurgeTool, DeleteTool, AuditTool, TouchTool],
  resources: [TenantNoteResource],
  prompts: [BriefPrompt],
})
export class AuthFixtureModule {}
