// The boot-compiled URI matcher answers exactly as the SDK's UriTemplate.match, template by template and URI by URI.
import { UriTemplate } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { compileUriMatcher } from '../../src/definitions/uri-matcher.js';

const PLAIN_TEMPLATES = [
  'notes://{id}',
  'notes://{tenant}/notes/{id}',
  'file:///{dir}/{name}.txt',
  'calc://{a}+{b}=(result)',
  'weird://$^{x}[.*]|{y}\\end',
  'pair://{first}{second}',
  'users://{user_id}/profile',
  'v1://{A1}?fixed=yes',
];

const OPERATOR_TEMPLATES = [
  'files://{+path}',
  'search://q{?term,limit}',
  'tree://{/segments*}',
  'list://{items*}',
  'doc://{id}#{+fragment}',
  'pair://{a,b}',
];

const URIS = [
  'notes://abc',
  'notes://',
  'notes://a/b',
  'notes://a,b',
  'notes://ünïcødé',
  'notes://%20x',
  'notes://abc/notes/42',
  'notes://t1/notes/',
  'file:///etc/passwd.txt',
  'file:///etc/passwdXtxt',
  'calc://1+2=(result)',
  'calc://1+2=result',
  'weird://$^A[.*]|B\\end',
  'pair://xy',
  'pair://x',
  'users://7/profile',
  'v1://Z?fixed=yes',
  'v1://Z?fixed=no',
  'files://a/b/c',
  'search://q?term=x&limit=5',
  'tree:///a/b',
  'list://a,b,c',
  'doc://1#x/y',
  '',
];

function sdkAnswer(template: UriTemplate, uri: string) {
  try {
    return { value: template.match(uri) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function kilnAnswer(matcher: ReturnType<typeof compileUriMatcher>, uri: string) {
  try {
    return { value: matcher.match(uri) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe('compileUriMatcher', () => {
  it('compiles plain {name} templates once and answers every URI as the SDK does', () => {
    for (const source of PLAIN_TEMPLATES) {
      const template = new UriTemplate(source);
      const matcher = compileUriMatcher(template);
      expect(matcher, source).not.toBe(template);
      for (const uri of [...URIS, source.replace(/\{(\w+)\}/g, 'v-$1')]) {
        expect(kilnAnswer(matcher, uri), `${source} ← ${uri}`).toEqual(sdkAnswer(template, uri));
      }
    }
  });

  it('finds matches for the URIs it should (the corpus is not all misses)', () => {
    const matcher = compileUriMatcher(new UriTemplate('notes://{tenant}/notes/{id}'));
    expect(matcher.match('notes://t1/notes/42')).toEqual({ tenant: 't1', id: '42' });
    expect(compileUriMatcher(new UriTemplate('pair://{first}{second}')).match('pair://xy')).toEqual({
      first: 'x',
      second: 'y',
    });
  });

  it('leaves templates with operators, lists and explode to the SDK', () => {
    for (const source of OPERATOR_TEMPLATES) {
      const template = new UriTemplate(source);
      expect(compileUriMatcher(template), source).toBe(template);
    }
  });

  it('leaves a URI past the SDK’s length bound to the SDK, which refuses it', () => {
    const template = new UriTemplate('notes://{id}');
    const uri = `notes://${'x'.repeat(1_000_000)}`;
    const answer = kilnAnswer(compileUriMatcher(template), uri);
    expect(answer.error).toMatch(/exceeds maximum length/);
    expect(answer).toEqual(sdkAnswer(template, uri));
  });
});
