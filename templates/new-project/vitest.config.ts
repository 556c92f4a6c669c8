import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Oxc compiles legacy decorators and emits design:paramtypes, which constructor injection reads.
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } },
  test: { include: ['src/**/*.test.ts'] },
});
