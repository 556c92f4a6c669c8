// say_hello: greets someone by name. The constructor parameter is injected by its type, which TypeScript records
// because of emitDecoratorMetadata; import the service as a value, never with `import type`.
import { type HandlerContext, Tool } from 'mcp-kiln';
import { z } from 'zod';
import { GreetingService } from './greeting.service.js';

const Input = z.object({ name: z.string().min(1).describe('Who to greet') });
const Output = z.object({ greeting: z.string().describe('The greeting') });

@Tool('say_hello', {
  description: 'Greet someone by name; returns the greeting.',
  annotations: { readOnlyHint: true },
  input: Input,
  output: Output,
})
export class SayHelloTool {
  constructor(private readonly greetings: GreetingService) {}

  handle(input: z.output<typeof Input>, ctx: HandlerContext) {
    ctx.log.info('Greeting', { name: input.name });
    return { greeting: this.greetings.greet(input.name) };
  }

  format(result: z.output<typeof Output>) {
    return result.greeting;
  }
}
