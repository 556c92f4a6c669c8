// The deployment recipes in deploy/ checked without Docker or Kubernetes (neither runs here): the HAProxy config
// passes `haproxy -c`; the manifests, the systemd unit and the Dockerfile name the probe paths and port a Kiln server
// really serves (asked of a running one), configure it with settings loadConfig accepts, and give shutdown the time
// the ready grace and the drain need.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/config/kiln-config.js';
import { type RunningServer, startHttpServer } from '../http/helpers/http-server.js';

const read = (path: string) => readFileSync(new URL(`../../deploy/${path}`, import.meta.url), 'utf8');

let server: RunningServer;
let origin: string;
beforeAll(async () => {
  server = await startHttpServer();
  origin = new URL(server.serving.url).origin;
});
afterAll(() => server.close());

/** The path answers on a running Kiln server (200, or 503 only for readiness of a draining one). */
async function expectServed(path: string): Promise<void> {
  const response = await fetch(`${origin}${path}`);
  expect(response.status, path).toBe(200);
  await response.text();
}

/** Kiln's settings must leave room for the ready grace and the drain before the supervisor kills the process. */
function expectStopTimeCovers(stopSeconds: number, env: Record<string, string | undefined>): void {
  const { shutdown } = loadConfig(env);
  expect(stopSeconds * 1000).toBeGreaterThan(shutdown.readyGraceMs + shutdown.drainMs);
  expect(shutdown.readyGraceMs).toBeGreaterThan(0);
}

describe('deploy/haproxy/haproxy.cfg', () => {
  const config = read('haproxy/haproxy.cfg');

  it('is a valid HAProxy configuration', () => {
    const output = execFileSync(
      'haproxy',
      ['-c', '-f', new URL('../../deploy/haproxy/haproxy.cfg', import.meta.url).pathname],
      {
        env: {
          ...process.env,
          KILN_LISTEN: '127.0.0.1:18080',
          KILN_1: '127.0.0.1:18081',
          KILN_2: '127.0.0.1:18082',
          KILN_3: '127.0.0.1:18083',
        },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    expect(output).toMatch(/Configuration file is valid/);
  });

  it('checks /readyz, retries connection failures only, and needs no stickiness', async () => {
    expect(config).toMatch(/http-check send meth GET uri \/readyz/);
    expect(config).toMatch(/^\s*retry-on conn-failure\s*$/m);
    expect(config).not.toMatch(/\bstick\b|\bcookie\b|balance source/);
    await expectServed('/readyz');
  });
});

/** A parsed manifest, read by path: the assertions say what each path must hold. */
// biome-ignore lint/suspicious/noExplicitAny: manifests are untyped YAML, checked field by field below
type Manifest = Record<string, any>;

describe('deploy/kubernetes', () => {
  const docs = ['deployment.yaml', 'service.yaml', 'redis-secret.yaml'].flatMap((file) =>
    parseAllDocuments(read(`kubernetes/${file}`)).map((doc) => {
      expect(doc.errors, file).toEqual([]);
      return doc.toJS() as Manifest;
    }),
  );
  const byKind = (kind: string) => docs.find((doc) => doc.kind === kind) as Manifest;
  const deployment = byKind('Deployment');
  const pod = deployment.spec.template.spec;
  const container = pod.containers[0];
  const secret = byKind('Secret');
  const env: Record<string, string | undefined> = Object.fromEntries(
    container.env.map(
      (entry: { name: string; value?: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }) => {
        const ref = entry.valueFrom?.secretKeyRef;
        if (!ref) return [entry.name, entry.value];
        expect(ref.name).toBe(secret.metadata.name);
        return [entry.name, secret.stringData[ref.key]];
      },
    ),
  );

  it('configures Kiln with settings it accepts, on the port the container exposes', () => {
    const config = loadConfig(env);
    expect(config.transportType).toBe('http');
    expect(config.storage.type).toBe('redis');
    const port = container.ports.find((entry: { name: string }) => entry.name === 'mcp');
    expect(config.http.port).toBe(port.containerPort);
  });

  it('probes the paths Kiln serves: readiness on /readyz, liveness on /healthz', async () => {
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'mcp' });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'mcp' });
    await expectServed('/readyz');
    await expectServed('/healthz');
  });

  it('gives shutdown the ready grace and the drain, and rolls one pod at a time', () => {
    expectStopTimeCovers(pod.terminationGracePeriodSeconds, env);
    // The grace must outlast the endpoint's removal: the readiness probe's period times its failure threshold.
    const { readinessProbe } = container;
    expect(loadConfig(env).shutdown.readyGraceMs).toBeGreaterThan(
      readinessProbe.periodSeconds * readinessProbe.failureThreshold * 1000,
    );
    expect(deployment.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
  });

  it('routes the Service to the pods and their mcp port', () => {
    const service = byKind('Service');
    expect(service.spec.selector).toEqual(deployment.spec.template.metadata.labels);
    expect(service.spec.ports[0].targetPort).toBe('mcp');
  });
});

describe('deploy/systemd/kiln@.service', () => {
  const unit = read('systemd/kiln@.service');
  const values = (key: string) =>
    [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((match) => (match[1] as string).trim());
  const env = Object.fromEntries(
    values('Environment').map((entry) => {
      const [name, ...rest] = entry.split('=');
      return [name as string, rest.join('=').replace('%i', '8081')];
    }),
  );

  it('configures Kiln with settings it accepts, and gives shutdown its time', () => {
    const config = loadConfig({ ...env, REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(config.http.port).toBe(8081);
    expect(values('KillSignal')).toEqual(['SIGTERM']);
    expectStopTimeCovers(Number(values('TimeoutStopSec')[0]), { ...env, REDIS_URL: 'redis://127.0.0.1:6379' });
  });

  it('runs the bundle as an unprivileged user', () => {
    expect(values('User')).toEqual(['kiln']);
    expect(values('ExecStart')[0]).toMatch(/node .*bundle\/main\.mjs$/);
  });
});

describe('deploy/Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const lines = dockerfile.split('\n').filter((line) => !line.startsWith('#'));

  it('builds in one stage and runs the `kiln bundle` output as the node user in another', () => {
    expect(lines.filter((line) => line.startsWith('FROM ')).length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/npx kiln bundle dist\/main\.js --out-dir bundle/);
    expect(dockerfile).toMatch(/^COPY --from=build .*\/app\/bundle \.\/bundle$/m);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^CMD \["node", "--enable-source-maps", "bundle\/main\.mjs"\]$/m);
  });

  it('exposes the port it configures, and checks /healthz on it', async () => {
    const port = /MCP_HTTP_PORT=(\d+)/.exec(dockerfile)?.[1];
    expect(dockerfile).toMatch(new RegExp(`^EXPOSE ${port}$`, 'm'));
    expect(dockerfile).toContain(`http://127.0.0.1:${port}/healthz`);
    expect(loadConfig({ MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_HOST: '0.0.0.0', MCP_HTTP_PORT: port }).http.port).toBe(
      Number(port),
    );
    await expectServed('/healthz');
  });
});
