// The probes the differential tests serve (test/http/fast-path-diff.test.ts, session-direct-diff.test.ts,
// test/transports/stdio-direct-diff.test.ts): log lines, each kind of input_required round, structured output, thrown
// protocol errors, a tool that may run as a task, a fixed and a failing resource and a prompt, beside the HTTP fixture
// (notes, whoami, slow) and the sealed-state fixture.
import { type Context, inputRequired, Module, Prompt, Resource, Tool } from 'mcp-kiln';
import { McpError } from 'mcp-kiln/errors';
import { z } from 'zod';
import { SealedStateModule } from '../../integration/fixtures/sealed-state/sealed-state.module.js';
import { HttpFixtureModule } from './http-fixture.module.js';

@Tool('probe_log', {
  description: 'Writes two log lines, then answers.',
  annotations: { readOnlyHint: true },
  input: z.object({}),
})
class LogProbe {
  handle(_input: unknown, ctx: Context) {
    ctx.log.info('first line');
    ctx.log.warning('second line');
    return 'logged';
  }
}

const Ask = z.object({
  kind: z.enum(['sampling', 'sampling-tools', 'roots', 'url', 'form']).describe('Which kind of input to ask for'),
});

@Tool('probe_ask', {
  description: 'Asks the client for one kind of input, so the capability check of an input_required round shows.',
  annotations: { readOnlyHint: true },
  input: Ask,
})
class AskProbe {
  handle(input: z.output<typeof Ask>, ctx: Context) {
    const requests = {
      sampling: inputRequired.createMessage({ messages: [], maxTokens: 5 }),
      'sampling-tools': inputRequired.createMessage({ messages: [], maxTokens: 5, tools: [] }),
      roots: inputRequired.listRoots(),
      url: inputRequired.elicitUrl({ message: 'Sign in', url: 'https://example.com/sign-in' }),
      form: inputRequired.elicit({ message: 'Go on?', requestedSchema: z.object({ ok: z.boolean() }) }),
    };
    return ctx.requestInput({ inputRequests: { answer: requests[input.kind] } });
  }
}

@Tool('probe_structured', {
  description: 'Answers structured content and a text of its own.',
  annotations: { readOnlyHint: true },
  input: z.object({}),
  output: z.object({ n: z.number().describe('A number') }),
})
class StructuredProbe {
  handle() {
    return { n: 7 };
  }
}

@Tool('probe_task', {
  description: 'Answers at once; runs as a task for clients that declare the Tasks extension.',
  annotations: { readOnlyHint: true },
  input: z.object({}),
  task: 'optional',
})
class TaskProbe {
  handle() {
    return 'done';
  }
}

@Tool('probe_throws', {
  description: 'Throws a protocol error with the given code.',
  annotations: { readOnlyHint: true },
  input: z.object({ code: z.number().describe('JSON-RPC code') }),
})
class ThrowProbe {
  handle(input: { code: number }): string {
    throw new McpError(input.code, `thrown ${input.code}`, { reason: 'probe' });
  }
}

@Resource('probe://static', { name: 'static', description: 'A fixed text.', mimeType: 'text/plain' })
class StaticResource {
  handle() {
    return 'static text';
  }
}

@Resource('probe://cached', {
  name: 'cached',
  description: 'A text clients may cache for a minute, shared.',
  mimeType: 'text/plain',
  cacheHint: { ttlMs: 60_000, cacheScope: 'public' },
})
class CachedResource {
  handle() {
    return 'cached text';
  }
}

@Resource('probe://brief', {
  name: 'brief',
  description: 'A text clients may cache for a second.',
  cacheHint: { ttlMs: 1000 },
})
class BriefResource {
  handle() {
    return 'brief text';
  }
}

@Resource('probe://fails', { name: 'fails', description: 'Throws a protocol error.' })
class FailingResource {
  handle(): string {
    throw new McpError(-32002, 'gone', { reason: 'gone' });
  }
}

@Prompt('probe_prompt', {
  description: 'Greets someone.',
  args: z.object({ who: z.string().describe('Whom to greet'), mood: z.string().optional().describe('Mood') }),
})
class GreetPrompt {
  handle(args: { who: string; mood?: string }) {
    return `Hello ${args.who}${args.mood ? ` (${args.mood})` : ''}`;
  }
}

@Module({
  imports: [HttpFixtureModule, SealedStateModule],
  tools: [LogProbe, AskProbe, StructuredProbe, ThrowProbe, TaskProbe],
  resources: [StaticResource, CachedResource, BriefResource, FailingResource],
  prompts: [GreetPrompt],
})
export class DiffModule {}
