import { describe, expect, it } from 'vitest';
import { frameCostChart } from './chart.js';
import type { RunViewPartResult } from './render/runview-results.js';

const part = (series: Record<string, number[]>) =>
  ({
    contenders: Object.entries(series).map(([contender, frameCostSeries]) => ({ contender, frameCostSeries })),
  }) as unknown as RunViewPartResult;

describe('frameCostChart', () => {
  it('draws one line per contender with a legend entry, on an axis that holds the highest point', () => {
    const svg = frameCostChart(
      part({ 'runview-plain': [10, 12, 13], 'runview-markdown': [14, 30, 42], streamdown: [20, 30, 40] }),
      'title',
      'subtitle',
    );
    expect(svg.match(/<polyline /g)).toHaveLength(3);
    expect(svg).toContain('>runview-markdown</text>');
    expect(svg).toMatch(/>50<\/text>/); // 42 ms rounds the axis up to 50
  });

  it('writes titles as text, never as markup', () => {
    const svg = frameCostChart(part({ streamdown: [1] }), '<script>alert(1)</script>', 'a & b');
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(svg).toContain('a &amp; b');
  });
});
