import { describe, expect, it } from 'vitest';
import { isLevelEnabled, LOG_LEVELS, parseLogLevel } from '../../src/logging/index.js';

describe('LOG_LEVELS', () => {
  it('lists the MCP level names in RFC 5424 order, least severe first', () => {
    expect(LOG_LEVELS).toEqual(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);
  });
});

describe('isLevelEnabled', () => {
  it('enables a level at or above the floor and nothing below it', () => {
    expect(isLevelEnabled('notice', 'notice')).toBe(true);
    expect(isLevelEnabled('warning', 'notice')).toBe(true);
    expect(isLevelEnabled('emergency', 'debug')).toBe(true);
    expect(isLevelEnabled('info', 'notice')).toBe(false);
    expect(isLevelEnabled('critical', 'alert')).toBe(false);
  });

  it('agrees with the array order for every pair', () => {
    for (const [i, level] of LOG_LEVELS.entries()) {
      for (const [j, floor] of LOG_LEVELS.entries()) {
        expect(isLevelEnabled(level, floor)).toBe(i >= j);
      }
    }
  });
});

describe('parseLogLevel', () => {
  it('returns each MCP level for its name, trimmed and case-insensitive', () => {
    for (const level of LOG_LEVELS) expect(parseLogLevel(level)).toBe(level);
    expect(parseLogLevel('  WARNING ')).toBe('warning');
    expect(parseLogLevel('Notice')).toBe('notice');
  });

  it('returns undefined for pino-only names, unknown text and non-strings', () => {
    expect(parseLogLevel('warn')).toBeUndefined();
    expect(parseLogLevel('fatal')).toBeUndefined();
    expect(parseLogLevel('trace')).toBeUndefined();
    expect(parseLogLevel('')).toBeUndefined();
    expect(parseLogLevel(undefined)).toBeUndefined();
    expect(parseLogLevel(3)).toBeUndefined();
  });
});
