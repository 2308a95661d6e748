import type { RunViewPartResult } from './render/runview-results.js';
import type { RunViewContender } from './render/runview-trial-types.js';

const COLOURS: Record<RunViewContender, string> = {
  'runview-plain': '#1f77b4',
  'runview-markdown': '#d62728',
  streamdown: '#2ca02c',
  'useChat-throttle50': '#7f7f7f',
};

/** Text put into the SVG: escaped, since a contender name or label must never become markup. */
function escapeXml(text: string): string {
  return text.replace(
    /[<>&"']/g,
    (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[char]!,
  );
}

/** A round number at or above `value` for the y axis: 1, 2 or 5 times a power of ten. */
function niceCeiling(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((step) => step * power).find((candidate) => candidate >= value)!;
}

/**
 * The chart of docs/performance.md: main-thread ms per frame (y) over the position in the stream (x), one line per
 * contender, each point the median over the rounds. A plain SVG, so it diffs and renders anywhere.
 */
export function frameCostChart(part: RunViewPartResult, title: string, subtitle: string): string {
  const width = 880;
  const height = 460;
  const margin = { left: 64, right: 220, top: 64, bottom: 56 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const highest = Math.max(0, ...part.contenders.flatMap((view) => view.frameCostSeries));
  const top = niceCeiling(highest);
  const x = (i: number, count: number) => margin.left + ((i + 0.5) / count) * plotWidth;
  const y = (ms: number) => margin.top + plotHeight - (ms / top) * plotHeight;

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="13">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${margin.left}" y="24" font-size="15" font-weight="600">${escapeXml(title)}</text>`,
    `<text x="${margin.left}" y="44" fill="#555">${escapeXml(subtitle)}</text>`,
  ];
  for (let step = 0; step <= 5; step++) {
    const ms = (top / 5) * step;
    parts.push(
      `<line x1="${margin.left}" x2="${margin.left + plotWidth}" y1="${y(ms)}" y2="${y(ms)}" stroke="#e5e5e5"/>`,
      `<text x="${margin.left - 8}" y="${y(ms) + 4}" text-anchor="end">${Number(ms.toFixed(1))}</text>`,
    );
  }
  for (let percent = 0; percent <= 100; percent += 20) {
    const px = margin.left + (percent / 100) * plotWidth;
    parts.push(`<text x="${px}" y="${margin.top + plotHeight + 20}" text-anchor="middle">${percent}%</text>`);
  }
  parts.push(
    `<text x="${margin.left + plotWidth / 2}" y="${height - 12}" text-anchor="middle">position in the stream (share of the deltas due)</text>`,
    `<text transform="translate(18 ${margin.top + plotHeight / 2}) rotate(-90)" text-anchor="middle">main-thread ms per frame</text>`,
    `<rect x="${margin.left}" y="${margin.top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#999"/>`,
  );
  part.contenders.forEach((view, index) => {
    const series = view.frameCostSeries;
    const points = series.map((ms, i) => `${x(i, series.length).toFixed(1)},${y(ms).toFixed(1)}`).join(' ');
    const colour = COLOURS[view.contender];
    parts.push(`<polyline points="${points}" fill="none" stroke="${colour}" stroke-width="2.5"/>`);
    const legendY = margin.top + 16 + index * 24;
    parts.push(
      `<line x1="${width - margin.right + 16}" x2="${width - margin.right + 40}" y1="${legendY - 4}" y2="${legendY - 4}" stroke="${colour}" stroke-width="3"/>`,
      `<text x="${width - margin.right + 48}" y="${legendY}">${escapeXml(view.contender)}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
