// The Kiln side: a tool that uses the Nest application's VisitsService, handed over as a provider value under a token
// (Kiln's container does not reach into Nest's, and should not: the bridge is one explicit value).
import { createToken, type DynamicModule, Inject, Module, Tool } from 'mcp-kiln';
import { z } from 'zod';
import type { VisitsService } from './visits.service.js';

export const VISITS = createToken<VisitsService>('VISITS');

const Input = z.object({ name: z.string().min(1).describe('Who to greet') });
const Output = z.object({
  greeting: z.string().describe('The greeting'),
  visit: z.number().describe('Greeting count'),
});

@Tool('greet', {
  description: "Greet someone by name, counted by the Nest application's VisitsService.",
  input: Input,
  output: Output,
})
export class GreetTool {
  constructor(@Inject(VISITS) private readonly visits: VisitsService) {}

  handle(input: z.output<typeof Input>) {
    const visit = this.visits.record();
    return { greeting: `Hello, ${input.name}!`, visit };
  }
}

@Module({ tools: [GreetTool] })
export class GreetModule {
  /** The module with the Nest application's service as the value of VISITS. */
  static withVisits(visits: VisitsService): DynamicModule {
    return { module: GreetModule, providers: [{ provide: VISITS, useValue: visits }], tools: [GreetTool] };
  }
}
