// Module lifecycle hooks: awaited in dependency order at boot (imports before importers, the core module first) and
// in reverse at close, with the signal that ended the app.
import { Injectable, Module, type OnApplicationShutdown, STORAGE, type StorageService } from 'mcp-kiln';
import { createTestingModule } from 'mcp-kiln/testing';
import { describe, expect, it } from 'vitest';

const calls: string[] = [];

/** A provider that records each hook, awaiting a tick so an un-awaited hook would show up out of order. */
function recorder(name: string) {
  @Injectable()
  class Recorder implements OnApplicationShutdown {
    async onModuleInit() {
      await new Promise((resolve) => setImmediate(resolve));
      calls.push(`${name}.onModuleInit`);
    }
    onApplicationBootstrap() {
      calls.push(`${name}.onApplicationBootstrap`);
    }
    async onModuleDestroy() {
      await new Promise((resolve) => setImmediate(resolve));
      calls.push(`${name}.onModuleDestroy`);
    }
    onApplicationShutdown(signal?: string) {
      calls.push(`${name}.onApplicationShutdown(${signal ?? ''})`);
    }
  }
  Object.defineProperty(Recorder, 'name', { value: name });
  return Recorder;
}

const Pool = recorder('Pool');
const Cache = recorder('Cache');
const Api = recorder('Api');

@Module({ providers: [Pool], exports: [Pool] })
class DatabaseModule {}

@Module({ imports: [DatabaseModule], providers: [Cache], exports: [Cache] })
class CacheModule {}

@Module({ imports: [CacheModule], providers: [Api] })
class ApiModule {}

describe('module lifecycle hooks', () => {
  it('run in dependency order at boot and in reverse at close', async () => {
    calls.length = 0;
    const app = await createTestingModule({ imports: [ApiModule] }).compile();
    expect(calls).toEqual([
      'Pool.onModuleInit',
      'Cache.onModuleInit',
      'Api.onModuleInit',
      'Pool.onApplicationBootstrap',
      'Cache.onApplicationBootstrap',
      'Api.onApplicationBootstrap',
    ]);
    calls.length = 0;
    await app.app.close('SIGTERM');
    expect(calls).toEqual([
      'Api.onModuleDestroy',
      'Cache.onModuleDestroy',
      'Pool.onModuleDestroy',
      'Api.onApplicationShutdown(SIGTERM)',
      'Cache.onApplicationShutdown(SIGTERM)',
      'Pool.onApplicationShutdown(SIGTERM)',
    ]);
  });

  it('run once per instance, and a failing onModuleInit stops boot with its error', async () => {
    @Injectable()
    class Broken {
      onModuleInit() {
        throw new Error('pool refused the connection');
      }
    }
    @Module({ providers: [Broken] })
    class BrokenModule {}
    await expect(createTestingModule({ imports: [BrokenModule] }).compile()).rejects.toThrow(
      'pool refused the connection',
    );
  });

  it('close the framework storage after every user hook, so a shutdown hook can still write state', async () => {
    const written: unknown[] = [];
    class Flusher implements OnApplicationShutdown {
      constructor(private readonly storage: StorageService) {}
      async onApplicationShutdown() {
        const state = this.storage.forTenant('default');
        await state.set('last-words', 'flushed');
        written.push(await state.get('last-words'));
      }
    }
    @Module({ providers: [{ provide: Flusher, useFactory: (s: StorageService) => new Flusher(s), inject: [STORAGE] }] })
    class FlushModule {}
    const app = await createTestingModule({ imports: [FlushModule] }).compile();
    await app.close();
    expect(written).toEqual(['flushed']);
  });
});
