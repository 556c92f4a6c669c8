// A small server whose tools raise every kind of notification: list changes and resource updates through ctx.notify*,
// log lines, progress steps, and a list change published after the response by a service holding the NOTIFIER.
import { type HandlerContext, Inject, Injectable, Module, NOTIFIER, Prompt, Resource, Tool } from 'mcp-kiln';
import { z } from 'zod';
import type { ChangeNotifier } from '../../../src/notifications/change-notifier.js';

const Done = z.object({ done: z.boolean().describe('Always true once the notification was raised') });
const NoInput = z.object({});

@Tool('fixture_change_tools', {
  description: 'Announces that the tool list changed (ctx.notifyToolListChanged).',
  input: NoInput,
  output: Done,
})
class ChangeToolsTool {
  handle(_input: object, ctx: HandlerContext) {
    ctx.notifyToolListChanged?.();
    return { done: true };
  }
}

@Tool('fixture_change_prompts', {
  description: 'Announces that the prompt list changed (ctx.notifyPromptListChanged).',
  input: NoInput,
  output: Done,
})
class ChangePromptsTool {
  handle(_input: object, ctx: HandlerContext) {
    ctx.notifyPromptListChanged?.();
    return { done: true };
  }
}

const UriInput = z.object({ uri: z.string().describe('URI of the resource that changed') });

@Tool('fixture_update_resource', {
  description: 'Announces that one resource changed (ctx.notifyResourceUpdated).',
  input: UriInput,
  output: Done,
})
class UpdateResourceTool {
  handle(input: z.output<typeof UriInput>, ctx: HandlerContext) {
    ctx.notifyResourceUpdated?.(input.uri);
    return { done: true };
  }
}

@Tool('fixture_log_lines', {
  description: 'Logs one info line and one warning line.',
  input: NoInput,
  output: Done,
})
class LogLinesTool {
  handle(_input: object, ctx: HandlerContext) {
    ctx.log.info('Info line', { step: 'info' });
    ctx.log.warning('Warning line', { step: 'warning' });
    return { done: true };
  }
}

const StepsInput = z.object({ steps: z.number().int().min(1).max(5).describe('Number of steps to run (1-5)') });

@Tool('fixture_run_steps', {
  description: 'Runs a few steps, reporting progress after each when the caller asked for progress.',
  input: StepsInput,
  output: z.object({ completed: z.number().describe('Steps completed') }),
})
class RunStepsTool {
  async handle(input: z.output<typeof StepsInput>, ctx: HandlerContext) {
    for (let step = 1; step <= input.steps; step++) await ctx.progress(step, input.steps, `Step ${step}`);
    return { completed: input.steps };
  }
}

/** Publishes from outside any request, the way a background job or a cache invalidation would. */
@Injectable()
export class CatalogueFeed {
  constructor(@Inject(NOTIFIER) private readonly notifier: ChangeNotifier) {}

  publishLater(): void {
    setTimeout(() => this.notifier.toolsChanged(), 0);
  }
}

@Tool('fixture_schedule_tools_change', {
  description: 'Schedules a tool-list change that is published after this call has answered.',
  input: NoInput,
  output: Done,
})
class ScheduleToolsChangeTool {
  constructor(private readonly feed: CatalogueFeed) {}

  handle() {
    this.feed.publishLater();
    return { done: true };
  }
}

const DocParams = z.object({ name: z.string().describe('Document name') });

@Resource('fixture://docs/{name}', {
  name: 'doc',
  description: 'One document as plain text.',
  mimeType: 'text/plain',
  params: DocParams,
})
class DocResource {
  handle(params: z.output<typeof DocParams>) {
    return `Document ${params.name}`;
  }
}

@Prompt('fixture_greet', { description: 'Greets the reader.' })
class GreetPrompt {
  handle() {
    return 'Say hello.';
  }
}

@Module({
  providers: [CatalogueFeed],
  tools: [ChangeToolsTool, ChangePromptsTool, UpdateResourceTool, LogLinesTool, RunStepsTool, ScheduleToolsChangeTool],
  resources: [DocResource],
  prompts: [GreetPrompt],
})
export class NotifyingModule {}

export const docUri = (name: string) => `fixture://docs/${name}`;
