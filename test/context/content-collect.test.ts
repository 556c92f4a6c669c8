// ctx.content: media blocks collected in call order, through the typed helpers or as raw blocks.
import { describe, expect, it } from 'vitest';
import { ContentCollector } from '../../src/context/content-collect.js';

describe('ctx.content', () => {
  it('starts empty', () => {
    expect(new ContentCollector().blocks).toEqual([]);
  });

  it('builds image and audio blocks from data and mime type', () => {
    const collector = new ContentCollector();
    collector.content.image('iVBORw0KGgo=', 'image/png');
    collector.content.audio('UklGRg==', 'audio/wav');
    expect(collector.blocks).toEqual([
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
    ]);
  });

  it('passes a raw block through unchanged', () => {
    const collector = new ContentCollector();
    const link = { type: 'resource_link', uri: 'notes://1', name: 'Note 1' };
    collector.content(link);
    expect(collector.blocks).toEqual([link]);
  });

  it('keeps blocks in call order across helpers and raw pushes, with the helpers usable detached', () => {
    const collector = new ContentCollector();
    const { content } = collector;
    const { image } = content;
    content.audio('A', 'audio/mpeg');
    content({ type: 'resource_link', uri: 'notes://2', name: 'Note 2' });
    image('B', 'image/jpeg');
    content.image('C', 'image/gif');
    expect(collector.blocks.map((b) => b.type)).toEqual(['audio', 'resource_link', 'image', 'image']);
    expect(collector.blocks.map((b) => b.data ?? b.uri)).toEqual(['A', 'notes://2', 'B', 'C']);
  });

  it('gives each collector its own blocks, and the empty list cannot be written to', () => {
    const first = new ContentCollector();
    const second = new ContentCollector();
    first.content.image('A', 'image/png');
    expect(second.blocks).toEqual([]);
    expect(Object.isFrozen(second.blocks)).toBe(true);
    expect(first.blocks).toHaveLength(1);
  });
});
