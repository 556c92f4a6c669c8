// ctx.content: media blocks collected in call order, through the typed helpers or as raw blocks.
import { describe, expect, it } from 'vitest';
import { createContentCollector } from '../../src/context/content-collect.js';

describe('ctx.content', () => {
  it('starts empty', () => {
    expect(createContentCollector().blocks).toEqual([]);
  });

  it('builds image and audio blocks from data and mime type', () => {
    const { content, blocks } = createContentCollector();
    content.image('iVBORw0KGgo=', 'image/png');
    content.audio('UklGRg==', 'audio/wav');
    expect(blocks).toEqual([
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
    ]);
  });

  it('passes a raw block through unchanged', () => {
    const { content, blocks } = createContentCollector();
    const link = { type: 'resource_link', uri: 'notes://1', name: 'Note 1' };
    content(link);
    expect(blocks).toEqual([link]);
  });

  it('keeps blocks in call order across helpers and raw pushes', () => {
    const { content, blocks } = createContentCollector();
    content.audio('A', 'audio/mpeg');
    content({ type: 'resource_link', uri: 'notes://2', name: 'Note 2' });
    content.image('B', 'image/jpeg');
    content.image('C', 'image/gif');
    expect(blocks.map((b) => b.type)).toEqual(['audio', 'resource_link', 'image', 'image']);
    expect(blocks.map((b) => b.data ?? b.uri)).toEqual(['A', 'notes://2', 'B', 'C']);
  });

  it('gives each collector its own blocks', () => {
    const first = createContentCollector();
    const second = createContentCollector();
    first.content.image('A', 'image/png');
    expect(second.blocks).toEqual([]);
  });
});
